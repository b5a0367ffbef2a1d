/**
 * `TaskOutput` (legacy name `BashOutput`): the new output of a background task, optionally waiting
 * for it to finish (the Claude Code tools reference; Claude Code transcripts for the result text).
 *
 * Sequence: resolve the id (`task_id`, or the legacy `bash_id`) in `AppState.tasks` (unknown →
 * error listing the running tasks) → if `block` (default true) and the task runs, wait up to
 * `timeout` ms (default 30,000) for it to end → read the output written since the previous
 * TaskOutput of this task (≤ 30,000 characters, head/errors/tail kept) → report
 * `<retrieval_status>` `success` (ended), `timeout` (still running after the wait) or `not_ready`
 * (still running, `block: false`), the task's status, exit code and the new output.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import { getOwn } from '../../core/get-own.js';
import { type BackgroundTaskInfo, buildTool, ToolInputError, type ToolUseContext } from '../../core/index.js';
import { gantryTraits } from '../../core/tool-traits.js';
import { compileLinearRegex, type LinearRegex } from '../ripgrep/linear-regex.js';
import { taskOutputDescriber } from './describe.js';
import { readNewOutput } from './read-task-output.js';
import { type TaskTypeName, taskTypeName } from './task-manager.js';

const description = readFileSync(
  fileURLToPath(new URL('./task-output.prompt.md', import.meta.url)),
  'utf8',
).trimEnd();

/** Default and longest wait, ms. */
export const TASK_OUTPUT_DEFAULT_TIMEOUT_MS = 30_000;
export const TASK_OUTPUT_MAX_TIMEOUT_MS = 600_000;
/** Characters of new output returned per read. */
export const TASK_OUTPUT_MAX_CHARS = 30_000;

export const TaskOutputInput = z
  .strictObject({
    task_id: z.string().describe('The ID of the background task to read').optional(),
    bash_id: z.string().describe('Deprecated alias of task_id (BashOutput)').optional(),
    block: z.boolean().describe('Wait for the task to finish before returning (default true)').optional(),
    timeout: z
      .number()
      .min(0)
      .max(TASK_OUTPUT_MAX_TIMEOUT_MS)
      .describe('Longest wait in milliseconds when block is true (default 30000)')
      .optional(),
    filter: z
      .string()
      .describe(
        'Optional regular expression: only output lines matching it are returned (others are consumed)',
      )
      .optional(),
  })
  .superRefine((input, ctx) => {
    if (input.task_id === undefined && input.bash_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['task_id'], message: 'task_id is required' });
    }
  });

export type TaskOutputInput = z.infer<typeof TaskOutputInput>;

export interface TaskOutputData {
  retrieval_status: 'success' | 'timeout' | 'not_ready';
  task: {
    task_id: string;
    task_type: TaskTypeName;
    status: BackgroundTaskInfo['status'];
    description: string;
    output: string;
    exitCode?: number | null;
    /** Running bash task: its shell exited with this code, processes it started still run. */
    leaderExitCode?: number | null;
    /** With `leaderExitCode`: how many of them were running when last counted. */
    processesLeft?: number;
    outputFile: string;
    /** The returned output is an excerpt of the new output. */
    truncated: boolean;
  };
}

/** The error for an unknown id: lists the tasks that are running (the Claude Code tools reference). */
export function unknownTaskError(id: string, context: ToolUseContext): ToolInputError {
  const running = Object.values(context.getAppState().tasks).filter((t) => t.status === 'running');
  const list = running.length
    ? `Running background tasks: ${running.map((t) => `${t.id} (${t.description})`).join(', ')}.`
    : 'No background tasks are running.';
  return new ToolInputError(`No task found with ID: ${id}. ${list}`, 'task_id');
}

/**
 * The sentence for a running task whose shell exited while `left` processes it started still run
 * (run-background.ts): "The command exited with code 3, but 1 process it started is still running
 * (TaskStop stops it)."
 */
export function leftoversNote(code: number | null, left: number): string {
  const exited = code === null ? 'exited (exit code unknown)' : `exited with code ${code}`;
  const what = left === 1 ? '1 process it started is' : `${left} processes it started are`;
  return `The command ${exited}, but ${what} still running (TaskStop stops ${left === 1 ? 'it' : 'them'}).`;
}

/**
 * Waits for a task this process's registry does not own (its status changes in AppState only):
 * checks every 100 ms until `ended()`, the timeout, or the abort.
 */
