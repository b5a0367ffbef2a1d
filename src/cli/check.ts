/**
 * `gantry check`: explain the decision for one Bash command or one tool call under the settings
 * Claude Code would load (plus `--settings` files).
 *
 *   gantry check [--settings FILE]… [--mode MODE] [--cwd DIR] [--add-dir DIR]… -- <command>
 *   gantry check --tool NAME --input JSON
 *
 * Exit code: 0 allow, 1 ask, 2 deny, 3 usage or input error — and 3 for an internal error too, so a
 * script never reads a crash as "ask". `--json` prints one JSON object.
 */
import { PERMISSION_MODES, type PermissionMode } from '../core/index.js';
import { createGuard, explicitSettingsErrors, type Guard, type GuardOptions } from './shared/guard.js';
import { didYouMean, isKnownToolName } from './shared/did-you-mean.js';
import { formatCheck, toCheckJson } from './shared/format-check.js';

export const EXIT_BY_BEHAVIOR = { allow: 0, ask: 1, deny: 2 } as const;
export const EXIT_USAGE = 3;
/** An internal error: never 1, which means ask. */
export const EXIT_INTERNAL_ERROR = 3;

export interface CheckCliOptions {
  settings?: string[];
  mode?: string;
  cwd?: string;
  addDir?: string[];
  tool?: string;
  input?: string;
  json?: boolean;
  hooks?: boolean;
  trust?: boolean;
  /** Output sinks (default: process.stdout / process.stderr). */
  out?: (text: string) => void;
  err?: (text: string) => void;
  /** Home directory override (tests). */
  home?: string;
  /**
   * The caller's environment (`HOME`, `GANTRY_TRUST_PROJECT`, `GANTRY_ANALYSIS_DEADLINE_MS`;
   * default `process.env`): the resident server (check-server.ts) passes its client's.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** Builds the guard (default `createGuard`; tests inject failures). */
  makeGuard?: (o: GuardOptions) => Pick<Guard, 'settings' | 'check'>;
}

/** Runs `check`; returns the exit code (prints to stdout/stderr). */
export async function runCheck(words: string[], o: CheckCliOptions): Promise<number> {
  const out = o.out ?? ((t: string) => process.stdout.write(t));
  const err = o.err ?? ((t: string) => process.stderr.write(t));
  const fail = (msg: string): number => {
    err(`gantry check: ${msg}\n`);
    return EXIT_USAGE;
  };
  if (o.mode && !PERMISSION_MODES.includes(o.mode as PermissionMode)) {
    return fail(`unknown --mode ${o.mode} (one of ${PERMISSION_MODES.join(', ')})`);
  }
  let toolName: string;
  let input: Record<string, unknown>;
  if (o.tool) {
    if (words.length) return fail('give either --tool/--input or a command after --, not both');
    try {
      const parsed: unknown = JSON.parse(o.input ?? '{}');
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        return fail('--input must be a JSON object');
      input = parsed as Record<string, unknown>;
    } catch (e) {
      return fail(`--input is not valid JSON: ${(e as Error).message}`);
    }
    toolName = o.tool;
    if (!isKnownToolName(toolName)) {
      const guess = didYouMean(toolName);
      err(
        `gantry check: ${toolName} is not a tool Gantry knows${guess ? `; did you mean ${guess}?` : ''} (names are case-sensitive, as in Claude Code)\n`,
      );
    }
  } else {
    if (!words.length) return fail('nothing to check: pass a command after -- or --tool NAME --input JSON');
    toolName = 'Bash';
    input = { command: words.join(' ') };
  }
  try {
    const guard = (o.makeGuard ?? createGuard)({
      cwd: o.cwd ?? process.cwd(),
      ...(o.settings ? { settingsFiles: o.settings } : {}),
      ...(o.mode ? { mode: o.mode } : {}),
      ...(o.addDir ? { addDirs: o.addDir } : {}),
      ...(o.trust !== undefined ? { trust: o.trust } : {}),
      ...(o.env ? { env: o.env, ...(o.env.HOME ? { home: o.env.HOME } : {}) } : {}),
      ...(o.home ? { home: o.home, managedFiles: [] } : {}),
    });
    const broken = explicitSettingsErrors(guard.settings, o.settings);
    if (broken.length) {
      for (const p of broken) err(`gantry check: ${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}\n`);
      return EXIT_USAGE;
    }
    const result = await guard.check(toolName, input, { hooks: o.hooks === true });
    if (o.json) {
      out(`${JSON.stringify(toCheckJson(result, guard.settings))}\n`);
    } else {
      for (const p of guard.settings.problems) {
        err(`settings ${p.severity}: ${p.file ?? ''}${p.line ? `:${p.line}` : ''} ${p.message}\n`);
      }
      out(formatCheck(result, guard.settings));
    }
    return EXIT_BY_BEHAVIOR[result.detailed.decision.behavior];
  } catch (e) {
    err(`gantry check: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return EXIT_INTERNAL_ERROR;
  }
}
