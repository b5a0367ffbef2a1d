/**
 * The group watchdog with real processes: a host process (Node running exec.ts, as a library host
 * embeds it) starts commands and is SIGKILLed; the watchdog takes their groups and the processes
 * that left them down. Groups taken off the list are not touched, and the watchdog never keeps its
 * host alive.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { killMarked, processesWithMarker, uniqueSleepMarker, waitFor } from '../../testing/processes.js';
import { isProcessAlive } from './exec.js';
import { closeGroupWatchdogForTest, groupWatchdogPid, watchProcessGroup } from './group-watchdog.js';

const EXEC = fileURLToPath(new URL('./exec.ts', import.meta.url));
const SPAWN_SPEC = fileURLToPath(new URL('./spawn-spec.ts', import.meta.url));
let dir: string;
const markers: string[] = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'gantry-watchdog-'));
});
afterEach(async () => {
  await closeGroupWatchdogForTest();
  for (const m of markers.splice(0)) killMarked(m);
  rmSync(dir, { recursive: true, force: true });
});

function marker(): string {
  const m = uniqueSleepMarker();
  markers.push(m);
  return m;
}

/** A Node host that starts `commands` through exec.ts's startProcess, prints `ready`, then (unless `stay`) lets its event loop drain. */
function host(commands: string[], stay: boolean) {
  const script = `
    import { startProcess } from ${JSON.stringify(EXEC)};
    const commands = ${JSON.stringify(commands)};
    for (const [i, c] of commands.entries())
      await startProcess({
        spec: { file: 'bash', args: ['-c', c], cwd: ${JSON.stringify(dir)}, env: { PATH: process.env.PATH }, harnessWritablePaths: [] },
        outputFile: ${JSON.stringify(dir)} + '/out-' + i, graceMs: 100, unref: true,
      });
    console.log('ready');
    ${stay ? 'setInterval(() => {}, 1000);' : ''}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<void>((resolve) =>
    child.stdout.setEncoding('utf8').once('data', () => resolve()),
  );
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, ready, exited };
}

describe('group watchdog', () => {
  it('a SIGKILLed host: its command groups and the processes that left them end', async () => {
    const [inGroup, escaped, background] = [marker(), marker(), marker()];
    const h = host(
      [
        `sleep ${inGroup}; true`,
        `setsid sleep ${escaped} </dev/null >/dev/null 2>&1 & sleep ${background}; true`,
      ],
      true,
    );
    await h.ready;
    const all = [inGroup, escaped, background];
    expect(await waitFor(() => all.every((m) => processesWithMarker(m).length > 0), 20_000)).toBe(true);
    h.child.kill('SIGKILL');
    expect((await h.exited).signal).toBe('SIGKILL');
    expect(await waitFor(() => all.every((m) => processesWithMarker(m).length === 0), 10_000)).toBe(true);
  });

  it('a host whose commands are done exits by itself: the watchdog holds no reference on its event loop', async () => {
    const h = host(['true'], false);
    await h.ready;
    const exit = await Promise.race([
      h.exited,
      new Promise((r) => setTimeout(() => r('still running'), 20_000)),
    ]);
    if (exit === 'still running') h.child.kill('SIGKILL');
    expect(exit).toEqual({ code: 0, signal: null });
  });

  it('end of its input: the listed groups are killed, the ones taken off the list are not', async () => {
    const [listed, unlisted] = [marker(), marker()];
    const start = (m: string) => spawn('sleep', [m], { detached: true, stdio: 'ignore' });
    const a = start(listed);
    const b = start(unlisted);
    watchProcessGroup(a.pid as number, 'tag-a');
    const { unwatch } = watchProcessGroup(b.pid as number, 'tag-b');
    unwatch();
    const watchdog = groupWatchdogPid() as number;
    expect(isProcessAlive(watchdog)).toBe(true);
    await closeGroupWatchdogForTest();
    expect(await waitFor(() => processesWithMarker(listed).length === 0, 10_000)).toBe(true);
    expect(processesWithMarker(unlisted)).toEqual([b.pid]);
    expect(isProcessAlive(watchdog)).toBe(false);
    b.kill('SIGKILL');
  });

  it('refuses input it would have to quote: a pgid that is not a positive number, a tag with shell characters', () => {
    const noop = watchProcessGroup(1, 'tag');
    expect(groupWatchdogPid()).toBeUndefined();
    noop.unwatch();
    watchProcessGroup(process.pid + 1_000_000, '$(touch x)');
    expect(groupWatchdogPid()).toBeUndefined();
  });
});

/**
 * A Node host that (optionally) runs one command to the end first, then starts `command` and
 * SIGKILLs itself right after the spawn returned, before the group is registered with the watchdog
 * (exec.ts's test hook). It writes the spawned pid to `<dir>/leader.pid` first.
 */
function hostKilledAfterSpawn(command: string, shellSpec: boolean, warmUp: boolean) {
  const script = `
    import { writeFileSync } from 'node:fs';
    import { setAfterSpawnHookForTest, startProcess } from ${JSON.stringify(EXEC)};
    import { buildShellSpawnSpec } from ${JSON.stringify(SPAWN_SPEC)};
    const dir = ${JSON.stringify(dir)};
    const spec = (c) => ${shellSpec}
      ? buildShellSpawnSpec({ command: c, cwd: dir, cwdFile: dir + '/cwd', env: { PATH: process.env.PATH } })
      : { file: 'bash', args: ['-c', c], cwd: dir, env: { PATH: process.env.PATH }, harnessWritablePaths: [] };
    if (${warmUp}) await (await startProcess({ spec: spec('true'), outputFile: dir + '/warm', graceMs: 100 })).exited;
    setAfterSpawnHookForTest((pid) => {
      writeFileSync(dir + '/leader.pid', String(pid));
      process.kill(process.pid, 'SIGKILL');
    });
    await startProcess({ spec: spec(${JSON.stringify(command)}), outputFile: dir + '/out', graceMs: 100 });
    console.log('not killed');`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  return new Promise<{ signal: NodeJS.Signals | null; stdout: string }>((resolve) =>
    child.once('close', (_code, signal) => resolve({ signal, stdout })),
  );
}

describe('a SIGKILL between a command’s spawn and its registration with the watchdog', () => {
  it.each([
    ['a plain spec, first command (the watchdog did not run yet)', false, false],
    ['a Bash tool spec, first command (the watchdog did not run yet)', true, false],
    ['a Bash tool spec after an earlier command (the watchdog already runs)', true, true],
  ])('%s: nothing of the command runs or outlives the host', async (_reason, shellSpec, warmUp) => {
    const m = marker();
    const ran = path.join(dir, 'ran');
    const host = await hostKilledAfterSpawn(`echo ran > ${ran}; sleep ${m}; true`, shellSpec, warmUp);
    expect(host).toEqual({ signal: 'SIGKILL', stdout: '' });
    const leader = Number(readFileSync(path.join(dir, 'leader.pid'), 'utf8'));
    expect(leader).toBeGreaterThan(1);
    // The spawned leader must end by itself (it never got the go-ahead) or be killed by the watchdog.
    expect(await waitFor(() => !isProcessAlive(leader), 10_000)).toBe(true);
    expect(processesWithMarker(m)).toEqual([]);
    expect(existsSync(ran)).toBe(false);
  });
});
