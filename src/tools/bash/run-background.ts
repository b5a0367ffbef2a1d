/**
 * `run_in_background: true` (the Claude Code tools reference "Timeouts and background").
 *
 * Sequence: new task id → output file `<sessionDir>/tasks/<id>.output` → spawn spec (+ sandbox
 * wrap) → start the process group, not keeping the host alive → register the task in
 * `AppState.tasks` (through `setAppStateForTasks`) and in the session's task registry
 * (`context.services.tasks`) → return at once.
 * When the leader exits: the task's status becomes `completed` (exit 0), `failed` (other exit) or
 * `killed` (TaskStop, or its run-time limit), `AppState.tasks` is updated, the host is told through
 * `context.notify` (a task-notification with Claude Code's summary line), and the sandbox cleanup
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
  const timer = setTimeout(() => {
    timedOut = true;
    void proc.terminate('timeout');
  }, options.timeoutMs);
  timer.unref();

  const ended = proc.exited.then(async (exit) => {
    clearTimeout(timer);
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
      await proc.terminate('stopped');
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
