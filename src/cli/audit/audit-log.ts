/**
 * The audit log of the guard faces (`gantry hook`, `gantry serve`): one JSON line per decision or
 * recorded event, readable with `gantry log` (docs/guard.md "Audit log").
 *
 * File: `GANTRY_HOOK_LOG` (`off` or `0` turns logging off), default `~/.gantry/hook-log.jsonl`.
 * The directory is created 0700 and the file 0600; an existing file is narrowed to 0600. When the
 * file reaches `GANTRY_HOOK_LOG_MAX_BYTES` (default 10 MiB) it is rotated to `<file>.1` (the older
 * `.1` becomes `.2`, and so on up to {@link ROTATED_FILES}), so the log never grows without bound.
 *
 * Lines never hold file contents: inputs are reduced to a bounded summary (input-summary.ts).
 * Appending never throws: an unwritable log must not change a decision.
 *
 * This module is loaded by the hook's one-shot bundle, so it uses only `node:` built-ins.
 */
import { appendFileSync, chmodSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/** Default size at which the log rotates, in bytes. */
export const DEFAULT_LOG_MAX_BYTES = 10 * 1024 * 1024;
/** Rotated generations kept beside the live file (`.1` … `.3`). */
export const ROTATED_FILES = 3;

/** The audit log file, or undefined when logging is off. */
export function hookLogPath(env: Env): string | undefined {
  const v = env.GANTRY_HOOK_LOG;
  if (v === 'off' || v === '0') return undefined;
  return v || path.join(env.HOME || homedir(), '.gantry', 'hook-log.jsonl');
}

/** The rotation threshold from `GANTRY_HOOK_LOG_MAX_BYTES` (bytes; invalid values use the default). */
export function logMaxBytes(env: Env): number {
  const n = Number(env.GANTRY_HOOK_LOG_MAX_BYTES);
  return Number.isFinite(n) && n >= 1024 ? Math.floor(n) : DEFAULT_LOG_MAX_BYTES;
}

/** The live file and its rotated generations, newest first. */
export function logGenerations(file: string): string[] {
  return [file, ...Array.from({ length: ROTATED_FILES }, (_, i) => `${file}.${i + 1}`)];
}

function rotate(file: string): void {
  const gens = logGenerations(file);
  for (let i = gens.length - 1; i > 0; i--) {
    try {
      renameSync(gens[i - 1] as string, gens[i] as string);
    } catch {
      // a missing generation is fine
    }
  }
}

/** Appends one line `{time, ...entry}`. Never throws. */
export function appendAuditLine(env: Env, entry: Record<string, unknown>): void {
  const file = hookLogPath(env);
  if (!file) return;
  try {
    const line = `${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`;
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    let size = 0;
    try {
      const st = statSync(file);
      size = st.size;
      if ((st.mode & 0o077) !== 0) chmodSync(file, 0o600);
    } catch {
      // first line of a new file
    }
    if (size > 0 && size + line.length > logMaxBytes(env)) rotate(file);
    appendFileSync(file, line, { mode: 0o600 });
  } catch {
    // unwritable log: the decision itself is unaffected
  }
}
