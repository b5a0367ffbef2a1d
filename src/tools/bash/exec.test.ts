import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isProcessAlive, liveGroupMembers, startProcess, stopAllProcessGroups } from './exec.js';
import { buildShellSpawnSpec } from './spawn-spec.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gantry-exec-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function spec(command: string) {
  return buildShellSpawnSpec({ command, cwd: dir, cwdFile: path.join(dir, 'cwd') });
}

async function waitForFile(file: string): Promise<string> {
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text.endsWith('\n')) return text.trim();
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('startProcess', () => {
  it('writes stdout and stderr to one file in the order they were produced', async () => {
    const out = path.join(dir, 'out');
    const proc = await startProcess({
      spec: spec('echo one; echo two >&2; echo three; echo four >&2'),
      outputFile: out,
      graceMs: 2000,
    });
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    expect(await readFile(out, 'utf8')).toBe('one\ntwo\nthree\nfour\n');
  });

  it('reports the exit code and the cwd the EXIT trap recorded, even after `exit N`', async () => {
    const proc = await startProcess({
      spec: spec('cd /usr && exit 7'),
      outputFile: path.join(dir, 'out'),
      graceMs: 2000,
    });
    expect((await proc.exited).code).toBe(7);
    expect(await readFile(path.join(dir, 'cwd'), 'utf8')).toBe('/usr\n');
  });

  it('clears the positional parameters and sources no rc file ($BASH_ENV is removed)', async () => {
    const rc = path.join(dir, 'rc.sh');
    await import('node:fs/promises').then((fs) => fs.writeFile(rc, 'echo SOURCED\n'));
    const out = path.join(dir, 'out');
    const proc = await startProcess({
      spec: buildShellSpawnSpec({
        command: 'echo "[$1][$#]"; alias ll 2>&1 || true',
        cwd: dir,
        cwdFile: path.join(dir, 'cwd'),
        env: { ...process.env, BASH_ENV: rc, ENV: rc },
      }),
      outputFile: out,
      graceMs: 2000,
    });
    await proc.exited;
    const text = await readFile(out, 'utf8');
    expect(text).not.toContain('SOURCED');
    expect(text).toContain('[][0]');
  });

  it('rejects when the program cannot be spawned, leaving nothing behind', async () => {
    await expect(
      startProcess({
        spec: { ...spec('true'), file: path.join(dir, 'no-such-shell') },
        outputFile: path.join(dir, 'out'),
        graceMs: 2000,
      }),
    ).rejects.toThrow(/ENOENT/);
  });

  it.each([
    ['a Bash tool spec: its own bash reads the gate', (c: string) => spec(c)],
    [
      'any other spec: /bin/sh reads the gate and execs the program',
      (c: string) => ({ ...spec('true'), file: 'bash', args: ['-c', c] }),
    ],
  ])('%s; the command never sees the gate’s fd 3', async (_reason, make) => {
    const out = path.join(dir, 'out');
    const proc = await startProcess({
      spec: make('if { true >&3; } 2>/dev/null; then echo fd3-open; else echo fd3-closed; fi'),
      outputFile: out,
      graceMs: 2000,
    });
    expect((await proc.exited).code).toBe(0);
    expect((await readFile(out, 'utf8')).split('\n')[0]).toBe('fd3-closed');
  });

  it('rejects a program that is not executable with EACCES, as the spawn itself would', async () => {
    const file = path.join(dir, 'not-executable');
    await import('node:fs/promises').then((fs) => fs.writeFile(file, '#!/bin/sh\n', { mode: 0o644 }));
    await expect(
      startProcess({ spec: { ...spec('true'), file }, outputFile: path.join(dir, 'out'), graceMs: 2000 }),
    ).rejects.toMatchObject({ code: 'EACCES' });
  });

  it('kills the whole process group: a background child is gone after terminate (SIGTERM suffices)', async () => {
    const pidFile = path.join(dir, 'child.pid');
    const proc = await startProcess({
      spec: spec(`sleep 300 & echo $! > ${pidFile}; wait`),
      outputFile: path.join(dir, 'out'),
      graceMs: 2000,
    });
    const childPid = Number(await waitForFile(pidFile));
    expect(isProcessAlive(childPid)).toBe(true);
    expect(await proc.terminate('timeout')).toBe('SIGTERM');
    expect(proc.stopReason).toBe('timeout');
    expect(() => process.kill(childPid, 0)).toThrow();
    expect(liveGroupMembers(proc.pid)).toEqual([]);
  });

  it('sends SIGKILL after the grace period to a group that ignores SIGTERM', async () => {
    const ready = path.join(dir, 'ready');
    const pidFile = path.join(dir, 'child.pid');
    const proc = await startProcess({
      spec: spec(`trap '' TERM; sleep 300 & echo $! > ${pidFile}; echo ok > ${ready}; wait`),
      outputFile: path.join(dir, 'out'),
      graceMs: 300,
    });
    await waitForFile(ready);
    const childPid = Number(await waitForFile(pidFile));
    expect(await proc.terminate('abort')).toBe('SIGKILL');
    const exit = await proc.exited;
    expect(exit.signal).toBe('SIGKILL');
    expect(exit.code).toBe(137);
    expect(isProcessAlive(childPid)).toBe(false);
    expect(liveGroupMembers(proc.pid)).toEqual([]);
  });

  it('terminate is idempotent: a second call returns the first outcome', async () => {
    const proc = await startProcess({
      spec: spec('sleep 300'),
      outputFile: path.join(dir, 'out'),
      graceMs: 2000,
    });
    const first = proc.terminate('stopped');
    const second = proc.terminate('timeout');
    expect(await second).toBe(await first);
    expect(proc.stopReason).toBe('stopped');
  });

  it('runs detached from any terminal (setsid): /dev/tty cannot be opened', async () => {
    const out = path.join(dir, 'out');
    const proc = await startProcess({
      spec: spec('if (exec 3</dev/tty) 2>/dev/null; then echo has-tty; else echo no-tty; fi'),
      outputFile: out,
      graceMs: 2000,
    });
    await proc.exited;
    expect((await readFile(out, 'utf8')).trim()).toBe('no-tty');
    expect(existsSync(out)).toBe(true);
  });
});

