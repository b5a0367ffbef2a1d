/**
 * `TaskGet`: one task of the session's task list, in full. Output
 * `{task: {id, subject, description, status, blocks, blockedBy, activeForm?, owner?, metadata?} | null}`
 * (null for an id that does not exist).
 */
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import { buildTool, type ToolUseContext } from '../../core/index.js';
import { taskGetDescriber } from './describe.js';
import { taskListDir } from './task-context.js';
import { findTask, loadTaskList, type TaskRecord } from './task-store.js';

export const TaskGetInput = z.strictObject({
  taskId: z.string().min(1).describe('The id of the task'),
});
export type TaskGetInput = z.infer<typeof TaskGetInput>;

export interface TaskGetOutput {
  task: TaskRecord | null;
}

function render(output: TaskGetOutput, id: string): string {
  const t = output.task;
  if (!t) return `Task #${id} not found.`;
  const lines = [`Task #${t.id}: ${t.subject}`, `Status: ${t.status}`];
  if (t.owner) lines.push(`Owner: ${t.owner}`);
  lines.push(`Description: ${t.description}`);
  if (t.blockedBy.length) lines.push(`Blocked by: ${t.blockedBy.map((x) => `#${x}`).join(', ')}`);
  if (t.blocks.length) lines.push(`Blocks: ${t.blocks.map((x) => `#${x}`).join(', ')}`);
  return lines.join('\n');
}

export const TaskGetTool = buildTool({
  name: 'TaskGet',
  description:
    "Get one task of this session's task list by id: its subject, description, status, owner and " +
    'dependencies (the tasks it blocks and the tasks it waits for).',
  inputSchema: TaskGetInput,
  maxResultSizeChars: 20_000,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  userFacingName: () => 'Get Task',
  toAutoClassifierInput: taskGetDescriber.toAutoClassifierInput,
  async describeCall(input: TaskGetInput, context: ToolUseContext) {
    return taskGetDescriber.describe(input, describeWorldOf(context));
  },
  async *call(input: TaskGetInput, context: ToolUseContext) {
    const list = await loadTaskList(taskListDir(context));
    const task = findTask(list, input.taskId);
    return { data: { task: task ? structuredClone(task) : null } satisfies TaskGetOutput };
  },
  mapToolResultToContent: (output: TaskGetOutput, meta) =>
    render(output, String((meta?.input as { taskId?: unknown } | undefined)?.taskId ?? '')),
});
