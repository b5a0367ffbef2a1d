/**
 * bench/fleet: fleet mode on a throwaway Postgres with the scripted fake Messages API (real HTTP +
 * SSE), side by side with the in-process loop, in one run (docs/fleet.md).
 *
 * 1. Added latency per tool step: a 10-turn session (9 Write calls, then an answer) run by the
 *    in-process loop (`createAgent`), and the same session as a fleet workflow in a worker in this
 *    process. The gap of a turn is the time from the end of one model response to the start of the
 *    next request (the loop, the tool call, and for the fleet the journal writes: the response,
 *    the call's claim and its record). Added = fleet gap − loop gap, medians over 5 sessions
 *    each, alternating loop and fleet sessions after a warm-up of each. Goal ≤ 5 ms median.
 *    (The two sessions are the same script; a completed session must end with the answer `done`.)
 * 2. Throughput: 100 scripted sessions × 10 turns across 4 worker processes (4 sessions each at
 *    once): sessions per minute.
 * 3. The same with one worker SIGKILLed every 10 s (a replacement started each time): all 100
 *    complete, and the ledger (each Write appends its tool_use id) shows no call ran twice.
 *
 * Options (environment): `FLEET_BENCH_SESSIONS` (sessions per throughput run, default 100),
 * `FLEET_BENCH_PARTS` (`latency,calm,killed`, default all). The load average is reported at start
 * and end (other work on the machine moves absolute times; compare the ratios of one run).
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { ModelClient, ModelStreamEvent } from '../src/core/model-client.js';
import { openFleet, submitSession } from '../src/fleet/fleet-client.js';
import type { SessionOutput } from '../src/fleet/session-types.js';
import { startWorker } from '../src/fleet/worker.js';
import { createAgent } from '../src/loop/agent.js';
import { AnthropicModelClient } from '../src/model/anthropic/client.js';
import { reply } from '../src/testing/fake-model-script.js';
import {
  type FleetWorld,
  startFleetWorld,
  startWorkerProcess,
  type WorkerProcess,
} from '../src/testing/fleet-fixtures.js';
import { postgresBinaries } from '../src/testing/postgres.js';
import type { BenchReport } from './run.js';

const TURNS = 10;
/** `FLEET_BENCH_SESSIONS`: sessions per throughput run (default 100; fewer for a quick look). */
const SESSIONS = Number(process.env.FLEET_BENCH_SESSIONS ?? 100);
const WORKERS = 4;
/** `FLEET_BENCH_PARTS`: which parts run, comma-separated `latency,calm,killed` (default all). */
const PARTS = new Set((process.env.FLEET_BENCH_PARTS ?? 'latency,calm,killed').split(','));

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

/**
 * Counts the database round trips (`pg` queries) made inside fleet workflows of this process: DBOS
 * runs a workflow's steps in its async context, so `DBOS.workflowID` names the session a query
 * belongs to (the queue poller, heartbeats and result polling are outside it and not counted).
 */
let roundTrips = 0;
function countRoundTrips(): void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    if (DBOS.workflowID) roundTrips++;
    return original.apply(this, args);
  };
}

/** Records when each request starts and each response ends (and the round trips so far). */
function timedClient(inner: ModelClient) {
  const streams: { start: number; end: number; tripsAtStart: number; tripsAtEnd: number }[] = [];
  const client: ModelClient = {
    provider: inner.provider,
    countTokens: (r, o) => inner.countTokens(r, o),
    async *stream(request, options) {
      const entry = { start: performance.now(), end: 0, tripsAtStart: roundTrips, tripsAtEnd: 0 };
      streams.push(entry);
      for await (const e of inner.stream(request, options) as AsyncIterable<ModelStreamEvent>) yield e;
      entry.end = performance.now();
      entry.tripsAtEnd = roundTrips;
    },
  };
  const gaps = () => streams.slice(1).map((s, i) => s.start - (streams[i]?.end ?? s.start));
  const trips = () => streams.slice(1).map((s, i) => s.tripsAtStart - (streams[i]?.tripsAtEnd ?? 0));
  return { client, streams, gaps, trips };
}

const scenario = (turn: number, _request: never, dir: string) =>
  turn < TURNS - 1
    ? reply.toolUse('Write', { file_path: `${dir}/f${turn}.txt`, content: `turn ${turn}\n` })
    : reply.text('done');