describe('processes that leave the process group (setsid, a double fork into a new session)', () => {
  // Each escapee writes its pid; it has its own session, so only the command's tag finds it.
  const escape = (pidFile: string) =>
    `setsid sh -c 'echo $$ > ${pidFile}; exec sleep 300' </dev/null >/dev/null 2>&1 &`;
  const doubleFork = (pidFile: string) =>
    `( setsid sh -c '(sleep 300 </dev/null >/dev/null 2>&1 & echo $! > ${pidFile})' & ) ; sleep 0.2`;

  it('a foreground command’s setsid child is counted and stopped when the command returns', async () => {
    const pidFile = path.join(dir, 'escaped.pid');
    const proc = await startProcess({
      spec: spec(`${escape(pidFile)} echo started`),
      outputFile: path.join(dir, 'out'),
      graceMs: 2000,
    });
    const escaped = Number(await waitForFile(pidFile));
    await proc.exited;
    expect(isProcessAlive(escaped)).toBe(true);
    expect(liveGroupMembers(proc.pid)).not.toContain(escaped); // it really left the group
    expect(await proc.stopLeftovers()).toEqual({ count: 1, signal: 'SIGTERM' });
    expect(isProcessAlive(escaped)).toBe(false);
  });

  it('a daemon’s double fork into a new session is stopped with the command', async () => {
    const pidFile = path.join(dir, 'daemon.pid');
    const proc = await startProcess({
      spec: spec(doubleFork(pidFile)),
      outputFile: path.join(dir, 'out'),
      graceMs: 2000,
    });
    const daemon = Number(await waitForFile(pidFile));
    await proc.exited;
    expect(isProcessAlive(daemon)).toBe(true);
    expect((await proc.stopLeftovers())?.count).toBe(1);
    expect(isProcessAlive(daemon)).toBe(false);
  });

  it('stopping every group at shutdown also stops what a still-running command moved into a new session', async () => {
    const pidFile = path.join(dir, 'escaped.pid');
    const proc = await startProcess({
      spec: spec(`${escape(pidFile)} sleep 300`),
      outputFile: path.join(dir, 'out'),
      graceMs: 2000,
    });
    const escaped = Number(await waitForFile(pidFile));
    expect(isProcessAlive(escaped)).toBe(true);
    await stopAllProcessGroups();
    expect(isProcessAlive(escaped)).toBe(false);
    expect(isProcessAlive(proc.pid)).toBe(false);
  });

  it('another command’s processes are never touched', async () => {
    const pidFile = path.join(dir, 'other.pid');
    const other = await startProcess({
      spec: spec(`${escape(pidFile)} sleep 300`),
      outputFile: path.join(dir, 'out-other'),
      graceMs: 2000,
    });
    const keep = Number(await waitForFile(pidFile));
    const proc = await startProcess({
      spec: spec('sleep 0.1 & echo done'),
      outputFile: path.join(dir, 'out'),
      graceMs: 2000,
    });
    await proc.exited;
    await proc.stopLeftovers();
    expect(isProcessAlive(keep)).toBe(true);
    await other.terminate('stopped');
    expect(isProcessAlive(keep)).toBe(false);
  });
});
