import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BROWSER_DIR_PREFIX, makeBrowserDirs, sweepStaleBrowserDirs } from './browser-temp.js';

let base: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  base = mkdtempSync(path.join(tmpdir(), 'gantry-browser-temp-test-'));
});
afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) {
      c.kill('SIGKILL');
      await new Promise((r) => c.once('exit', r));
    }
  }
  rmSync(base, { recursive: true, force: true });
});

/** A process that idles with `mark` on its command line (as Chromium has its profile path). */
function idler(mark: string): Promise<ChildProcess> {
  const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', mark], {
    stdio: 'ignore',
    detached: true,
  });
  children.push(c);
  return new Promise((resolve) => c.once('spawn', () => resolve(c)));
}
/** The pid of a process that has exited. */
const exitedPid = (): number =>
  Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
const running = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;

/** A session directory as a Gantry process `pid` would have left it. */
function leftBehind(
  pid: number,
  started: string | null,
  name = `${BROWSER_DIR_PREFIX}${pid}-abc123`,
): string {
  const root = path.join(base, name);
  mkdirSync(root, { mode: 0o700 });
  mkdirSync(path.join(root, 'profile'), { recursive: true });
  mkdirSync(path.join(root, 'tmp', 'org.chromium.Chromium.x'), { recursive: true });
  writeFileSync(path.join(root, 'owner.json'), JSON.stringify({ pid, started }));
  return root;
}

describe('makeBrowserDirs', () => {
  it('makes profile, artifacts and tmp under one directory with the owner, and release removes it', () => {
    const dirs = makeBrowserDirs(base);
    expect(path.basename(dirs.root).startsWith(`${BROWSER_DIR_PREFIX}${process.pid}-`)).toBe(true);
    expect(readdirSync(dirs.root).sort()).toEqual(['artifacts', 'owner.json', 'profile', 'tmp']);
    // Its own live directory is never swept.
    expect(sweepStaleBrowserDirs(base)).toEqual([]);
    dirs.release();
    expect(existsSync(dirs.root)).toBe(false);
    dirs.release();
  });

  it('is removed when the process exits without releasing it', () => {
    const script = `import('${path.join(import.meta.dirname, 'browser-temp.ts').replace(/\\/g, '/')}').then((m) => { const d = m.makeBrowserDirs(${JSON.stringify(base)}); console.log(d.root); })`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const root = r.stdout.trim();
    expect(root.startsWith(base)).toBe(true);
    expect(existsSync(root)).toBe(false);
  });
});

describe('sweepStaleBrowserDirs', () => {
  it('removes the directory of an owner that is gone, killing a Chromium still running from it', async () => {
    const root = leftBehind(exitedPid(), '1');
    const chromium = await idler(path.join(root, 'profile'));
    symlinkSync(`host-${chromium.pid}`, path.join(root, 'profile', 'SingletonLock'));
    const gone = new Promise((r) => chromium.once('exit', r));
    expect(sweepStaleBrowserDirs(base)).toEqual([root]);
    await gone;
    expect(existsSync(root)).toBe(false);
  });

  const rows: Array<{
    reason: string;
    owner: () => Promise<{ pid: number; started: string | null }>;
    swept: boolean;
  }> = [
    {
      reason: 'a live owner keeps its directory',
      owner: async () => ({ pid: process.pid, started: null }),
      swept: false,
    },
    {
      reason: 'a pid reused by another process (other start time) is not the owner',
      owner: async () => ({ pid: (await idler('reused')).pid as number, started: '1' }),
      swept: true,
    },
  ];
  for (const row of rows)
    it(row.reason, async () => {
      const o = await row.owner();
      const root = leftBehind(o.pid, o.started, `${BROWSER_DIR_PREFIX}${o.pid}-row`);
      expect(sweepStaleBrowserDirs(base)).toEqual(row.swept ? [root] : []);
      expect(existsSync(root)).toBe(!row.swept);
    });

  it('never kills a process the lock names when its command line does not name the profile', async () => {
    const root = leftBehind(exitedPid(), '1');
    const bystander = await idler('not-chromium');
    symlinkSync(`host-${bystander.pid}`, path.join(root, 'profile', 'SingletonLock'));
    expect(sweepStaleBrowserDirs(base)).toEqual([root]);
    expect(running(bystander)).toBe(true);
  });

  it('without an owner file, uses the pid in the name; other names are not touched', () => {
    const dead = exitedPid();
    const noOwner = path.join(base, `${BROWSER_DIR_PREFIX}${dead}-zz`);
    mkdirSync(noOwner, { mode: 0o700 }); // as mkdtemp makes it
    const other = path.join(base, 'playwright_chromiumdev_profile-x');
    mkdirSync(other);
    expect(sweepStaleBrowserDirs(base)).toEqual([noOwner]);
    expect(existsSync(other)).toBe(true);
  });
});