function duplicates(dirs: string[]): { effects: number; duplicated: number } {
  let effects = 0;
  let duplicated = 0;
  for (const d of dirs) {
    let lines: string[] = [];
    try {
      lines = readFileSync(path.join(d, 'ledger'), 'utf8').split('\n').filter(Boolean);
    } catch {
      // no call ran
    }
    effects += lines.length;
    duplicated += lines.length - new Set(lines).size;
  }
  return { effects, duplicated };
}

async function latency(
  world: FleetWorld,
): Promise<{ loop: number; fleet: number; trips: number; sessions: number }> {
  const root = path.join(world.dir, 'latency');
  const make = () =>
    timedClient(
      new AnthropicModelClient({ apiKey: 'k', baseURL: world.server.url, retry: { maxRetries: 0 } }),
    );
  const loopGaps: number[] = [];
  const fleetGaps: number[] = [];
  const fleetTrips: number[] = [];
  countRoundTrips();
  let current: ReturnType<typeof make> | undefined;
  const worker = await startWorker({
    databaseUrl: world.pg.url,
    workerId: 'bench-latency',
    fleetHome: world.fleetHome,
    home: world.dir,
    env: world.env,
    pollingIntervalMs: 50,
    modelClientFor: () => {
      current = make();
      return { client: current.client, model: 'claude-haiku-4-5' };
    },
  });
  const client = await openFleet(world.pg.url);
  const rounds = 8;
  try {
    // Alternating, after one warm-up round of each, so load and warm-up hit both sides alike.
    for (let i = 0; i < rounds; i++) {
      const loopDir = path.join(root, `loop-${i}`);
      mkdirSync(loopDir, { recursive: true });
      const t = make();
      const agent = createAgent({
        cwd: loopDir,
        home: world.dir,
        model: 'claude-haiku-4-5',
        modelClient: t.client,
        settings: { allowedTools: ['Write'] },
        transcript: { path: path.join(loopDir, 'transcript.jsonl') },
      });
      for await (const _ of agent.query(`scenario:bench dir:${loopDir}`)) {
        // drain
      }
      if (i > 0) loopGaps.push(...t.gaps());

      const fleetDir = path.join(root, `fleet-${i}`);
      mkdirSync(fleetDir, { recursive: true });
      const id = await submitSession(client, {
        prompt: `scenario:bench dir:${fleetDir}`,
        cwd: fleetDir,
        allowedTools: ['Write'],
        model: 'claude-haiku-4-5',
      });
      const out = await client.result<SessionOutput>(id, 120_000);
      if (out?.isError !== false || out.result !== 'done')
        throw new Error(`latency session failed: ${JSON.stringify(out)}`);
      if (i > 0 && current) {
        fleetGaps.push(...current.gaps());
        fleetTrips.push(...current.trips());
      }
    }
  } finally {
    await client.close();
    await worker.stop();
  }
  return {
    loop: median(loopGaps),
    fleet: median(fleetGaps),
    trips: median(fleetTrips),
    sessions: rounds - 1,
  };
}

