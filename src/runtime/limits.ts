/**
 * The runtime's numeric limits (docs/runtime.md; Claude Code's observed caps).
 * Units are in the names: characters (UTF-16 code units, as `contentLength` counts) and bytes.
 */

/** Global cap on one result kept inline: a tool's own `maxResultSizeChars` is clamped to it. */
export const GLOBAL_MAX_RESULT_SIZE_CHARS = 50_000;

/** All results of one assistant turn share this many characters; the largest are spilled first. */
export const MAX_TURN_RESULTS_CHARS = 200_000;

/** Size of the preview shown in a `<persisted-output>` block, in UTF-8 bytes. */
export const PERSISTED_PREVIEW_BYTES = 2_000;

/** Error texts longer than this are middle-truncated around a marker. */
export const MAX_ERROR_MESSAGE_CHARS = 10_000;

/** Default number of concurrency-safe calls run at once (Claude Code's `CLAUDE_CODE_MAX_TOOL_USE_CONCURRENCY` default). */
export const DEFAULT_MAX_TOOL_USE_CONCURRENCY = 10;

/** Environment variable overriding the concurrency cap (positive integer). */
export const MAX_TOOL_USE_CONCURRENCY_ENV = 'GANTRY_MAX_TOOL_USE_CONCURRENCY';

/**
 * The concurrency cap: `explicit` when given, else env `GANTRY_MAX_TOOL_USE_CONCURRENCY` when it is a
 * positive integer, else 10. Throws RangeError when `explicit` is not a positive integer (a
 * programming error); an unusable env value falls back to the default.
 */
export function resolveMaxToolUseConcurrency(
  explicit: number | undefined,
  env: Record<string, string | undefined> = process.env,
): number {
  if (explicit !== undefined) {
    if (!Number.isInteger(explicit) || explicit < 1) {
      throw new RangeError(`maxConcurrency must be a positive integer, got ${explicit}`);
    }
    return explicit;
  }
  const raw = env[MAX_TOOL_USE_CONCURRENCY_ENV]?.trim();
  if (raw && /^\d+$/.test(raw)) {
    const n = Number(raw);
    if (n >= 1) return n;
  }
  return DEFAULT_MAX_TOOL_USE_CONCURRENCY;
}

/**
 * The inline cap of a tool's results: `Infinity` stays `Infinity` (never spilled, e.g. Read),
 * anything else is clamped to `globalMaxChars`. A missing, NaN or non-positive value gets the global cap
 * (fail closed: an ill-declared tool cannot flood the context).
 */
export function effectiveMaxResultSizeChars(
  toolMaxChars: number | undefined,
  globalMaxChars: number = GLOBAL_MAX_RESULT_SIZE_CHARS,
): number {
  if (toolMaxChars === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
  if (toolMaxChars === undefined || Number.isNaN(toolMaxChars) || toolMaxChars <= 0) return globalMaxChars;
  return Math.min(toolMaxChars, globalMaxChars);
}
