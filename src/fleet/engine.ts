/**
 * The durable-execution engine behind fleet mode, as one interface (docs/fleet.md, "Engine"). The
 * fleet's sessions, approvals and workers are written against it; the one implementation today is
 * DBOS Transact on Postgres (`dbos/dbos-engine.ts`, the only module that imports DBOS), and another
 * engine replaces it by implementing this file.
 *
 * Semantics every implementation keeps:
 * - A workflow is a function of its input, re-executed from the start after a crash; what it did
 *   durably (steps, received messages, events) replays from the journal in the same order, so the
 *   function must make those calls in a deterministic order.
 * - `step(name, fn)` runs `fn` at most once to completion and records its (JSON) result; a replay
 *   returns the record without calling `fn`. A step cut off mid-run is run again (at least once).
 * - `recv(topic, timeoutMs)` takes the next message sent to this workflow on `topic`, waiting at
 *   most `timeoutMs` (`null` on timeout); the wait survives restarts of the process.
 * - Cancelling a workflow makes its next durable call throw an error for which
 *   `isCancellation(error)` is true.
 * - The call journal (`openCalls`) holds entries keyed by the caller's own id (a `tool_use_id`),
 *   outside the step sequence: each claim and each record is one durable write, and only the
 *   execution that currently owns the workflow may write (a takeover by another worker makes the
 *   old execution's next write throw). An entry is written once: a second claim of a key fails,
 *   and a key has at most one record.
 */

/** A call's entry in the call journal, as it stood when the execution opened the journal. */
export interface CallEntry {
  /** The execution that claimed the call before running it (calls with effects). */
  claimedBy?: string;
  /** The call's recorded outcome (JSON), once it has one. */
  record?: unknown;
}

/** One execution's handle on its workflow's call journal. */
export interface CallJournal {
  /** Entries written by earlier executions, read when the journal was opened. */
  readonly entries: ReadonlyMap<string, CallEntry>;
  /**
   * Claims `key` for this execution in one durable write, before the call's effects start.
   * False when the key was claimed or recorded already (by an earlier execution).
   */
  claim(key: string): Promise<boolean>;
  /** Records `key`'s outcome (JSON) in one durable write. Throws when it already has one. */
  record(key: string, value: unknown): Promise<void>;
}

/** What a running workflow may do durably. */
export interface WorkflowContext {
  readonly workflowId: string;
  /** Runs `fn` once and records its JSON result under `name` (names are unique per workflow). */
  step<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** The next message on `topic`, or null after `timeoutMs`. */
  recv<T>(topic: string, timeoutMs: number): Promise<T | null>;
  /** Publishes `value` under `key` (readers see the latest value). */
  setEvent(key: string, value: unknown): Promise<void>;
  /** True for the error a cancelled workflow's durable calls throw. */
  isCancellation(error: unknown): boolean;
  /** Opens the call journal for the execution `executionId` (one read). */
  openCalls(executionId: string): Promise<CallJournal>;
}

export type WorkflowFunction<I, O> = (ctx: WorkflowContext, input: I) => Promise<O>;

export interface QueueSettings {
  name: string;
  /** Sessions running at once in one worker process. */
  workerConcurrency?: number;
  /** Sessions running at once across the fleet. */
  globalConcurrency?: number;
  /** At most `limit` session starts per `periodMs` across the fleet. */
  rateLimit?: { limit: number; periodMs: number };
  /** Polling interval of the queue in ms (lower starts queued sessions sooner; default 1000). */
  pollingIntervalMs?: number;
}

export type WorkflowState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'unknown';

export interface WorkflowInfo {
  workflowId: string;
  state: WorkflowState;
  /** The engine's own status word (`PENDING`, `ENQUEUED`, …). */
  engineStatus: string;
  /** The worker executing (or last executing) it. */
  workerId?: string;
  queue?: string;
  priority?: number;
  createdAt: number;
  updatedAt?: number;
  input?: unknown;
  output?: unknown;
  error?: string;
}

export interface EnqueueOptions {
  workflowId: string;
  queue: string;
  /** The registered workflow to run (default: the first one registered, else `gantry.session`). */
  workflowName?: string;
  /** Lower runs first (1 is the highest; 0 = none). */
  priority?: number;
}

/** Operations from outside a workflow: any process with the database URL (CLI, workers). */
export interface EngineClient {
  enqueue(input: unknown, options: EnqueueOptions): Promise<void>;
  send(workflowId: string, topic: string, message: unknown): Promise<void>;
  getEvent<T>(workflowId: string, key: string): Promise<T | null>;
  get(workflowId: string): Promise<WorkflowInfo | undefined>;
  list(filter?: { states?: WorkflowState[]; workerId?: string; limit?: number }): Promise<WorkflowInfo[]>;
  cancel(workflowId: string): Promise<void>;
  /** Waits for the workflow to end and returns its output (throws its error). */
  result<T>(workflowId: string, timeoutMs: number): Promise<T | null>;
  close(): Promise<void>;
}

/** A worker process: registers the session workflow and its queue, then executes queued work. */
export interface EngineWorker {
  readonly workerId: string;
  /** Starts executing (and recovers this worker id's own unfinished workflows). */
  launch(): Promise<void>;
  /**
   * Puts the unfinished workflows of a worker that is gone back on `queue`, where any worker takes
   * them. Returns their ids. Call only for a worker known dead: a live one would run them twice.
   */
  recoverWorker(workerId: string, queue: string): Promise<string[]>;
  /**
   * Drops the call journals of workflows that ended (succeeded or failed: they never run again)
   * and of workflows cancelled more than `cancelledRetentionMs` ago (default 7 days: a cancelled
   * workflow can be resumed, and needs its journal then). Returns how many entries went.
   */
  pruneCalls(cancelledRetentionMs?: number): Promise<number>;
  shutdown(): Promise<void>;
}

export interface DurableEngine {
  /** Registers the session workflow (before `worker()`/`launch`). */
  registerWorkflow<I, O>(name: string, fn: WorkflowFunction<I, O>): void;
  registerQueue(settings: QueueSettings): void;
  worker(options: { workerId: string }): EngineWorker;
  client(): Promise<EngineClient>;
}
