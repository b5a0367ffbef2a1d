/**
 * Crash tests of fleet mode on a real Postgres with real worker processes (docs/fleet.md,
 * "Failover"): one worker runs five sessions, each parked at a different point — mid model turn,
 * mid read, mid Bash, mid Write (effect done, record not yet), waiting for an approval — and is
 * SIGKILLed. A second worker notices it is gone, takes the sessions over and finishes them. The
 * ledger (lines the test tools and the Bash command append) shows which calls really ran.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineClient } from './engine.js';
import { answerAsk, openFleet, pendingAsks, sessionStatus, submitSession } from './fleet-client.js';
import type { SessionOutput } from './session-types.js';
import { INTERRUPTED_TEXT } from './durable-tools.js';
import {
  eventually,
  type FleetWorld,
  lastToolResult,
  startFleetWorld,
  startWorkerProcess,
  type WorkerProcess,
} from '../testing/fleet-fixtures.js';
import { reply, text, toolUse } from '../testing/fake-model-script.js';
import { postgresBinaries } from '../testing/postgres.js';
import { killMarked } from '../testing/processes.js';

const SLOW_MS = 20_000;
const sleepMarker = `20.${process.pid}${Math.floor(Math.random() * 1e5)}`;

/** The final answer quotes what the model was last told, so the test can read it in the result. */
const finish = (request: Parameters<typeof lastToolResult>[0]) => {
  const last = lastToolResult(request);
  return reply.text(`done ${last?.isError ? 'error' : 'ok'}: ${last?.text.slice(0, 300) ?? ''}`);
};

let modelAttempts = 0;

const scenarios = {
  // The first attempt streams slowly (the worker is killed during it); the next one is quick.
  model: (turn: number, request: never, dir: string) =>
    turn === 0
      ? reply.message(
          [
            text('x'.repeat(60)),
            toolUse('Bash', { command: `echo model-bash >> ${dir}/ledger` }, { id: 'toolu_model_1' }),
          ],
          modelAttempts++ === 0 ? { chunkChars: 3, delayMs: 1_000 } : {},
        )
      : finish(request),
  read: (turn: number, request: never, dir: string) =>
    turn === 0
      ? reply.toolUse('Read', { file_path: `${dir}/data.slow.txt` }, { id: 'toolu_read_1' })
      : finish(request),
  bash: (turn: number, request: never, dir: string) =>
    turn === 0
      ? reply.toolUse(
          'Bash',
          {
            command: `echo bash-start >> ${dir}/ledger && sleep ${sleepMarker} && echo bash-end >> ${dir}/ledger`,
          },
          { id: 'toolu_bash_1' },
        )
      : finish(request),
  write: (turn: number, request: never, dir: string) =>
    turn === 0
      ? reply.toolUse(
          'Write',
          { file_path: `${dir}/out.slow.txt`, content: 'written once\n' },
          { id: 'toolu_write_1' },
        )
      : finish(request),
  // The same cut-off Write, its file left in place: Write's own checks would now refuse the call
  // (the file exists and was not read), so the next worker must report it interrupted without
  // checking it, and the session goes on (a refused check used to leave the start mark unreplayed,
  // the journal out of step, and the session ended as "Interrupted by the user").
  kept: (turn: number, request: never, dir: string) =>
    turn === 0
      ? reply.toolUse(
          'Write',
          { file_path: `${dir}/kept.slow.txt`, content: 'written once\n' },
          { id: 'toolu_kept_1' },
        )
      : finish(request),
  // A Write that completed before the crash replays its record on the next worker, although the
  // file it created now exists (Write's own checks would refuse it).
  replay: (turn: number, request: never, dir: string) => {
    if (turn === 0)
      return reply.toolUse('Write', { file_path: `${dir}/a.txt`, content: 'a\n' }, { id: 'toolu_replay_1' });
    if (turn === 1)
      return reply.toolUse(
        'Bash',
        { command: `echo replay-start >> ${dir}/ledger && sleep ${sleepMarker}` },
        { id: 'toolu_replay_2' },
      );
    const results = JSON.stringify((request as { body: unknown }).body).match(/"is_error":true/g) ?? [];
    return reply.text(`done errors=${results.length}`);
  },
  approval: (turn: number, request: never, dir: string) =>
    turn === 0
      ? reply.toolUse('Bash', { command: `echo approved-run >> ${dir}/ledger` }, { id: 'toolu_ask_1' })
      : finish(request),
};

