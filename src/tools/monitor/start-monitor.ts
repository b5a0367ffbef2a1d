/**
 * Starts one watch as a background task of the session (docs/monitor.md "Lifecycle").
 *
 * Sequence: new task id (`m` + 6 hex) → output file `<sessionDir>/tasks/<id>.output` → start the
 * source (`command` through the Bash spawn path, or the WebSocket) feeding an {@link EventBatcher}
 * that delivers through `context.services.inbox` → record the task in `AppState.tasks` and register
 * it in `context.services.tasks` (so TaskOutput reads it and TaskStop stops it; the session's end
 * stops it with every other task) → arm the deadline (none when persistent) → ask the inbox to
 * hold a `-p` session open until the watch has ended and its last event was handed over.
 *
 * Ending: by itself (the command exited, the socket closed, a frame was too large) or by the
 * deadline → the last lines and a closing note (`status="ended"`) are delivered, the task becomes
 * `completed` or `failed` (`killed` for the deadline). Stopped on purpose (TaskStop, the session's
 * end) → `killed`, and what still waits is dropped: whoever stopped it knows.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type BackgroundTaskInfo, ToolExecutionError, type ToolUseContext } from '../../core/index.js';
import { claimSessionDir } from '../file-io/session-files.js';
import { type BatchLimits, EventBatcher } from './event-batcher.js';
import type { MonitorPorts } from './ports.js';
import { type SourceEnd, startCommandSource, startWsSource, type WatchSource } from './sources.js';

export interface MonitorOutput {
  taskId: string;
  /** The deadline, ms; null when the watch is persistent. */
  timeoutMs: number | null;
  persistent: boolean;
}

export interface StartMonitorOptions {
  description: string;
  source: { command: string; cwd: string } | { ws: { url: string; protocols?: readonly string[] } };
  /** Undefined: no deadline (persistent). */
  timeoutMs: number | undefined;
  context: ToolUseContext;
  ports: MonitorPorts;
  batchLimits?: BatchLimits;
}

function setTask(context: ToolUseContext, task: BackgroundTaskInfo): void {
  context.setAppStateForTasks((prev) => ({ ...prev, tasks: { ...prev.tasks, [task.id]: task } }));
}

export async function startMonitor(options: StartMonitorOptions): Promise<MonitorOutput> {
  const { context } = options;
  const inbox = context.services.inbox;
  if (!inbox)
    throw new ToolExecutionError(
      'Monitor needs a session that can hand events to the model later (an agent loop); this host has none.',
    );
  const tasks = context.services.tasks;
  const taskId = tasks.newTaskId('monitor');
  const sessionDir = context.getAppState().sessionDir;
  claimSessionDir(sessionDir);
  const tasksDir = path.join(sessionDir, 'tasks');
  await mkdir(tasksDir, { recursive: true });
  const outputFile = path.join(tasksDir, `${taskId}.output`);

  let source: WatchSource | undefined;
  let stopping: 'stopped' | 'timeout' | undefined;
  const batcher = new EventBatcher(
    { taskId, description: options.description },
    (text, onTaken) => inbox.deliver(text, { onTaken }),
    // The session can no longer take events: nobody is listening, so the watch ends.
    () => {
      stopping ??= 'stopped';
      void source?.stop();
    },
    options.batchLimits,
  );
  const onLine = (line: string): void => batcher.push(line);
  const src = options.source;
  source =
    'command' in src
      ? await startCommandSource({
          command: src.command,
          cwd: src.cwd,
          outputFile,
          shell: options.ports.shell,
          onLine,
        })
      : startWsSource({
          url: src.ws.url,
          ...(src.ws.protocols ? { protocols: src.ws.protocols } : {}),
          network: options.ports.network,
          outputFile,
          onLine,
        });
  const running = source;

  const info: BackgroundTaskInfo = {
    id: taskId,
    kind: 'monitor',
    description: options.description,
    status: 'running',
    outputFile,
    startedAtMs: Date.now(),
  };
  setTask(context, info);

  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          stopping ??= 'timeout';
          void running.stop();
        }, options.timeoutMs);
  timer?.unref();

  const settled = running.ended.catch(
    (error: unknown): SourceEnd => ({
      outcome: 'failed',
      note: `The watch failed: ${error instanceof Error ? error.message : String(error)}`,
    }),
  );
  const ended = settled.then((end: SourceEnd) => {
    if (timer) clearTimeout(timer);
    const status: BackgroundTaskInfo['status'] = stopping ? 'killed' : end.outcome;
    setTask(context, {
      ...info,
      status,
      endedAtMs: Date.now(),
      ...(end.exitCode !== undefined ? { exitCode: end.exitCode } : {}),
    });
    if (stopping === 'stopped') batcher.discard();
    else if (stopping === 'timeout')
      batcher.end(`The watch reached its deadline of ${options.timeoutMs} ms and was stopped.`);
    else batcher.end(end.note);
  });
  tasks.register(taskId, {
    ...('command' in src ? { command: src.command } : {}),
    ended,
    stop: async () => {
      stopping ??= 'stopped';
      await running.stop();
      await ended;
    },
    killNow: () => running.killNow(),
  });
  inbox.hold(Promise.all([ended, batcher.drained]));
  return {
    taskId,
    timeoutMs: options.timeoutMs ?? null,
    persistent: options.timeoutMs === undefined,
  };
}
