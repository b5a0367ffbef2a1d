/**
 * What tools get from their session besides the context's state: the background task registry and
 * the model client. The runtime implements it (`createSessionServices` in `runtime/`); tools see
 * only these interfaces, through `context.services`. See docs/runtime.md "Session services".
 */
import type { BackgroundTaskInfo } from './context.js';
import type { ModelClient } from './model-client.js';

/** What the task registry needs from a running task. */
export interface TaskHandle {
  /** Stops the task; resolves once it has ended. Must be idempotent. */
  stop(): Promise<void>;
  /** Settles when the task has ended, however it ended (after `AppState.tasks` was updated). */
  ended: Promise<void>;
  /** Synchronous last-resort kill, used when the host process exits. */
  killNow?: () => void;
  /** The command line (bash tasks), for TaskStop's answer. */
  command?: string;
}

/**
 * The session's running background tasks (`run_in_background` Bash commands, background agents).
 * The serialisable facts of a task live in `AppState.tasks`; the registry holds what cannot be
 * serialised: how to stop it, when it ends, how much of its output readers have seen.
 */
export interface BackgroundTaskRegistry {
  /** A fresh id: `b` (bash) or `a` (agent) + 6 hex digits, unique in this registry. */
  newTaskId(kind: BackgroundTaskInfo['kind']): string;
  /** Registers a running task under `id` (the caller already put its info in `AppState.tasks`). */
  register(id: string, handle: TaskHandle): void;
  has(id: string): boolean;
  /** The command a task runs, when known. */
  command(id: string): string | undefined;
  /** True while a registered task has not ended. */
  isRunning(id: string): boolean;
  /** Stops a task. Resolves false when the id is not registered here. */
  stop(id: string): Promise<boolean>;
  /** Waits until the task ends, `timeoutMs` passes or `signal` aborts. True when it ended (or is unknown). */
  waitForEnd(id: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  /** Bytes of output already handed to TaskOutput readers. */
  readOffset(id: string): number;
  setReadOffset(id: string, offset: number): void;
  /** Ids of registered tasks that have not ended. */
  runningIds(): string[];
  /** Stops every running task. */
  stopAll(): Promise<void>;
}

/** The per-session services a tool may use (shared by the main session and its sub-agents). */
export interface SessionServices {
  /** The session's background tasks. */
  readonly tasks: BackgroundTaskRegistry;
  /** The model the session talks to, when the host configured one (the Agent tool, WebFetch's summariser). */
  readonly modelClient?: ModelClient;
}