async function throughput(
  world: FleetWorld,
  label: string,
  killEveryMs?: number,
): Promise<{
  perMinute: number;
  completed: number;
  duplicated: number;
  effects: number;
  kills: number;
  interrupted: number;
  failures: string[];
}> {
  const workers: WorkerProcess[] = [];
  const spawning = new Set<Promise<void>>();
  let n = 0;
  const spawnOne = async () => {
    workers.push(
      await startWorkerProcess(world, `${label}-w${n++}`, {
        FLEET_CONCURRENCY: '4',
        FLEET_DEAD_AFTER_MS: '2000',
      }),
    );
  };
  const spawnTracked = () => {
    const p = spawnOne().catch(() => undefined);
    spawning.add(p);
    void p.finally(() => spawning.delete(p));
  };
  await Promise.all(Array.from({ length: WORKERS }, () => spawnOne()));
  const client = await openFleet(world.pg.url);
  const dirs: string[] = [];
  const failures: string[] = [];
  let kills = 0;
  let killer: NodeJS.Timeout | undefined;
  try {
    const start = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const dir = path.join(world.dir, label, `s${i}`);
      mkdirSync(dir, { recursive: true });
      dirs.push(dir);
      ids.push(
        await submitSession(client, {
          prompt: `scenario:bench dir:${dir}`,
          cwd: dir,
          allowedTools: ['Write'],
          model: 'claude-haiku-4-5',
        }),
      );
    }
    if (killEveryMs) {
      killer = setInterval(() => {
        const victim = workers.shift();
        if (!victim) return;
        kills++;
        void victim.kill().then(spawnTracked);
      }, killEveryMs);
    }
    let completed = 0;
    let interrupted = 0;
    for (const id of ids) {
      let out: SessionOutput | null = null;
      try {
        out = await client.result<SessionOutput>(id, 15 * 60_000);
      } catch (e) {
        failures.push(`${id}: ${(e as Error).message.slice(0, 160)}`);
      }
      if (out?.isError === false && out.result === 'done') completed++;
      else if (out) failures.push(`${id}: ${out.subtype} ${out.result.slice(0, 160)}`);
      interrupted += out?.interruptedCalls.length ?? 0;
    }
    const minutes = (performance.now() - start) / 60_000;
    return { perMinute: SESSIONS / minutes, completed, kills, interrupted, failures, ...duplicates(dirs) };
  } finally {
    clearInterval(killer);
    await Promise.all([...spawning]);
    await client.close();
    for (const w of workers) await w.stop().catch(() => undefined);
  }
}

export default async function run(): Promise<BenchReport> {
  if (!postgresBinaries()) {
    return {
      name: 'fleet',
      figures: {},
      notes: ['skipped: no Postgres binaries (apt-get install postgresql)'],
    };
  }
  const world = await startFleetWorld({ bench: scenario as never });
  try {
    const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    const figures: BenchReport['figures'] = { 'load average at start': load() };
    const targets: Record<string, boolean> = {};
    const failures: string[] = [];
    if (PARTS.has('latency')) {
      const lat = await latency(world);
      Object.assign(figures, {
        'in-process loop: gap per turn, median ms': lat.loop,
        'fleet: gap per turn, median ms': lat.fleet,
        'added latency per tool step, median ms': lat.fleet - lat.loop,
        'fleet / loop gap per turn (ratio)': lat.fleet / lat.loop,
        'fleet: database round trips per gap (median; the loop makes none)': lat.trips,
      });
      targets['added latency per tool step ≤ 5 ms (median)'] = lat.fleet - lat.loop <= 5;
    }
    let calm: Awaited<ReturnType<typeof throughput>> | undefined;
    if (PARTS.has('calm')) {
      calm = await throughput(world, 'calm');
      failures.push(...calm.failures);
      Object.assign(figures, {
        [`throughput: ${SESSIONS} sessions × ${TURNS} turns, ${WORKERS} workers, sessions/min`]:
          calm.perMinute,
        'throughput: sessions completed': calm.completed,
      });
      targets['0 duplicated effects without kills'] = calm.duplicated === 0;
    }
    if (PARTS.has('killed')) {
      const killed = await throughput(world, 'killed', 10_000);
      failures.push(...killed.failures);
      Object.assign(figures, {
        'with a worker killed every 10 s: sessions/min': killed.perMinute,
        'with kills: sessions completed': killed.completed,
        'with kills: workers killed': killed.kills,
        'with kills: calls reported interrupted': killed.interrupted,
        'with kills: effects in the ledger': killed.effects,
        [`Write calls per run (sessions × ${TURNS - 1})`]: SESSIONS * (TURNS - 1),
        'with kills: duplicated effects': killed.duplicated,
        ...(calm ? { 'killed / calm throughput (ratio)': killed.perMinute / calm.perMinute } : {}),
      });
      targets[`all ${SESSIONS} sessions complete with kills`] = killed.completed === SESSIONS;
      targets['0 duplicated effects with kills'] = killed.duplicated === 0;
    }
    figures['load average at end'] = load();
    return {
      name: 'fleet',
      figures,
      targets,
      notes: [
        'gap per turn = end of a model response → start of the next request (loop + tool call + journal writes)',
        `Postgres: a throwaway local cluster (fsync off); workers: ${WORKERS} processes × 4 sessions`,
        ...failures.slice(0, 10).map((f) => `not completed: ${f}`),
      ],
    };
  } finally {
    await world.close();
  }
}
