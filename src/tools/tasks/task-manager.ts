/**
 * In-process registry of running background tasks (spec §2.7 "run_in_background", §2.9; seed 000
 * §3.2 "<task-notification>"). The serialisable facts of a task live in `AppState.tasks`
 * (`BackgroundTaskInfo`); this registry holds what cannot be serialised: how to stop the task, a
 * promise that settles when it ends, and how much of its output each reader has already seen.
 *
 * - Any task kind can register (`bash` from the Bash tool; `agent` from the Agent tool), so
 *   `TaskOutput`/`TaskStop` work the same for all of them.
 * - Task ids are Claude Code-shaped: a kind letter (`b` bash, `a` agent) and 6 hex digits.
 * - When the host process exits, every task still registered is SIGKILLed through its
 *   `killNow` hook (no orphaned process groups).
 */
import { randomBytes } from 'node:crypto';
import type { BackgroundTaskInfo } from '../../core/index.js';

/** What the registry needs from a running task. */
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

interface Entry extends TaskHandle {
  /** Bytes of the output file already returned by TaskOutput. */
  readOffset: number;
  done: boolean;
}

/** Claude Code's task type names, as TaskOutput reports them. */
export function taskTypeName(kind: BackgroundTaskInfo['kind']): 'local_bash' | 'local_agent' {
  return kind === 'bash' ? 'local_bash' : 'local_agent';
}

export class BackgroundTaskManager {
  private readonly entries = new Map<string, Entry>();
  private exitHookInstalled = false;

  /** A fresh id: `b` (bash) or `a` (agent) + 6 hex digits, unique in this process. */
  newTaskId(kind: BackgroundTaskInfo['kind']): string {
    for (;;) {
      const id = `${kind === 'bash' ? 'b' : 'a'}${randomBytes(3).toString('hex')}`;
      if (!this.entries.has(id)) return id;
    }
  }

  /** Registers a running task under `id` (the caller already put its info in AppState.tasks). */
  register(id: string, handle: TaskHandle): void {
    const entry: Entry = { ...handle, readOffset: 0, done: false };
    this.entries.set(id, entry);
    void handle.ended.then(
      () => {
        entry.done = true;
      },
      () => {
        entry.done = true;
      },
    );
    this.installExitHook();
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

  /** Stops every running task (e.g. at the end of a `-p` run). */
  async stopAll(): Promise<void> {
    await Promise.all(this.runningIds().map((id) => this.stop(id)));
  }

  private installExitHook(): void {
    if (this.exitHookInstalled) return;
    this.exitHookInstalled = true;
    process.once('exit', () => {
      for (const entry of this.entries.values()) if (!entry.done) entry.killNow?.();
    });
  }
}

/** The process-wide registry the Bash, TaskOutput and TaskStop tools share. */
export const backgroundTasks = new BackgroundTaskManager();

/** Summary line of a finished task, as in Claude Code's notifications. */
export function taskEndSummary(task: BackgroundTaskInfo, timedOutAfterMs?: number): string {
  const what = task.kind === 'bash' ? 'Background command' : 'Background agent';
  const name = `${what} "${task.description}"`;
  if (timedOutAfterMs !== undefined)
    return `${name} timed out after ${Math.round(timedOutAfterMs / 1000)}s and was stopped`;
  if (task.status === 'killed') return `${name} was stopped`;
  if (task.status === 'completed') return `${name} completed (exit code ${task.exitCode ?? 0})`;
  return `${name} failed with exit code ${task.exitCode ?? 'unknown'}`;
}

/**
 * The `<task-notification>` text a host appends to the conversation when a task ends (the shape
 * seen in Claude Code transcripts, data/real/README.md §5).
 */
export function formatTaskNotification(task: BackgroundTaskInfo, summary: string): string {
  return [
    '<task-notification>',
    `<task-id>${task.id}</task-id>`,
    `<output-file>${task.outputFile}</output-file>`,
    `<status>${task.status}</status>`,
    `<summary>${summary}</summary>`,
    '</task-notification>',
    `Read the output file to retrieve the result: ${task.outputFile}`,
  ].join('\n');
}
