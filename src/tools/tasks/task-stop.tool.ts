/**
 * `TaskStop` (legacy name `KillShell`): stops a running background task (the Claude Code tools reference).
 *
 * Sequence: resolve the id (`task_id`, or the legacy `shell_id`) in `AppState.tasks` (unknown →
 * error listing the running tasks; already ended → error saying how it ended) → stop it through the
 * task registry (bash: SIGTERM to its process group, SIGKILL after the grace period) and wait until
 * it has ended → `{message, task_id, task_type, command}`. A bash task whose shell had already
 * exited while processes it started still ran is running (run-background.ts): stopping it stops
 * those processes, and the message says so.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import { getOwn } from '../../core/get-own.js';
import {
  type BackgroundTaskInfo,
  buildTool,
  ToolExecutionError,
  ToolInputError,
  type ToolUseContext,
} from '../../core/index.js';
import { gantryTraits } from '../../core/tool-traits.js';
import { taskStopDescriber } from './describe.js';
import { type TaskTypeName, taskTypeName } from './task-manager.js';
import { unknownTaskError } from './task-output.tool.js';

const description = readFileSync(
  fileURLToPath(new URL('./task-stop.prompt.md', import.meta.url)),
  'utf8',
).trimEnd();

export const TaskStopInput = z
  .strictObject({
    task_id: z.string().describe('The ID of the background task to stop').optional(),
    shell_id: z.string().describe('Deprecated alias of task_id (KillShell)').optional(),
  })
  .superRefine((input, ctx) => {
    if (input.task_id === undefined && input.shell_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['task_id'], message: 'task_id is required' });
    }
  });

export type TaskStopInput = z.infer<typeof TaskStopInput>;

export interface TaskStopData {
  message: string;
  task_id: string;
  task_type: TaskTypeName;
  command?: string;
}

/**
 * For a bash task whose shell had exited while processes it started still ran (run-background.ts):
 * `; the command had exited with code 3, its 2 remaining processes were stopped`. Empty otherwise.
 */
function leftoversStopped(task: BackgroundTaskInfo): string {
  if (task.leaderExitCode === undefined) return '';
  const code = task.leaderExitCode === null ? '(exit code unknown)' : `with code ${task.leaderExitCode}`;
  const left = task.processesLeft ?? 0;
  const what = left === 1 ? 'its 1 remaining process was' : `its ${left} remaining processes were`;
  return `; the command had exited ${code}, ${what} stopped`;
}

/** Builds the TaskStop tool. It reaches the session's task registry through `context.services.tasks`. */
export function createTaskStopTool() {
  return buildTool({
    name: 'TaskStop',
    aliases: gantryTraits('TaskStop').aliases,
    // Used in few sessions: listed by name only behind tool search (docs/mcp-client.md).
    shouldDefer: true,
    description,
    inputSchema: TaskStopInput,
    maxResultSizeChars: 10_000,
    userFacingName: () => 'Stop Task',
    toAutoClassifierInput: taskStopDescriber.toAutoClassifierInput,

    async describeCall(input: TaskStopInput, context: ToolUseContext) {
      return taskStopDescriber.describe(input, describeWorldOf(context));
    },

    async *call(input: TaskStopInput, context: ToolUseContext) {
      const tasks = context.services.tasks;
      const id = (input.task_id ?? input.shell_id)!;
      const task = getOwn(context.getAppState().tasks, id);
      if (!task) throw unknownTaskError(id, context);
      if (task.status !== 'running') {
        throw new ToolInputError(
          `Task ${id} is not running (status: ${task.status}${task.exitCode != null ? `, exit code ${task.exitCode}` : ''}). Nothing to stop.`,
          'task_id',
        );
      }
      const command = tasks.command(id);
      if (!(await tasks.stop(id, 'model'))) {
        throw new ToolExecutionError(
          `Task ${id} cannot be stopped from this process: it is not registered with the task manager.`,
        );
      }
      const data: TaskStopData = {
        message: `Successfully stopped task: ${id}${command ? ` (${command})` : ''}${leftoversStopped(task)}`,
        task_id: id,
        task_type: taskTypeName(task.kind),
        ...(command ? { command } : {}),
      };
      return { data };
    },

    mapToolResultToContent: (output: TaskStopData, _meta?: unknown) => output.message,
  });
}

/** The TaskStop tool (the registry lists it). */
export const TaskStopTool = createTaskStopTool();
