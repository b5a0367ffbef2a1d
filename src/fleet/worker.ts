/**
 * A fleet worker (`gantry fleet serve`, docs/fleet.md): one process that registers the session
 * workflow and the session queue with the engine, executes queued sessions, keeps its row in the
 * workers roster fresh, hands the unfinished sessions of workers gone silent back to the queue,
 * and serves the approval endpoint (approval-http.ts).
 *
 * Failover: every `sweepMs` one worker at a time (the roster's lock) drops the rows of workers
 * silent for `deadAfterMs` and re-queues every running session whose worker has no row; any worker
 * then takes it and resumes it from its journal. A worker restarted under the same id recovers its
 * own sessions at once. Once a minute the sweep also drops the call journals of sessions that
 * ended.
 */
import { hostname } from 'node:os';
import path from 'node:path';
import type { ModelClient } from '../core/model-client.js';
import { createModelClient } from '../model/create-model-client.js';
import { createDbosEngine } from './dbos/dbos-engine.js';
import type { EngineClient, EngineWorker } from './engine.js';
import { type ApprovalServer, startApprovalServer } from './approval-http.js';
import { SESSION_QUEUE, SESSION_WORKFLOW, type SessionInput } from './session-types.js';
import { sessionWorkflow, type SessionWorkerDeps } from './session-workflow.js';
import { FleetPacer } from './model-pacer.js';
import { WorkersTable } from './workers-table.js';
import { randomUUID } from 'node:crypto';

/** How often the sweep drops the call journals of ended sessions. */
const PRUNE_EVERY_MS = 60_000;

export interface WorkerOptions {
  databaseUrl: string;
  /** Default `<host>-<random>`; keep it across restarts to recover this worker's sessions at once. */
  workerId?: string;
  /** `~/.gantry/fleet`. */
  fleetHome: string;
  /** Where `repo` sessions' checkouts go (default `$GANTRY_FLEET_WORK`, else a folder in the temp directory). */
  workRoot?: string;
  home?: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** Sessions at once in this worker (default 4). */
  concurrency?: number;
  /** Sessions at once in the fleet (default: unlimited). */
  globalConcurrency?: number;
  /** Session starts per minute, fleet-wide. */
  startsPerMinute?: number;
  /** Model requests per minute, fleet-wide (every worker of the fleet should give the same value). */
  modelRequestsPerMinute?: number;
  heartbeatMs?: number;
  /** A worker silent this long is gone (default 10 s). */
  deadAfterMs?: number;
  /** How long the call journal of a cancelled session is kept (ms; default 7 days). */
  cancelledRetentionMs?: number;
  sweepMs?: number;
  /** Queue polling interval (default 200 ms). */
  pollingIntervalMs?: number;
  /** Approval endpoint port on 127.0.0.1 (0 = any free one; undefined = none). */
  httpPort?: number;
  /** The approval endpoint's bearer token (required by the endpoint). */
  httpToken?: string;
  /** A model client instead of one built from `env` (library hosts). */
  modelClientFor?: SessionWorkerDeps['modelClientFor'];
  onToolCall?: SessionWorkerDeps['onToolCall'];
  tools?: SessionWorkerDeps['tools'];
  log?: (line: string) => void;
}

export interface FleetWorker {
  readonly workerId: string;
  readonly approvalUrl: string | undefined;
  stop(): Promise<void>;
}

function defaultModelClientFor(env: Readonly<Record<string, string | undefined>>) {
  return (input: SessionInput): { client: ModelClient; model: string } => {
    const client = createModelClient({
      flags: {
        ...(input.provider ? { provider: input.provider } : {}),
        ...(input.model ? { model: input.model } : {}),
      },
      env,
    });
    return { client, model: client.model };
  };
}

