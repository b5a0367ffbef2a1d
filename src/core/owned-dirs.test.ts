import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeOwnedDir, ownerAlive, processStartTicks, sweepStaleOwnedDirs } from './owned-dirs.js';

let base: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-owned-dirs-')));
});
const cleanups: (() => void)[] = [];
const onCleanup = (f: () => void): void => {
  cleanups.push(f);
};
afterEach(() => {
  for (const f of cleanups.splice(0)) f();
  rmSync(base, { recursive: true, force: true });
});

/**
 * A real Node process that makes its owned directory the way Gantry does (mkdtemp 0700, owner.json
 * with its pid and start time), reports it, and is then SIGKILLed: nothing of it can clean up.
 */
async function dirOfKilledProcess(prefix: string): Promise<string> {
  const script = `
    const fs = require('node:fs'), path = require('node:path');
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    const root = fs.mkdtempSync(path.join(process.argv[1], process.argv[2] + process.pid + '-'));
    fs.writeFileSync(path.join(root, 'owner.json'), JSON.stringify({ pid: process.pid, started }));
    fs.writeFileSync(path.join(root, 'inline-1.json'), '{}');
    console.log(root);
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script, base, prefix], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const root = await new Promise<string>((resolve) =>
    child.stdout.setEncoding('utf8').once('data', (d: string) => resolve(d.trim())),
  );
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone;
  return root;
}

describe('owned directories', () => {
  it('makeOwnedDir: a private directory named with this pid, with owner.json naming this process', () => {
    const root = makeOwnedDir(path.join(base, 'state', 'tmp'), 'settings-');
    expect(path.basename(root)).toMatch(new RegExp(`^settings-${process.pid}-`));
    expect(statSync(root).mode & 0o777).toBe(0o700);
    expect(statSync(path.dirname(root)).mode & 0o777).toBe(0o700);
    const owner = JSON.parse(readFileSync(path.join(root, 'owner.json'), 'utf8'));
    expect(owner).toEqual({ pid: process.pid, started: processStartTicks(process.pid) });
    expect(ownerAlive(owner)).toBe(true);
  });

  it('the sweep removes the directory of a SIGKILLed owner and keeps a live one', async () => {
    const dead = await dirOfKilledProcess('settings-');
    const live = makeOwnedDir(base, 'settings-');
    expect(existsSync(dead)).toBe(true);
    expect(sweepStaleOwnedDirs(base, 'settings-')).toEqual([dead]);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });

  it.each([
    {
      reason: 'group or other bits: not a directory mkdtemp made for this user',
      spoil: (d: string) => chmodSync(d, 0o755),
    },
    {
      reason: 'a link (to a private directory) is never followed',
      spoil: (d: string) => {
        // Replace the directory by a link to a private copy of it outside the base.
        const target = path.join(path.dirname(base), `${path.basename(base)}-target`);
        mkdirSync(target, { mode: 0o700 });
        onCleanup(() => rmSync(target, { recursive: true, force: true }));
        writeFileSync(path.join(target, 'owner.json'), readFileSync(path.join(d, 'owner.json')));
        rmSync(d, { recursive: true });
        symlinkSync(target, d);
      },
    },
  ])('the sweep leaves a dead owner’s entry with $reason', async ({ spoil }) => {
    const dead = await dirOfKilledProcess('settings-');
    spoil(dead);
    expect(sweepStaleOwnedDirs(base, 'settings-')).toEqual([]);
    expect(readdirSync(base)).toContain(path.basename(dead));
  });

  it('without owner.json only a dead pid in the name counts; other prefixes are not touched', async () => {
    const dead = await dirOfKilledProcess('settings-');
    rmSync(path.join(dead, 'owner.json'));
    const other = await dirOfKilledProcess('browser-');
    const mine = mkdtempSync(path.join(base, `settings-${process.pid}-`));
    expect(sweepStaleOwnedDirs(base, 'settings-')).toEqual([dead]);
    expect(existsSync(other)).toBe(true);
    expect(existsSync(mine)).toBe(true);
  });

  it('a pid reused by a later process (another start time) is not the owner', () => {
    expect(ownerAlive({ pid: process.pid, started: processStartTicks(process.pid) })).toBe(true);
    expect(ownerAlive({ pid: process.pid, started: '1' })).toBe(false);
  });

  it('a missing base directory sweeps nothing', () => {
    expect(sweepStaleOwnedDirs(path.join(base, 'absent'), 'settings-')).toEqual([]);
  });
});
