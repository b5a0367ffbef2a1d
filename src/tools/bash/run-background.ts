/**
 * `run_in_background: true` (the Claude Code tools reference "Timeouts and background").
 *
 * Sequence: new task id → output file `<sessionDir>/tasks/<id>.output` → spawn spec (+ sandbox
 * wrap) → start the process group, not keeping the host alive → register the task in
 * `AppState.tasks` (through `setAppStateForTasks`) and in the session's task registry
 * (`context.services.tasks`) → return at once.
 * When the leader (the command's shell) exits while processes it started still run (`server &`,
 * `sleep 30 & exit 3`), the task stays `running` with `leaderExitCode` and `processesLeft` set
 * (TaskOutput and TaskStop say so; TaskStop stops those processes); it ends when they do. When it
 * ends: the task's status becomes `completed` (the shell's exit 0), `failed` (another exit) or
 * `killed` (TaskStop, or its run-time limit), `exitCode` is the shell's, `AppState.tasks` is
 * updated, the host is told through `context.notify` (a task-notification with Claude Code's summary line), and the sandbox cleanup
 * runs. A `cd` inside a background command never changes the session cwd.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { BackgroundTaskInfo, ToolUseContext } from '../../core/index.js';
import { claimSessionDir } from '../file-io/session-files.js';
import { taskEndSummary } from '../tasks/task-manager.js';
import { type RunningProcess, startProcess } from './exec.js';
import { type BashSandbox, buildShellSpawnSpec } from './spawn-spec.js';

export interface StartBackgroundOptions {
  command: string;
  description: string;
  cwd: string;
  /** Run-time limit; the group is stopped (SIGTERM, then SIGKILL) when it passes. */
  timeoutMs: number;
  graceMs: number;
  context: ToolUseContext;
  env?: Record<string, string | undefined>;
  envFile?: string;
  sandbox?: BashSandbox;
  dangerouslyDisableSandbox: boolean;
}

export interface StartedBackgroundTask {
  taskId: string;
  outputFile: string;
}

/** First and longest pause between two counts of a task's leftover processes, ms. */
const LEFTOVER_POLL_FIRST_MS = 25;
const LEFTOVER_POLL_MAX_MS = 1_000;

/** A pause that does not keep the host alive (its exit hook kills what is left). */
function unrefDelay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * After the command's shell exited with `code`: while processes it started still run (and the
 * task is not being stopped), reports `{leaderExitCode, processesLeft}` through `report` at the
 * start and whenever the count changes, counting again after 25 ms, then doubling up to 1 s
 * (there is no event for "the last member of a group exited"). Resolves when none is left, or at
 * once when the task is being stopped (then `terminate` ends the group). `report` is not called
 * when nothing was left at the shell's exit.
 */
async function waitForLeftovers(
  proc: RunningProcess,
  code: number | null,
  stopping: Promise<void>,
  report: (left: { leaderExitCode: number | null; processesLeft: number }) => void,
): Promise<void> {
  if (proc.stopReason !== undefined) return;
  let left = proc.processCount();
  let pause = LEFTOVER_POLL_FIRST_MS;
  let stopped = false;
  void stopping.then(() => {
    stopped = true;
  });
  while (left > 0 && !stopped) {
    report({ leaderExitCode: code, processesLeft: left });
    for (;;) {
      await Promise.race([unrefDelay(pause), stopping]);
      pause = Math.min(pause * 2, LEFTOVER_POLL_MAX_MS);
      if (stopped) return;
      const now = proc.processCount();
      if (now !== left) {
        left = now;
        break;
      }
    }
  }
}

function setTask(context: ToolUseContext, task: BackgroundTaskInfo): void {
  context.setAppStateForTasks((prev) => ({ ...prev, tasks: { ...prev.tasks, [task.id]: task } }));
}

/** Starts the command as a background task and returns its id and output file at once. */
export async function startBackgroundCommand(
  options: StartBackgroundOptions,
): Promise<StartedBackgroundTask> {
  const { context } = options;
  const manager = context.services.tasks;
  const taskId = manager.newTaskId('bash');
  const tasksDir = path.join(context.getAppState().sessionDir, 'tasks');
  claimSessionDir(context.getAppState().sessionDir);
  await mkdir(tasksDir, { recursive: true });
  const outputFile = path.join(tasksDir, `${taskId}.output`);
  const baseSpec = buildShellSpawnSpec({
    command: options.command,
    cwd: options.cwd,
    env: options.env,
    // Background commands never change the session cwd: the EXIT trap writes nowhere.
    cwdFile: '/dev/null',
    envFile: options.envFile,
  });
  const sandboxInfo = {
    command: options.command,
    dangerouslyDisableSandbox: options.dangerouslyDisableSandbox,
    background: true,
  };
  const wrapped = options.sandbox
    ? await options.sandbox.wrap(baseSpec, sandboxInfo)
    : { spec: baseSpec, cleanup: () => undefined };
  let proc: RunningProcess;
  try {
    proc = await startProcess({ spec: wrapped.spec, outputFile, graceMs: options.graceMs, unref: true });
  } catch (error) {
    await wrapped.cleanup();
    throw error;
  }
  const startedAtMs = Date.now();
  const info: BackgroundTaskInfo = {
    id: taskId,
    kind: 'bash',
    description: options.description,
    status: 'running',
    outputFile,
    startedAtMs,
  };
  setTask(context, info);
  let timedOut = false;
  /** Resolves when the task is being stopped (TaskStop, the run-time limit): ends the wait below. */
  let stopRequested!: () => void;
  const stopping = new Promise<void>((resolve) => {
    stopRequested = resolve;
  });
  const stop = (reason: 'timeout' | 'stopped'): Promise<unknown> => {
    stopRequested();
    return proc.terminate(reason);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    void stop('timeout');
  }, options.timeoutMs);
  timer.unref();

  const ended = proc.exited.then(async (exit) => {
    await waitForLeftovers(proc, exit.code, stopping, (left) => setTask(context, { ...info, ...left }));
    clearTimeout(timer);
    // A stopped task has ended once its whole group has (terminate is idempotent: the same promise).
    if (proc.stopReason !== undefined) await proc.terminate(proc.stopReason);
    const stopped = proc.stopReason !== undefined;
    const final: BackgroundTaskInfo = {
      ...info,
      status: stopped ? 'killed' : exit.code === 0 ? 'completed' : 'failed',
      endedAtMs: Date.now(),
      exitCode: exit.code,
    };
    setTask(context, final);
    try {
      context.notify?.({
        type: 'task-notification',
        task: final,
        summary: taskEndSummary(final, timedOut ? options.timeoutMs : undefined),
      });
    } finally {
      await wrapped.cleanup();
    }
  });
  manager.register(taskId, {
    command: options.command,
    ended,
    stop: async () => {
      await stop('stopped');
      await ended;
    },
    killNow: () => {
      try {
        process.kill(-proc.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  });
  return { taskId, outputFile };
}
