/**
 * A `gantry -p` that is SIGKILLed (no exit handler runs) leaves nothing behind
 * (docs/reliability.md, "Process lifetime" and "Temp files"):
 *
 * - the process group of a foreground Bash command and a background task (`run_in_background`)
 *   end with it, through the process-group watchdog (src/tools/bash/group-watchdog.ts);
 * - the directory of its inline `--settings '{…}'` JSON is in `~/.gantry/tmp/`, not the system temp
 *   directory, and the next session removes it.
 *
 * Real processes: the real `bin/gantry.js`, a fake model server on 127.0.0.1, real `sleep`s with a
 * unique marker argument, a real SIGKILL.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply } from '../../testing/fake-model-script.js';
import {
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
  runGantry,
  spawnGantry,
} from '../../testing/print-fixtures.js';
import { killMarked, processesWithMarker, uniqueSleepMarker, waitFor } from '../../testing/processes.js';
import { liveGroupMembers } from '../../tools/bash/exec.js';

let world: PrintWorld;
let tmp: string;
let anthropic: FakeAnthropicServer | undefined;
const markers: string[] = [];

beforeEach(() => {
  world = makePrintWorld();
  // The child's own system temp directory, so the test sees everything it leaves there.
  tmp = path.join(world.root, 'tmp');
  mkdirSync(tmp);
});
afterEach(async () => {
  for (const m of markers.splice(0)) killMarked(m);
  await anthropic?.close();
  anthropic = undefined;
  world.cleanup();
});

/** Process group of `pid` (field 5 of /proc/<pid>/stat). */
function pgidOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

/**
 * Starts `gantry -p` whose model runs a background task (`sleep <bg>`, which also starts
 * `setsid sleep <escaped>`, a process that leaves the group), then a foreground command that runs
 * until it is killed (`tail -f /dev/null`; its shell's command line carries `<fg>`).
 */
async function startSleeping(
  settings: string,
): Promise<{ peer: ReturnType<typeof spawnGantry>; fg: string; bg: string; escaped: string }> {
  const fg = uniqueSleepMarker();
  const bg = uniqueSleepMarker();
  const escaped = uniqueSleepMarker();
  markers.push(fg, bg, escaped);
  anthropic = await startFakeAnthropicServer({
    apiKey: PRINT_TEST_KEY,
    script: [
      reply.toolUse('Bash', {
        command: `setsid sleep ${escaped} </dev/null >/dev/null 2>&1 & sleep ${bg}`,
        run_in_background: true,
      }),
      reply.toolUse('Bash', { command: `tail -f /dev/null; echo ${fg}` }),
      reply.text('done'),
    ],
  });
  const peer = spawnGantry(
    ['-p', 'sleep', '--output-format', 'stream-json', '--verbose', '--settings', settings],
    {
      cwd: world.project,
      env: gantryEnv(world, anthropic, { TMPDIR: tmp }),
    },
  );
  return { peer, fg, bg, escaped };
}

const ALLOW_SLEEP = JSON.stringify({
  permissions: { allow: ['Bash(sleep:*)', 'Bash(setsid:*)', 'Bash(tail:*)', 'Bash(echo:*)'] },
});

describe('gantry -p SIGKILLed', () => {
  it('its foreground command and background task end with it: no process of their groups remains', async () => {
    const { peer, fg, bg, escaped } = await startSleeping(ALLOW_SLEEP);
    const all = [fg, bg, escaped];
    const ok = await waitFor(() => all.every((m) => processesWithMarker(m).length > 0), 30_000);
    expect(ok).toBe(true);
    const groups = [fg, bg].map((m) => pgidOf(processesWithMarker(m)[0] as number));
    expect(liveGroupMembers(groups[0] as number).length).toBeGreaterThanOrEqual(2); // bash and tail
    peer.child.kill('SIGKILL');
    expect((await peer.exited).signal).toBe('SIGKILL');
    expect(await waitFor(() => groups.every((g) => liveGroupMembers(g).length === 0), 10_000)).toBe(true);
    expect(await waitFor(() => all.every((m) => processesWithMarker(m).length === 0), 10_000)).toBe(true);
  });

  it('its inline --settings directory is kept in ~/.gantry/tmp, never the system temp directory, and the next session removes it', async () => {
    const { peer, fg } = await startSleeping(ALLOW_SLEEP);
    expect(await waitFor(() => processesWithMarker(fg).length > 0, 30_000)).toBe(true);
    const pid = peer.child.pid as number;
    peer.child.kill('SIGKILL');
    await peer.exited;
    await anthropic?.close();
    anthropic = undefined;

    const base = path.join(world.gantryHome, 'tmp');
    const left = readdirSync(base).filter((n) => n.startsWith(`settings-${pid}-`));
    expect(left).toHaveLength(1); // the killed session could not remove it
    expect(readdirSync(tmp).filter((n) => n.startsWith('gantry-settings-'))).toEqual([]);

    anthropic = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script: [reply.text('hello')] });
    const next = await runGantry(['-p', 'hi', '--settings', ALLOW_SLEEP], {
      cwd: world.project,
      env: gantryEnv(world, anthropic, { TMPDIR: tmp }),
    });
    expect(next.code, next.stderr).toBe(0);
    expect(existsSync(path.join(base, left[0] as string))).toBe(false);
    // The next session removed its own directory too, and left nothing in the system temp directory.
    expect(readdirSync(base)).toEqual([]);
    expect(readdirSync(tmp).filter((n) => n.startsWith('gantry-'))).toEqual([]);
  });
});
