/**
 * `TaskCreate`: adds a task to the session's task list (task-store.ts) and fires the `TaskCreated`
 * hooks. A hook that blocks (exit 2, or `decision: "block"`) undoes the creation: the task is
 * removed again and the model is told why.
 *
 * Output `{task: {id, subject}}` (Claude Code's shape).
 */
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import { buildTool, ToolExecutionError, type ToolUseContext } from '../../core/index.js';
import { taskCreateDescriber } from './describe.js';
import { fireTaskHook, taskListDir } from './task-context.js';
import {
  findTask,
  loadTaskList,
  removeTask,
  saveTaskList,
  type TaskRecord,
  withTaskList,
} from './task-store.js';

export const TaskCreateInput = z.strictObject({
  subject: z.string().min(1).describe('A short title for the task, in the imperative ("Add the login form")'),
  description: z.string().describe('What needs to be done, with enough detail to do it later'),
  activeForm: z
    .string()
    .optional()
    .describe('The task in the present continuous, shown while it is in progress ("Adding the login form")'),
  metadata: z.record(z.string(), z.unknown()).optional().describe('Extra data to keep with the task'),
});
export type TaskCreateInput = z.infer<typeof TaskCreateInput>;

export interface TaskCreateOutput {
  task: { id: string; subject: string };
}

export const TaskCreateTool = buildTool({
  name: 'TaskCreate',
  description:
    'Create a task in the task list of this session. Use it to plan work of several steps and to track ' +
    'progress: one task per step, with a short imperative subject and a description detailed enough to ' +
    'act on later. New tasks start as pending; use TaskUpdate to start, finish or link them.',
  inputSchema: TaskCreateInput,
  maxResultSizeChars: 10_000,
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  userFacingName: () => 'Create Task',
  toAutoClassifierInput: taskCreateDescriber.toAutoClassifierInput,
  async describeCall(input: TaskCreateInput, context: ToolUseContext) {
    return taskCreateDescriber.describe(input, describeWorldOf(context));
  },
  async *call(input: TaskCreateInput, context: ToolUseContext) {
    const dir = taskListDir(context);
    const task = await withTaskList(dir, async () => {
      const list = await loadTaskList(dir);
      const record: TaskRecord = {
        id: String(list.nextId),
        subject: input.subject,
        description: input.description,
        ...(input.activeForm ? { activeForm: input.activeForm } : {}),
        status: 'pending',
        blocks: [],
        blockedBy: [],
        ...(input.metadata ? { metadata: input.metadata } : {}),
      };
      list.nextId += 1;
      list.tasks.push(record);
      await saveTaskList(dir, list);
      return record;
    });
    const blocked = await fireTaskHook('TaskCreated', task, context);
    if (blocked !== undefined) {
      await withTaskList(dir, async () => {
        const list = await loadTaskList(dir);
        if (findTask(list, task.id)) {
          removeTask(list, task.id);
          await saveTaskList(dir, list);
        }
      });
      throw new ToolExecutionError(`A TaskCreated hook blocked the task, so it was not created: ${blocked}`);
    }
    return { data: { task: { id: task.id, subject: task.subject } } satisfies TaskCreateOutput };
  },
  mapToolResultToContent: (output: TaskCreateOutput) =>
    `Task #${output.task.id} created successfully: ${output.task.subject}`,
});
