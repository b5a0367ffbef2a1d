/**
 * Two fleet behaviours that need more than one worker process, on a real Postgres
 * (docs/fleet.md, "Queues" and "Placement"):
 *
 * - The model-request rate limit is fleet-wide: workers share one timeline of slots in the
 *   database, so two workers together send no more than the limit.
 * - A `--repo` session moves: its worker is SIGKILLed mid-call, and the next worker resumes it from
 *   a fresh clone of the session's branch, which holds what the completed calls left (the cut-off
 *   call's files are not there, and the call is reported interrupted).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply } from '../testing/fake-model-script.js';
import {
  eventually,
  type FleetWorld,
  lastToolResult,
  startFleetWorld,
  startWorkerProcess,
  type WorkerProcess,
} from '../testing/fleet-fixtures.js';
import { postgresBinaries } from '../testing/postgres.js';
import { killMarked, processesWithMarker } from '../testing/processes.js';
import type { EngineClient } from './engine.js';
import { openFleet, sessionStatus, submitSession } from './fleet-client.js';
import { CallsTable } from './dbos/calls-table.js';
import { FleetPacer } from './model-pacer.js';
import type { SessionOutput } from './session-types.js';

const sleepMarker = `30.${process.pid}${Math.floor(Math.random() * 1e5)}`;
/** Arrival time (ms) of each request of the `paced` scenario at the fake model server. */
const pacedArrivals: number[] = [];
/** What the model was told after each turn of the `placement` scenario. */
const placementResults: string[] = [];

const scenarios = {
  paced: () => {
    pacedArrivals.push(Date.now());
    return reply.text('paced');
  },
  placement: (turn: number, request: never) => {
    if (turn > 0) placementResults.push(lastToolResult(request)?.text ?? '');
    if (turn === 0)
      return reply.toolUse('Bash', { command: 'echo one > one.txt && pwd' }, { id: 'toolu_pl_1' });
    if (turn === 1)
      return reply.toolUse(
        'Bash',
        { command: `touch two.txt && pwd && sleep ${sleepMarker}` },
        { id: 'toolu_pl_2' },
      );
    if (turn === 2)
      return reply.toolUse('Bash', { command: 'cat one.txt && ls && pwd' }, { id: 'toolu_pl_3' });
    return reply.text('placement done');
  },
};

const git = (cwd: string, args: string[]) =>
  execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@gantry.invalid', ...args], {
    cwd,
    encoding: 'utf8',
  });

/** The test database (set in beforeAll). */
let databaseUrl = '';

/** Rows of the call journal of these sessions. */
async function journalRows(ids: string[]): Promise<number> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ n: string }>(
      'SELECT count(*) AS n FROM gantry_fleet.calls WHERE workflow_id = ANY($1)',
      [ids],
    );
    return Number(rows[0]?.n);
  } finally {
    await db.end();
  }
}