export async function startWorker(options: WorkerOptions): Promise<FleetWorker> {
  const workerId = options.workerId ?? `${hostname()}-${randomUUID().slice(0, 8)}`;
  const env = options.env ?? process.env;
  const log = options.log ?? (() => undefined);
  const deadAfterMs = options.deadAfterMs ?? 10_000;
  const heartbeatMs = options.heartbeatMs ?? Math.max(200, Math.floor(deadAfterMs / 4));
  const sweepMs = options.sweepMs ?? heartbeatMs;
  const roster = new WorkersTable(options.databaseUrl);
  await roster.init();

  const engine = createDbosEngine({ databaseUrl: options.databaseUrl });
  const pacers = options.modelRequestsPerMinute ? new FleetPacer(options.databaseUrl) : undefined;
  const pacer =
    pacers && options.modelRequestsPerMinute ? pacers.pace(options.modelRequestsPerMinute) : undefined;
  engine.registerWorkflow(
    SESSION_WORKFLOW,
    sessionWorkflow({
      workerId,
      fleetHome: options.fleetHome,
      ...(options.workRoot ? { workRoot: options.workRoot } : {}),
      ...(options.home ? { home: options.home } : {}),
      env,
      modelClientFor: options.modelClientFor ?? defaultModelClientFor(env),
      ...(pacer ? { beforeModelRequest: pacer } : {}),
      ...(options.onToolCall ? { onToolCall: options.onToolCall } : {}),
      ...(options.tools ? { tools: options.tools } : {}),
    }),
  );
  engine.registerQueue({
    name: SESSION_QUEUE,
    workerConcurrency: options.concurrency ?? 4,
    ...(options.globalConcurrency ? { globalConcurrency: options.globalConcurrency } : {}),
    ...(options.startsPerMinute ? { rateLimit: { limit: options.startsPerMinute, periodMs: 60_000 } } : {}),
    pollingIntervalMs: options.pollingIntervalMs ?? 200,
  });

  let client: EngineClient | undefined;
  let approvals: ApprovalServer | undefined;
  if (options.httpPort !== undefined) {
    try {
      client = await engine.client();
      approvals = await startApprovalServer({
        port: options.httpPort,
        token: options.httpToken ?? '',
        client,
      });
    } catch (e) {
      // A port in use: nothing may keep the database connections (and so the process) open.
      await client?.close().catch(() => undefined);
      await pacers?.close().catch(() => undefined);
      await roster.close().catch(() => undefined);
      throw e;
    }
  }
  // In the roster before taking any work, so no sweep mistakes this worker's sessions for orphans.
  await roster.beat(workerId, approvals?.url);
  const worker: EngineWorker = engine.worker({ workerId });
  await worker.launch();
  log(`fleet worker ${workerId} running${approvals ? `; approvals at ${approvals.url}` : ''}`);

  let stopping = false;
  const beat = setInterval(() => {
    void roster.beat(workerId, approvals?.url).catch((e) => log(`heartbeat failed: ${String(e)}`));
  }, heartbeatMs);
  let sweeping = false;
  let lastPrune = 0;
  const sweep = setInterval(() => {
    if (sweeping || stopping) return;
    sweeping = true;
    void roster
      .underRecoveryLock(workerId, deadAfterMs, async (live) => {
        const lister = (client ??= await engine.client());
        const running = await lister.list({ states: ['running'] });
        const orphans = new Set(
          running.map((w) => w.workerId).filter((id): id is string => !!id && !live.has(id)),
        );
        for (const dead of orphans) {
          const ids = await worker.recoverWorker(dead, SESSION_QUEUE);
          if (ids.length)
            log(`worker ${dead} is gone: re-queued ${ids.length} session(s): ${ids.join(', ')}`);
        }
        if (Date.now() - lastPrune >= PRUNE_EVERY_MS) {
          lastPrune = Date.now();
          await worker.pruneCalls(options.cancelledRetentionMs);
        }
      })
      .catch((e) => log(`recovery sweep failed: ${String(e)}`))
      .finally(() => {
        sweeping = false;
      });
  }, sweepMs);

  return {
    workerId,
    approvalUrl: approvals?.url,
    async stop() {
      stopping = true;
      clearInterval(beat);
      clearInterval(sweep);
      await approvals?.close();
      await worker.shutdown();
      await roster.remove(workerId).catch(() => undefined);
      await client?.close().catch(() => undefined);
      await pacers?.close().catch(() => undefined);
      await roster.close();
    },
  };
}

/** `~/.gantry/fleet` under `home`. */
export function fleetHomeOf(gantryHome: string): string {
  return path.join(gantryHome, 'fleet');
}
