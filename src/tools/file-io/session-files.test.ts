/**
 * Retention of session files, on real directories: the per-session size cap removes the oldest
 * kept files (never the one just kept, never a running task's output), and pruning at start removes
 * sessions older than the retention time and then the oldest while the total is over its cap,
 * leaving alone a session whose process is alive and the caller's own.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimSessionDir, enforceSessionCap, pruneSessionDirs, sessionLimits } from './session-files.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'gantry-sessions-test-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const DAY = 24 * 60 * 60_000;

function file(p: string, bytes: number, ageMs: number): string {
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, Buffer.alloc(bytes, 0x61));
  const t = (Date.now() - ageMs) / 1000;
  utimesSync(p, t, t);
  return p;
}

function session(name: string, bytes: number, ageMs: number, owner?: number): string {
  const dir = path.join(root, name);
  if (owner !== undefined) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'session.json'), JSON.stringify({ pid: owner }));
  }
  file(path.join(dir, 'tool-results', 'r.txt'), bytes, ageMs);
  const t = (Date.now() - ageMs) / 1000;
  for (const d of [path.join(dir, 'tool-results'), dir]) utimesSync(d, t, t);
  if (owner !== undefined) utimesSync(path.join(dir, 'session.json'), t, t);
  return dir;
}

describe('enforceSessionCap', () => {
  it('removes the oldest kept files until the session fits, keeping the one just kept', async () => {
    const s = path.join(root, 's');
    const old = file(path.join(s, 'tool-results', 'old.txt'), 400, 3000);
    const mid = file(path.join(s, 'tool-results', 'mid.bash-output.txt'), 400, 2000);
    const task = file(path.join(s, 'tasks', 'b1.output'), 400, 120_000);
    const fresh = file(path.join(s, 'tool-results', 'new.txt'), 900, 0);
    const removed = await enforceSessionCap(s, { maxBytes: 1000, keep: fresh });
    expect(removed.sort()).toEqual([old, mid, task].sort());
    expect(await readdir(path.join(s, 'tool-results'))).toEqual(['new.txt']);
  });

  it('leaves a task output that is still being written (changed within the last minute)', async () => {
    const s = path.join(root, 's');
    file(path.join(s, 'tasks', 'running.output'), 2000, 0);
    expect(await enforceSessionCap(s, { maxBytes: 100 })).toEqual([]);
  });

  it('does nothing under the cap', async () => {
    const s = path.join(root, 's');
    file(path.join(s, 'tool-results', 'a.txt'), 10, 0);
    expect(await enforceSessionCap(s, { maxBytes: 100 })).toEqual([]);
  });
});

describe('pruneSessionDirs', () => {
  it('removes sessions past the retention time, keeps recent ones', async () => {
    const old = session('old', 10, 8 * DAY);
    const recent = session('recent', 10, 1 * DAY);
    expect(await pruneSessionDirs(root, { retentionMs: 7 * DAY, maxTotalBytes: 1e9 })).toEqual([old]);
    expect(await readdir(root)).toEqual([path.basename(recent)]);
  });

  it('then removes the oldest while the total is over its cap', async () => {
    const a = session('a', 600, 3 * DAY);
    session('b', 600, 2 * DAY);
    session('c', 600, 1 * DAY);
    expect(await pruneSessionDirs(root, { retentionMs: 7 * DAY, maxTotalBytes: 1300 })).toEqual([a]);
  });

  it("never removes a session whose process runs, nor the caller's own", async () => {
    const live = session('live', 10, 30 * DAY, process.pid);
    const mine = session('mine', 10, 30 * DAY);
    const dead = session('dead', 10, 30 * DAY, 2 ** 22 + 12345);
    const removed = await pruneSessionDirs(root, { retentionMs: 7 * DAY, keep: mine });
    expect(removed).toEqual([dead]);
    expect((await readdir(root)).sort()).toEqual([path.basename(live), path.basename(mine)].sort());
  });

  it('claimSessionDir records the owning process, so a running session is safe from pruning', async () => {
    const dir = path.join(root, 'claimed');
    claimSessionDir(dir);
    const t = (Date.now() - 30 * DAY) / 1000;
    utimesSync(dir, t, t);
    utimesSync(path.join(dir, 'session.json'), t, t);
    expect(await pruneSessionDirs(root, { retentionMs: DAY })).toEqual([]);
  });
});

describe('sessionLimits', () => {
  it.each([
    [{}, { maxSessionBytes: 2 * 1024 ** 3, retentionMs: 7 * DAY, maxTotalBytes: 10 * 1024 ** 3 }, 'defaults'],
    [
      { GANTRY_SESSION_RETENTION_DAYS: '1', GANTRY_SESSION_MAX_BYTES: '5', GANTRY_SESSIONS_MAX_BYTES: '9' },
      { maxSessionBytes: 5, retentionMs: DAY, maxTotalBytes: 9 },
      'from the environment',
    ],
    [{ GANTRY_SESSION_RETENTION_DAYS: 'soon' }, { retentionMs: 7 * DAY }, 'a bad value keeps the default'],
  ])('%j → %j (%s)', (env, expected, _why) => {
    expect(sessionLimits(env)).toMatchObject(expected);
  });
});
