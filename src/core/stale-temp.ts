/**
 * Names and sweep of the temp files Gantry writes beside a file it replaces by rename
 * (docs/reliability.md, "Temp files"): `.<name>.gantry-tmp-<pid>-<8 hex>` — hidden, recognisable,
 * and carrying the writer's pid. A process killed between create and rename leaves one behind; the
 * next writer into that directory removes those of this user whose pid is no longer running and
 * that are older than `GANTRY_STALE_TEMP_MS` (default 10 minutes; the age guards against a live
 * writer in another pid namespace sharing the directory, and against a reused pid).
 *
 * Shared by the file tools' atomic write (tools/file-io/atomic-write.ts), the settings writer
 * (permissions/settings/persist.ts) and the `~/.gantry` state files (mcp/client/store/json-file.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstatSync, readdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';

const TEMP_NAME = /^\.(.+)\.gantry-tmp-(\d+)-[0-9a-f]{8}$/;

/** Name (not path) of a temp file for the file named `base`, written by this process. */
export function tempNameFor(base: string): string {
  return `.${base}.gantry-tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** True when `name` is one of Gantry's temp files. */
export function isGantryTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/** The writer pid in a temp file's name, or undefined when `name` is not one. */
export function tempWriterPid(name: string): number | undefined {
  const m = TEMP_NAME.exec(name);
  return m ? Number(m[2]) : undefined;
}

/** Default age (ms) before a dead writer's temp file may be removed. */
export const DEFAULT_STALE_TEMP_MS = 10 * 60_000;

/** `GANTRY_STALE_TEMP_MS` when it is a non-negative number, else the default (ms). */
export function staleTempAgeMs(): number {
  const v = Number(process.env.GANTRY_STALE_TEMP_MS);
  return Number.isFinite(v) && v >= 0 ? v : DEFAULT_STALE_TEMP_MS;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the writer named in `name` is neither this process nor any running process. */
export function tempWriterGone(name: string): boolean {
  const pid = tempWriterPid(name);
  if (pid === undefined || pid === process.pid) return false;
  return !pidAlive(pid);
}

/** Whether the lstat of a dead writer's temp file allows removing it: a regular file of this user, old enough. */
export function staleTempRemovable(s: Stats, minAgeMs: number): boolean {
  const euid = process.geteuid?.();
  if (!s.isFile() || (euid !== undefined && s.uid !== euid)) return false;
  return Date.now() - s.mtimeMs >= minAgeMs;
}

/**
 * Synchronous sweep of `dir` (for writers that are synchronous): removes the temp files left by
 * killed writers — ours by name, owned by this user, a regular file (a link is never followed),
 * writer pid not running, older than `minAgeMs`. Never throws.
 * @returns the names removed.
 */
export function removeStaleTempFilesSync(dir: string, minAgeMs: number = staleTempAgeMs()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!tempWriterGone(name)) continue;
    try {
      const file = path.join(dir, name);
      if (!staleTempRemovable(lstatSync(file), minAgeMs)) continue;
      unlinkSync(file);
      removed.push(name);
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}