describe("Chromium's TMPDIR and the Unix socket path limit", () => {
  const socketPathBytes = (tmp: string) =>
    Buffer.byteLength(path.join(tmp, 'org.chromium.Chromium.XXXXXX', 'SingletonSocket'));

  it('a session directory too deep for the singleton socket gets a short TMPDIR, removed with it', () => {
    const deep = path.join(base, 'd'.repeat(60));
    mkdirSync(deep);
    const dirs = makeBrowserDirs(deep);
    expect(dirs.tmp.startsWith('/tmp/gantry-bt-')).toBe(true);
    expect(socketPathBytes(dirs.tmp)).toBeLessThanOrEqual(107);
    expect(existsSync(dirs.tmp)).toBe(true);
    dirs.release();
    expect(existsSync(dirs.tmp)).toBe(false);
    expect(existsSync(dirs.root)).toBe(false);
  });

  it('a shallow one keeps its TMPDIR inside the session directory', () => {
    const dirs = makeBrowserDirs(base);
    if (socketPathBytes(path.join(dirs.root, 'tmp')) <= 107)
      expect(dirs.tmp).toBe(path.join(dirs.root, 'tmp'));
    dirs.release();
    expect(existsSync(dirs.tmp)).toBe(false);
  });

  it('the sweep removes the short TMPDIR a dead owner named, and never a path outside that prefix', () => {
    const short = mkdtempSync('/tmp/gantry-bt-');
    const root = leftBehind(exitedPid(), '1');
    writeFileSync(
      path.join(root, 'owner.json'),
      JSON.stringify({ pid: exitedPid(), started: '1', tmp: short }),
    );
    const outside = mkdtempSync(path.join(base, 'not-ours-'));
    const tampered = leftBehind(exitedPid(), '1', `${BROWSER_DIR_PREFIX}1-tampered`);
    writeFileSync(
      path.join(tampered, 'owner.json'),
      JSON.stringify({ pid: exitedPid(), started: '1', tmp: outside }),
    );
    const dotted = leftBehind(exitedPid(), '1', `${BROWSER_DIR_PREFIX}2-dotted`);
    writeFileSync(
      path.join(dotted, 'owner.json'),
      JSON.stringify({ pid: exitedPid(), started: '1', tmp: `/tmp/gantry-bt-/../${path.basename(outside)}` }),
    );
    expect(sweepStaleBrowserDirs(base).sort()).toEqual([root, tampered, dotted].sort());
    expect(existsSync(short)).toBe(false);
    expect(existsSync(outside)).toBe(true);
  });

  it('the sweep leaves a directory anyone else could have made (not private) and a short TMPDIR that is not private', () => {
    const open = leftBehind(exitedPid(), '1', `${BROWSER_DIR_PREFIX}3-open`);
    chmodSync(open, 0o755);
    const shared = mkdtempSync('/tmp/gantry-bt-');
    chmodSync(shared, 0o755);
    const naming = leftBehind(exitedPid(), '1', `${BROWSER_DIR_PREFIX}4-naming`);
    writeFileSync(
      path.join(naming, 'owner.json'),
      JSON.stringify({ pid: exitedPid(), started: '1', tmp: shared }),
    );
    try {
      expect(sweepStaleBrowserDirs(base)).toEqual([naming]);
      expect(existsSync(open)).toBe(true);
      expect(existsSync(shared)).toBe(true);
    } finally {
      rmSync(shared, { recursive: true, force: true });
    }
  });
});
