/**
 * The DBOS Transact implementation of the fleet's engine (`../engine.ts`): workflows, steps,
 * messages and events in DBOS's system database on Postgres. The only module of Gantry that
 * imports DBOS (docs/fleet.md, "Engine").
 *
 * Mapping: a workflow is `DBOS.registerWorkflow`, a step `DBOS.runStep` (named, no retries: the
 * fleet decides what a re-run means), `recv`/`setEvent` the same DBOS calls, a queue a database
 * queue (`DBOS.registerQueue`: worker and global concurrency, a start-rate limit; priorities are
 * per enqueue). A worker is one DBOS process with its own executor id, so a restart under the same
 * id recovers its own work (DBOS does this at launch) and `recoverWorker` hands a dead worker's
 * unfinished workflows back to the queue (`resumeWorkflows` onto the queue). The call journal is a
 * table of its own beside DBOS's (calls-table.ts): one write per claim or record instead of a DBOS
 * step's several round trips.
 *
 * DBOS holds one process-wide instance: `worker()` may be called once per process.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { DBOS, DBOSClient, type WorkflowStatus } from '@dbos-inc/dbos-sdk';
import { CallsTable, JournalCancelledError } from './calls-table.js';
import type {
  DurableEngine,
  EngineClient,
  EngineWorker,
  QueueSettings,
  WorkflowContext,
  WorkflowFunction,
  WorkflowInfo,
  WorkflowState,
} from '../engine.js';

export interface DbosEngineOptions {
  /** `postgres://…` of the system database (DBOS creates it and its schema on first launch). */
  databaseUrl: string;
  /** Application name and version: every worker of one fleet must share them. */
  appName?: string;
  appVersion?: string;
  /** DBOS's log level (default `warn`). */
  logLevel?: string;
}

const STATE_BY_STATUS: Readonly<Record<string, WorkflowState>> = {
  ENQUEUED: 'queued',
  DELAYED: 'queued',
  PENDING: 'running',
  SUCCESS: 'succeeded',
  ERROR: 'failed',
  MAX_RECOVERY_ATTEMPTS_EXCEEDED: 'failed',
  CANCELLED: 'cancelled',
};

const STATUSES_BY_STATE: Readonly<Record<WorkflowState, string[]>> = {
  queued: ['ENQUEUED', 'DELAYED'],
  running: ['PENDING'],
  succeeded: ['SUCCESS'],
  failed: ['ERROR', 'MAX_RECOVERY_ATTEMPTS_EXCEEDED'],
  cancelled: ['CANCELLED'],
  unknown: [],
};

function errorText(error: unknown): string | undefined {
  if (error === undefined || error === null) return undefined;
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
}

function infoOf(s: WorkflowStatus): WorkflowInfo {
  const err = errorText(s.error);
  return {
    workflowId: s.workflowID,
    state: STATE_BY_STATUS[s.status] ?? 'unknown',
    engineStatus: s.status,
    ...(s.executorId ? { workerId: s.executorId } : {}),
    ...(s.queueName ? { queue: s.queueName } : {}),
    ...(s.priority ? { priority: s.priority } : {}),
    createdAt: s.createdAt,
    ...(s.updatedAt ? { updatedAt: s.updatedAt } : {}),
    ...(s.input !== undefined ? { input: Array.isArray(s.input) ? s.input[0] : s.input } : {}),
    ...(s.output !== undefined ? { output: s.output } : {}),
    ...(err ? { error: err } : {}),
  };
}

function isDbosCancellation(error: unknown): boolean {
  return (
    error instanceof JournalCancelledError ||
    (error instanceof Error && error.name === 'DBOSWorkflowCancelledError')
  );
}

const requireHere = createRequire(import.meta.url);
let ownerTokenOf: ((workflowId: string) => string | undefined) | undefined;

/**
 * The ownership token DBOS gave the execution running now (the `owner_xid` it checks on its own
 * writes). Read from DBOS's context, not from the database: an execution that stalled before it
 * opened its journal would otherwise read the token of the worker that took the session over, and
 * both would run it. DBOS 5.3.0 keeps this in its context module, outside its package exports, so
 * it is loaded by file; a DBOS without it stops the worker (never a journal without the check).
 * @throws when DBOS no longer has the function, or gives no token inside a workflow.
 */
function executionOwnerToken(workflowId: string): string {
  if (!ownerTokenOf) {
    const file = path.join(path.dirname(requireHere.resolve('@dbos-inc/dbos-sdk')), 'context.js');
    const context = requireHere(file) as { currentOwnerXid?: unknown };
    if (typeof context.currentOwnerXid !== 'function')
      throw new Error(`DBOS has no currentOwnerXid in ${file}: the fleet journal cannot check ownership`);
    ownerTokenOf = context.currentOwnerXid as (workflowId: string) => string | undefined;
  }
  const token = ownerTokenOf(workflowId);
  if (token === undefined) throw new Error(`DBOS gave workflow ${workflowId} no ownership token`);
  return token;
}

