/**
 * Small JSON state files under `~/.gantry/` (project-server approvals, MCP approval pins): read
 * tolerantly, written atomically (a temp file in the same directory, then rename), mode 0600. The
 * temp file is `.<name>.gantry-tmp-<pid>-<hex>`; a killed writer's is swept by the next write
 * (core/stale-temp.ts).
 *
 * - A missing file reads as `undefined`.
 * - A file that does not parse also reads as `undefined` and is never overwritten by `writeJsonFile`
 *   callers that pass `keepUnparseable: true`; state files are Gantry's own, so by default a broken
 *   one is replaced (it can only have been damaged outside Gantry), and the damage is reported by
 *   `readJsonFile`'s `error`.
 */
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeStaleTempFilesSync, tempNameFor } from '../../../core/stale-temp.js';

export interface JsonRead {
  value: unknown;
  /** Set when the file exists but could not be read or parsed. */
  error?: string;
}

/** Reads `file` as JSON (see the module comment). Never throws. */
export function readJsonFile(file: string): JsonRead {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { value: undefined } : { value: undefined, error: `${file}: ${String(e)}` };
  }
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (e) {
    return { value: undefined, error: `${file}: not valid JSON (${(e as Error).message})` };
  }
}

/** Writes `value` as pretty JSON to `file` atomically, creating the directory (mode 0700). Throws on I/O errors. */
export function writeJsonFile(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // A writer SIGKILLed between create and rename leaves its temp file; the next write here removes it.
  removeStaleTempFilesSync(path.dirname(file));
  const temp = path.join(path.dirname(file), tempNameFor(path.basename(file)));
  try {
    writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { encoding: 'utf8', mode: 0o600, flag: 'wx' });
    renameSync(temp, file);
  } catch (e) {
    try {
      unlinkSync(temp);
    } catch {
      // The temp file was never created or is already gone.
    }
    throw e;
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