describe.skipIf(!postgresBinaries())('fleet: a worker SIGKILLed mid-session', () => {
  let world: FleetWorld;
  let client: EngineClient;
  const workers: WorkerProcess[] = [];
  const dirs: Record<string, string> = {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    world = await startFleetWorld(scenarios as never);
    client = await openFleet(world.pg.url);
  });

  afterAll(async () => {
    for (const w of workers) await w.kill().catch(() => undefined);
    killMarked(sleepMarker);
    await client?.close();
    await world?.close();
  });

  const ledger = (name: string): string[] => {
    const file = path.join(dirs[name] ?? '', 'ledger');
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  };

  it('every session completes on the surviving worker; no effect runs twice; cut-off effects are reported interrupted', async () => {
    const first = await startWorkerProcess(world, 'w-first', {
      FLEET_SLOW_MS: String(SLOW_MS),
      FLEET_CONCURRENCY: '8',
    });
    workers.push(first);
    for (const name of Object.keys(scenarios)) {
      const dir = path.join(world.dir, name);
      mkdirSync(dir, { recursive: true });
      dirs[name] = dir;
      if (name === 'read') writeFileSync(path.join(dir, 'data.slow.txt'), 'the data\n');
      ids[name] = await submitSession(client, {
        prompt: `scenario:${name} dir:${dir}`,
        cwd: dir,
        // The approval session may only read: its Bash call asks.
        allowedTools: name === 'approval' ? ['Read'] : ['Bash', 'Read', 'Write'],
        approvalTimeoutMs: 120_000,
      });
    }
    // Each session reaches its crash point on the first worker.
    await eventually('the model turn to stream', async () => (world.seen.get('model:0') ?? 0) >= 1);
    await eventually('the read to start', async () => ledger('read').some((l) => l.startsWith('Read ')));
    await eventually('the Bash command to start', async () => ledger('bash').includes('bash-start'));
    await eventually('the write to happen', async () => ledger('write').some((l) => l.startsWith('Write ')));
    await eventually('the kept write to happen', async () =>
      ledger('kept').some((l) => l.startsWith('Write ')),
    );
    await eventually('the replay session to reach its Bash call', async () =>
      ledger('replay').includes('replay-start'),
    );
    await eventually(
      'the ask to be pending',
      async () => (await pendingAsks(client, ids.approval)).length === 1,
    );
    for (const id of Object.values(ids)) expect((await sessionStatus(client, id))?.worker).toBe('w-first');

    await first.kill();
    // The write's effect is removed: if Write ran again, the file would come back.
    const written = path.join(dirs.write ?? '', 'out.slow.txt');
    expect(readFileSync(written, 'utf8')).toBe('written once\n');
    appendFileSync(path.join(dirs.write ?? '', 'ledger'), 'file-removed\n');
    const { rmSync } = await import('node:fs');
    rmSync(written);

    const second = await startWorkerProcess(world, 'w-second', { FLEET_CONCURRENCY: '8' });
    workers.push(second);
    // The approval survives the restart: still pending, now answered.
    await eventually('the ask to be pending again', async () => {
      const s = await sessionStatus(client, ids.approval ?? '');
      return s?.worker === 'w-second' && (await pendingAsks(client, ids.approval)).length === 1;
    });
    expect((await pendingAsks(client, ids.approval))[0]?.toolUseId).toBe('toolu_ask_1');
    expect(
      await answerAsk(client, {
        session: ids.approval ?? '',
        toolUseId: 'toolu_ask_1',
        allow: true,
        by: 'test',
      }),
    ).toEqual({ ok: true });

    const outputs: Record<string, SessionOutput> = {};
    for (const [name, id] of Object.entries(ids)) {
      const out = await client.result<SessionOutput>(id, 45_000);
      expect(out, `${name}: ${second.stderr()}`).not.toBeNull();
      outputs[name] = out as SessionOutput;
      expect(outputs[name]?.workerId).toBe('w-second');
      expect(outputs[name]?.subtype, `${name}: ${outputs[name]?.result}`).toBe('success');
    }

    // Mid model turn: the cut-off request was sent again, then the session went on.
    expect(world.seen.get('model:0')).toBe(2);
    expect(ledger('model')).toEqual(['model-bash']);
    expect(outputs.model?.result).toMatch(/^done ok/);

    // Mid read: read-only, so simply run again (twice in the ledger), not reported interrupted.
    expect(ledger('read').filter((l) => l.startsWith('Read '))).toHaveLength(2);
    expect(outputs.read?.result).toMatch(/^done ok:.*the data/s);
    expect(outputs.read?.interruptedCalls).toEqual([]);

    // Mid Bash: started once, never again; the model was told it was interrupted.
    expect(ledger('bash').filter((l) => l === 'bash-start')).toHaveLength(1);
    expect(outputs.bash?.result).toContain('done error');
    expect(outputs.bash?.result).toContain('interrupted: may have partly completed');
    expect(outputs.bash?.interruptedCalls).toEqual(['toolu_bash_1']);

    // Mid Write (after the effect, before its record): not run again.
    expect(ledger('write')).toEqual(['Write toolu_write_1', 'file-removed']);
    expect(existsSync(written)).toBe(false);
    expect(outputs.write?.result).toContain(INTERRUPTED_TEXT.slice(0, 40));
    expect(outputs.write?.interruptedCalls).toEqual(['toolu_write_1']);

    // Mid Write, its file still there: interrupted, not refused by Write's checks, not run again.
    expect(ledger('kept')).toEqual(['Write toolu_kept_1']);
    expect(readFileSync(path.join(dirs.kept ?? '', 'kept.slow.txt'), 'utf8')).toBe('written once\n');
    expect(outputs.kept?.result).toContain(INTERRUPTED_TEXT.slice(0, 40));
    expect(outputs.kept?.interruptedCalls).toEqual(['toolu_kept_1']);

    // A completed Write replays its record (no error), the cut-off Bash is the one error.
    expect(ledger('replay')).toEqual(['Write toolu_replay_1', 'replay-start']);
    expect(outputs.replay?.result).toBe('done errors=1');
    expect(outputs.replay?.interruptedCalls).toEqual(['toolu_replay_2']);

    // The approval: asked once before the crash, answered after; the command ran once.
    expect(ledger('approval')).toEqual(['approved-run']);
    expect(outputs.approval?.result).toMatch(/^done ok/);

    // No completed model turn was paid for twice.
    for (const name of ['read', 'bash', 'write', 'kept', 'approval']) {
      expect(world.seen.get(`${name}:0`), name).toBe(1);
      expect(world.seen.get(`${name}:1`), name).toBe(1);
    }
  }, 240_000);
});