describe.skipIf(!postgresBinaries())('fleet: behaviour across worker processes', () => {
  let world: FleetWorld;
  let client: EngineClient;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    world = await startFleetWorld(scenarios as never);
    databaseUrl = world.pg.url;
    client = await openFleet(world.pg.url);
  });

  afterAll(async () => {
    for (const w of workers) await w.kill().catch(() => undefined);
    killMarked(sleepMarker);
    await client?.close();
    await world?.close();
  });

  it('pacer slots are shared: two pacers (two workers) reserving at once get one evenly spaced timeline', async () => {
    const a = new FleetPacer(world.pg.url);
    const b = new FleetPacer(world.pg.url);
    try {
      const gapMs = 1_000;
      const slots = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).reserve('test-pacer', gapMs)),
      );
      const at = slots.map((s) => s.atMs).sort((x, y) => x - y);
      for (let i = 1; i < at.length; i++) expect((at[i] ?? 0) - (at[i - 1] ?? 0)).toBeCloseTo(gapMs, 3);
      // The waits follow the slots: the last one waits about nine gaps.
      expect(Math.max(...slots.map((s) => s.waitMs))).toBeGreaterThan(8 * gapMs);
      expect(Math.min(...slots.map((s) => s.waitMs))).toBeGreaterThanOrEqual(0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('--model-rpm is fleet-wide: the requests of 6 sessions on 2 workers at 120/min are spaced 500 ms apart across both', async () => {
    const env = { FLEET_MODEL_RPM: '120', FLEET_CONCURRENCY: '3' };
    const [w1, w2] = await Promise.all([
      startWorkerProcess(world, 'w-rate-1', env),
      startWorkerProcess(world, 'w-rate-2', env),
    ]);
    workers.push(w1, w2);
    const dir = path.join(world.dir, 'paced');
    mkdirSync(dir, { recursive: true });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push(await submitSession(client, { prompt: `scenario:paced dir:${dir}`, cwd: dir }));
    const ran = new Set<string>();
    for (const id of ids) {
      const out = await client.result<SessionOutput>(id, 60_000);
      expect(out?.result).toBe('paced');
      ran.add(out?.workerId ?? '');
    }
    // Both workers sent requests (3 sessions at most each), so only a shared limit spaces all six.
    expect([...ran].sort()).toEqual(['w-rate-1', 'w-rate-2']);
    // Every request of a session is paced (the loop may send more than one per session).
    const n = pacedArrivals.length;
    expect(n).toBeGreaterThanOrEqual(6);
    const span = Math.max(...pacedArrivals) - Math.min(...pacedArrivals);
    // n − 1 gaps of 500 ms; a per-worker limit would allow about half as many. A first request
    // that reached the server late can shorten the span by its delay (≤ one gap here).
    expect(span).toBeGreaterThanOrEqual((n - 2) * 500);
    await Promise.all([w1.stop(), w2.stop()]);
    workers.length = 0;

    // The journals of ended sessions are dropped by the sweep's prune (the workers may have
    // dropped some already; here it is called directly).
    const calls = new CallsTable(world.pg.url);
    try {
      await calls.prune();
      expect(await journalRows(ids)).toBe(0);
    } finally {
      await calls.close();
    }
  }, 120_000);

  it('a --repo session whose worker is killed resumes on another worker from a fresh clone of its branch', async () => {
    const repo = path.join(world.dir, 'origin.git');
    const seed = path.join(world.dir, 'seed');
    mkdirSync(seed, { recursive: true });
    git(world.dir, ['init', '--quiet', '--bare', repo]);
    git(seed, ['init', '--quiet']);
    writeFileSync(path.join(seed, 'README'), 'seed\n');
    git(seed, ['add', 'README']);
    git(seed, ['commit', '--quiet', '-m', 'seed']);
    git(seed, ['push', '--quiet', repo, 'HEAD:refs/heads/main']);
    git(repo, ['symbolic-ref', 'HEAD', 'refs/heads/main']);

    const first = await startWorkerProcess(world, 'w-place-1');
    workers.push(first);
    const id = await submitSession(client, {
      prompt: `scenario:placement dir:${world.dir}`,
      repo,
      branch: 'fleet/placement',
      allowedTools: ['Bash'],
    });
    const waitStart = Date.now();
    await eventually(
      'the second Bash call to be running',
      async () => {
        const now = await client.get(id);
        if (now?.state !== 'running' && now?.state !== 'queued')
          throw new Error(`the session ended early: ${JSON.stringify(now)} ${placementResults.join(' | ')}`);
        if (Date.now() - waitStart > 40_000)
          throw new Error(
            `no sleep: ${placementResults.join(' | ')} asks=${JSON.stringify(await client.getEvent(id, 'asks'))} ${first.stderr().slice(-3000)}`,
          );
        return processesWithMarker(sleepMarker).length > 0;
      },
      60_000,
    );
    expect((await sessionStatus(client, id))?.worker).toBe('w-place-1');
    await first.kill();
    killMarked(sleepMarker);
    // A prune keeps the journal of a session that has not ended (its claims stop a second run).
    const calls = new CallsTable(world.pg.url);
    await calls.prune().finally(() => calls.close());
    expect(await journalRows([id])).toBeGreaterThanOrEqual(3);
    // The branch holds the completed first call (checkpointed after it), not the cut-off second.
    expect(git(repo, ['show', 'fleet/placement:one.txt'])).toBe('one\n');
    expect(git(repo, ['ls-tree', '--name-only', 'fleet/placement'])).not.toContain('two.txt');

    const second = await startWorkerProcess(world, 'w-place-2');
    workers.push(second);
    const out = await client.result<SessionOutput>(id, 60_000);
    expect(out, second.stderr()).not.toBeNull();
    expect(out?.workerId).toBe('w-place-2');
    expect(out?.result).toBe('placement done');
    expect(out?.interruptedCalls).toEqual(['toolu_pl_2']);

    const [firstPwd, interrupted, onSecond] = placementResults.slice(-3);
    const checkouts = path.join(world.dir, 'work');
    expect(firstPwd?.trim().startsWith(path.join(checkouts, id))).toBe(true);
    expect(interrupted).toContain('interrupted: may have partly completed');
    const [content, ...rest] = (onSecond ?? '').trim().split('\n');
    const secondPwd = rest[rest.length - 1] ?? '';
    expect(content).toBe('one');
    expect(rest).toContain('one.txt');
    expect(rest).not.toContain('two.txt');
    expect(secondPwd.startsWith(path.join(checkouts, id))).toBe(true);
    expect(secondPwd).not.toBe(firstPwd?.trim());
    // The session's work (the completed calls on both workers) is in its branch.
    expect(git(repo, ['log', '--format=%s', 'fleet/placement'])).toContain('gantry fleet: after Bash');
  }, 120_000);
});