async function pollUntilEnded(ended: () => boolean, timeoutMs: number, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ended() && !signal.aborted && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(100, Math.max(1, deadline - Date.now()))));
  }
}

/** The model's filter (JavaScript syntax) on the linear-time engine: no pattern can stall the process. */
function compileFilter(filter: string | undefined): LinearRegex | undefined {
  if (filter === undefined) return undefined;
  return compileLinearRegex(filter, { javascript: true, field: 'filter' });
}

/** Builds the TaskOutput tool. It reaches the session's task registry through `context.services.tasks`. */
export function createTaskOutputTool() {
  return buildTool({
    name: 'TaskOutput',
    aliases: gantryTraits('TaskOutput').aliases,
    description,
    inputSchema: TaskOutputInput,
    maxResultSizeChars: TASK_OUTPUT_MAX_CHARS + 1_000,
    isReadOnly: taskOutputDescriber.isReadOnly,
    isConcurrencySafe: () => true,
    userFacingName: () => 'Task Output',
    toAutoClassifierInput: taskOutputDescriber.toAutoClassifierInput,

    async describeCall(input: TaskOutputInput, context: ToolUseContext) {
      return taskOutputDescriber.describe(input, describeWorldOf(context));
    },

    async validateInput(input: TaskOutputInput, _context?: ToolUseContext) {
      try {
        compileFilter(input.filter);
      } catch (error) {
        return { ok: false, message: (error as Error).message, field: 'filter' };
      }
      return { ok: true };
    },

    async *call(input: TaskOutputInput, context: ToolUseContext) {
      const tasks = context.services.tasks;
      const id = (input.task_id ?? input.bash_id)!;
      const filter = compileFilter(input.filter);
      if (!getOwn(context.getAppState().tasks, id)) throw unknownTaskError(id, context);
      const block = input.block ?? true;
      if (block && getOwn(context.getAppState().tasks, id)?.status === 'running') {
        const timeoutMs = input.timeout ?? TASK_OUTPUT_DEFAULT_TIMEOUT_MS;
        const signal = context.abortController.signal;
        if (tasks.has(id)) await tasks.waitForEnd(id, timeoutMs, signal);
        else
          await pollUntilEnded(
            () => getOwn(context.getAppState().tasks, id)?.status !== 'running',
            timeoutMs,
            signal,
          );
      }
      const task = getOwn(context.getAppState().tasks, id) as BackgroundTaskInfo;
      const running = task.status === 'running';
      const read = await readNewOutput({
        file: task.outputFile,
        offset: tasks.readOffset(id),
        budgetChars: TASK_OUTPUT_MAX_CHARS,
        ...(filter ? { filter } : {}),
        final: !running,
      });
      tasks.setReadOffset(id, read.nextOffset);
      const data: TaskOutputData = {
        retrieval_status: running ? (block ? 'timeout' : 'not_ready') : 'success',
        task: {
          task_id: id,
          task_type: taskTypeName(task.kind),
          status: task.status,
          description: task.description,
          output: read.text,
          ...(running ? {} : { exitCode: task.exitCode ?? null }),
          ...(running && task.leaderExitCode !== undefined
            ? { leaderExitCode: task.leaderExitCode, processesLeft: task.processesLeft ?? 0 }
            : {}),
          outputFile: task.outputFile,
          truncated: read.truncated,
        },
      };
      return { data };
    },

    mapToolResultToContent(output: TaskOutputData, _meta?: unknown) {
      const parts = [
        `<retrieval_status>${output.retrieval_status}</retrieval_status>`,
        `<task_id>${output.task.task_id}</task_id>`,
        `<task_type>${output.task.task_type}</task_type>`,
        `<status>${output.task.status}</status>`,
      ];
      if (output.task.exitCode !== undefined && output.task.exitCode !== null) {
        parts.push(`<exit_code>${output.task.exitCode}</exit_code>`);
      }
      if (output.task.leaderExitCode !== undefined) {
        parts.push(
          `<note>${leftoversNote(output.task.leaderExitCode, output.task.processesLeft ?? 0)}</note>`,
        );
      }
      if (output.task.output) {
        const note = output.task.truncated ? `\n[Full output: ${output.task.outputFile}]` : '';
        parts.push(`<output>\n${output.task.output}${note}\n</output>`);
      }
      return parts.join('\n\n');
    },
  });
}

/** The TaskOutput tool (the registry lists it). */
export const TaskOutputTool = createTaskOutputTool();
