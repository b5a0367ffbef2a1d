/**
 * Bash input schema and limits (the Claude Code tools reference "Input", "Output and limits"; docs/architecture.md).
 *
 * Limits come from the environment the way Claude Code reads them:
 * - `BASH_DEFAULT_TIMEOUT_MS` (default 120,000) and `BASH_MAX_TIMEOUT_MS` (default 600,000); the
 *   effective ceiling is the larger of the two; a `timeout` above it is clamped, not rejected.
 * - Background runs: default 1,800,000 ms, ceiling 7,200,000 ms (types 2.1.332).
 * - `BASH_MAX_OUTPUT_LENGTH` (default 30,000, hard max 150,000): characters of output the model sees.
 */
import { z } from 'zod';

export const BashInput = z.strictObject({
  command: z.string().describe('The command to execute'),
  timeout: z
    .number()
    .describe('Optional timeout in milliseconds (max 600000). Defaults to 120000 (2 minutes).')
    .optional(),
  description: z
    .string()
    .describe(
      'Clear, concise description of what this command does in active voice, 5-10 words for simple commands ' +
        '(e.g. "List files in current directory"); say more for complex or piped commands.',
    )
    .optional(),
  run_in_background: z
    .boolean()
    .describe(
      'Set to true to run this command in the background. Read its output later with TaskOutput (or Read on the output file).',
    )
    .optional(),
  dangerouslyDisableSandbox: z
    .boolean()
    .describe('Set to true to ask to run this command outside the sandbox (needs approval).')
    .optional(),
});

export type BashInput = z.infer<typeof BashInput>;

/** Default result cap for Bash output shown to the model (characters; docs/architecture.md). */
export const BASH_MAX_RESULT_SIZE_CHARS = 30_000;
/** Inline cap for failed commands (the Claude Code tools reference: "Failed results go inline up to ≈10 000 chars"). */
export const BASH_FAILURE_RESULT_CHARS = 10_000;
/** Hard maximum of `BASH_MAX_OUTPUT_LENGTH`. */
export const BASH_MAX_OUTPUT_LENGTH_CEILING = 150_000;

export interface BashLimits {
  defaultTimeoutMs: number;
  maxTimeoutMs: number;
  backgroundDefaultTimeoutMs: number;
  backgroundMaxTimeoutMs: number;
  /** Characters of output shown to the model for a successful command. */
  maxOutputChars: number;
  /** Characters shown for a failed command. */
  failureOutputChars: number;
  /** The process group is stopped past this many output bytes (the Claude Code tools reference: "killed past 5 GB"). */
  maxOutputBytes: number;
  /** SIGTERM → SIGKILL grace period. */
  killGraceMs: number;
  /** Minimum time between progress events. */
  progressIntervalMs: number;
}

function positiveInt(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : undefined;
}

/** Limits from `env` (default `process.env`), see module comment. Invalid values fall back to defaults. */
export function bashLimitsFromEnv(env: Record<string, string | undefined> = process.env): BashLimits {
  const defaultTimeoutMs = positiveInt(env.BASH_DEFAULT_TIMEOUT_MS) ?? 120_000;
  const maxTimeoutMs = Math.max(positiveInt(env.BASH_MAX_TIMEOUT_MS) ?? 600_000, defaultTimeoutMs);
  const maxOutputChars = Math.min(
    positiveInt(env.BASH_MAX_OUTPUT_LENGTH) ?? BASH_MAX_RESULT_SIZE_CHARS,
    BASH_MAX_OUTPUT_LENGTH_CEILING,
  );
  return {
    defaultTimeoutMs,
    maxTimeoutMs,
    backgroundDefaultTimeoutMs: 1_800_000,
    backgroundMaxTimeoutMs: 7_200_000,
    maxOutputChars,
    failureOutputChars: Math.min(BASH_FAILURE_RESULT_CHARS, maxOutputChars),
    maxOutputBytes: 5 * 1024 * 1024 * 1024,
    killGraceMs: 2_000,
    progressIntervalMs: 1_000,
  };
}

/** The timeout to apply: the input's (clamped to [1, ceiling]) or the default. */
export function effectiveTimeoutMs(
  input: Pick<BashInput, 'timeout' | 'run_in_background'>,
  limits: BashLimits,
): number {
  const background = input.run_in_background === true;
  const fallback = background ? limits.backgroundDefaultTimeoutMs : limits.defaultTimeoutMs;
  const ceiling = background ? limits.backgroundMaxTimeoutMs : limits.maxTimeoutMs;
  if (input.timeout === undefined || !Number.isFinite(input.timeout) || input.timeout <= 0) return fallback;
  return Math.min(Math.floor(input.timeout), ceiling);
}