function dbosContext(calls: CallsTable): WorkflowContext {
  const workflowId = (): string => {
    const id = DBOS.workflowID;
    if (!id) throw new Error('not inside a workflow');
    return id;
  };
  return {
    get workflowId() {
      return workflowId();
    },
    step: (name, fn) => DBOS.runStep(fn, { name }),
    recv: (topic, timeoutMs) => DBOS.recv(topic, { timeoutSeconds: Math.max(0.001, timeoutMs / 1000) }),
    setEvent: (key, value) => DBOS.setEvent(key, value),
    isCancellation: isDbosCancellation,
    openCalls: (executionId) => {
      const id = workflowId();
      return calls.open(id, executionId, executionOwnerToken(id));
    },
  };
}

export function createDbosEngine(options: DbosEngineOptions): DurableEngine {
  const appName = options.appName ?? 'gantry-fleet';
  const appVersion = options.appVersion ?? 'gantry-fleet-1';
  const workflows = new Map<string, WorkflowFunction<unknown, unknown>>();
  const queues: QueueSettings[] = [];
  let workerMade = false;
  let workflowName: string | undefined;

  return {
    registerWorkflow(name, fn) {
      workflows.set(name, fn as WorkflowFunction<unknown, unknown>);
      workflowName ??= name;
    },
    registerQueue(settings) {
      queues.push(settings);
    },
    worker({ workerId }): EngineWorker {
      if (workerMade) throw new Error('createDbosEngine: one worker per process (DBOS is process-wide)');
      workerMade = true;
      DBOS.setConfig({
        name: appName,
        systemDatabaseUrl: options.databaseUrl,
        executorID: workerId,
        applicationVersion: appVersion,
        logLevel: options.logLevel ?? 'warn',
      });
      const calls = new CallsTable(options.databaseUrl);
      const ctx = dbosContext(calls);
      for (const [name, fn] of workflows) {
        DBOS.registerWorkflow(async (input: unknown) => fn(ctx, input), { name });
      }
      return {
        workerId,
        async launch() {
          await calls.underLaunchLock(() => DBOS.launch());
          await calls.init();
          for (const q of queues) {
            await DBOS.registerQueue(q.name, {
              onConflict: 'always_update',
              ...(q.workerConcurrency ? { workerConcurrency: q.workerConcurrency } : {}),
              ...(q.globalConcurrency ? { globalConcurrency: q.globalConcurrency } : {}),
              ...(q.rateLimit
                ? { rateLimit: { limitPerPeriod: q.rateLimit.limit, periodSec: q.rateLimit.periodMs / 1000 } }
                : {}),
              ...(q.pollingIntervalMs ? { minPollingIntervalMs: q.pollingIntervalMs } : {}),
            });
          }
        },
        async recoverWorker(deadId, queue) {
          const pending = await DBOS.listWorkflows({
            status: 'PENDING',
            executorId: deadId,
            loadInput: false,
          });
          const ids = pending.map((w) => w.workflowID);
          if (ids.length) await DBOS.resumeWorkflows(ids, { queueName: queue });
          return ids;
        },
        pruneCalls: (cancelledRetentionMs) => calls.prune(cancelledRetentionMs),
        async shutdown() {
          await DBOS.shutdown();
          await calls.close();
        },
      };
    },
    async client(): Promise<EngineClient> {
      const client = await DBOSClient.create({
        systemDatabaseUrl: options.databaseUrl,
        applicationName: appName,
      });
      return {
        async enqueue(input, o) {
          await client.enqueue(
            {
              queueName: o.queue,
              workflowName: o.workflowName ?? workflowName ?? 'gantry.session',
              workflowID: o.workflowId,
              appVersion,
              ...(o.priority ? { priority: o.priority } : {}),
            },
            input,
          );
        },
        send: (id, topic, message) => client.send(id, message, topic),
        getEvent: (id, key) => client.getEvent(id, key, { timeoutSeconds: 0 }),
        async get(id) {
          const s = await client.getWorkflow(id);
          return s ? infoOf(s) : undefined;
        },
        async list(filter = {}) {
          const status = filter.states?.flatMap((s) => STATUSES_BY_STATE[s]);
          const rows = await client.listWorkflows({
            ...(status ? { status: status as never } : {}),
            ...(filter.workerId ? { executorId: filter.workerId } : {}),
            ...(filter.limit ? { limit: filter.limit } : {}),
            sortDesc: true,
            loadInput: true,
            loadOutput: true,
          });
          return rows.map(infoOf);
        },
        cancel: (id) => client.cancelWorkflow(id),
        async result(id, timeoutMs) {
          // Polls the status (cancellable, unlike a handle's getResult, which outlives a timeout).
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const s = await client.getWorkflow(id);
            const state = s ? STATE_BY_STATUS[s.status] : undefined;
            if (s && state === 'succeeded') return s.output as never;
            if (s && state === 'failed') throw new Error(errorText(s.error) ?? `workflow ${id} failed`);
            if (s && state === 'cancelled') throw new Error(`workflow ${id} was cancelled`);
            if (Date.now() >= deadline) return null;
            await new Promise((r) => setTimeout(r, Math.min(100, Math.max(1, deadline - Date.now()))));
          }
        },
        close: () => client.destroy(),
      };
    },
  };
}
