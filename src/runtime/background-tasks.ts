/**
 * The session's registry of running background tasks (`BackgroundTaskRegistry`): one per session,
 * owned by the session services (`createSessionServices`), reached by tools as
 * `context.services.tasks`. The serialisable facts of a task live in `AppState.tasks`; this holds
 * how to stop each task, a promise that settles when it ends, and how much of its output readers
 * have seen.
 *
 * - Any task kind can register (`bash` from the Bash tool; `agent` from the Agent tool), so
 *   TaskOutput and TaskStop work the same for all of them.
 * - Task ids are Claude Code-shaped: a kind letter (`b` bash, `a` agent, `m` monitor) and 6 hex digits.
 * - `dispose()` stops every running task; when the host process exits, every task still running
 *   in any registry is SIGKILLed through its `killNow` hook (no orphaned process groups).
 */
import { randomBytes } from 'node:crypto';
import type { BackgroundTaskInfo, BackgroundTaskRegistry, TaskHandle } from '../core/index.js';

interface Entry extends TaskHandle {
  /** Bytes of the output file already returned by TaskOutput. */
  readOffset: number;
  done: boolean;
}

/** The first letter of a task id, by task kind. */
const TASK_ID_LETTER: Record<BackgroundTaskInfo['kind'], string> = { bash: 'b', agent: 'a', monitor: 'm' };

export class BackgroundTaskManager implements BackgroundTaskRegistry {
  private readonly entries = new Map<string, Entry>();
  private disposed = false;

  /** A fresh id: `b` (bash), `a` (agent) or `m` (monitor) + 6 hex digits, unique in this registry. */
  newTaskId(kind: BackgroundTaskInfo['kind']): string {
    for (;;) {
      const id = `${TASK_ID_LETTER[kind]}${randomBytes(3).toString('hex')}`;
      if (!this.entries.has(id)) return id;
    }
  }

  /** Registers a running task under `id` (the caller already put its info in AppState.tasks). */
  register(id: string, handle: TaskHandle): void {
    if (this.disposed) {
      void handle.stop().catch(() => undefined);
      throw new Error(`the session is closed: background task ${id} was stopped`);
    }
    const entry: Entry = { ...handle, readOffset: 0, done: false };
    this.entries.set(id, entry);
    const ended = (): void => {
      entry.done = true;
      if (this.runningIds().length === 0) liveManagers.delete(this);
    };
    void handle.ended.then(ended, ended);
    liveManagers.add(this);
    installExitHook();
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** The command a task runs, when known. */
  command(id: string): string | undefined {
    return this.entries.get(id)?.command;
  }

  /** True while a registered task has not ended. */
  isRunning(id: string): boolean {
    const entry = this.entries.get(id);
    return entry !== undefined && !entry.done;
  }

  /** Stops a task. Returns false when the id is not registered here. */
  async stop(id: string): Promise<boolean> {
    const entry = this.entries.get(id);
    if (!entry) return false;
    await entry.stop();
    await entry.ended.catch(() => undefined);
    return true;
  }

  /**
   * Waits until the task ends, `timeoutMs` passes or `signal` aborts. Returns true when it ended.
   * An id that is not registered counts as ended.
   */
  async waitForEnd(id: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    const entry = this.entries.get(id);
    if (!entry || entry.done) return true;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const gaveUp = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
      onAbort = () => resolve(false);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([
        entry.ended.then(
          () => true as const,
          () => true as const,
        ),
        gaveUp,
      ]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Bytes of output already handed to TaskOutput readers. */
  readOffset(id: string): number {
    return this.entries.get(id)?.readOffset ?? 0;
  }

  setReadOffset(id: string, offset: number): void {
    const entry = this.entries.get(id);
    if (entry) entry.readOffset = offset;
  }

  /** Ids of tasks registered here that have not ended. */
  runningIds(): string[] {
    return [...this.entries].filter(([, e]) => !e.done).map(([id]) => id);
  }

  /** Stops every running task (e.g. at the end of a `-p` run, or when the session is disposed). */
  async stopAll(): Promise<void> {
    await Promise.all(this.runningIds().map((id) => this.stop(id)));
  }

  /**
   * Stops every running task and forgets every task; the registry takes no new tasks afterwards
   * (registering one stops it at once). Idempotent.
   */
  async dispose(): Promise<void> {
    this.disposed = true;
    try {
      await this.stopAll();
    } finally {
      this.entries.clear();
      liveManagers.delete(this);
    }
  }

  /** SIGKILLs what still runs (the process is exiting). */
  killAllNow(): void {
    for (const entry of this.entries.values()) if (!entry.done) entry.killNow?.();
  }
}

/** Registries with registered tasks, for the one exit hook below. */
const liveManagers = new Set<BackgroundTaskManager>();
let exitHookInstalled = false;

/** One `exit` listener for every registry: whatever still runs when the host exits is SIGKILLed. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const manager of liveManagers) manager.killAllNow();
  });
}
