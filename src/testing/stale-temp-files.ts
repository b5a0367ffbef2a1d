/**
 * Fixtures for the stale-temp sweep of Gantry's atomic writers (src/core/stale-temp.ts,
 * docs/reliability.md "Temp files"): a pid that is certainly gone, and the table of leftover files
 * every writer's test plants beside its target before writing.
 */
import { spawnSync } from 'node:child_process';
import { utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A pid that ran and exited: a writer SIGKILLed before its rename. */
export function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '']);
  if (r.pid === undefined) throw new Error('could not run node');
  return r.pid;
}

/** `[file name, older than the stale age, kept by the sweep, why]`. */
export type StaleTempRow = [name: string, old: boolean, kept: boolean, why: string];

/**
 * The leftovers beside `target` (a file name): a dead writer's old temp file (removed), a dead
 * writer's young one and this process's own (kept), and `otherName`, which is not a Gantry temp name.
 */
export function staleTempRows(target: string, otherName: string): StaleTempRow[] {
  const dead = deadPid();
  return [
    [`.${target}.gantry-tmp-${dead}-0123abcd`, true, false, 'writer gone, older than the stale age'],
    [
      `.${target}.gantry-tmp-${dead}-4567abcd`,
      false,
      true,
      'young: a writer in another pid namespace may own it',
    ],
    [`.${target}.gantry-tmp-${process.pid}-89abcdef`, true, true, 'its writer runs (this process)'],
    [otherName, true, true, 'not a Gantry temp name'],
  ];
}

/** Writes each row's file in `dir`, the old ones dated an hour back. */
export function plantTempFiles(dir: string, rows: readonly StaleTempRow[]): void {
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const [name, old] of rows) {
    writeFileSync(path.join(dir, name), 'x');
    if (old) utimesSync(path.join(dir, name), hourAgo, hourAgo);
  }
}
