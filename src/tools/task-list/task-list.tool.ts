/**
 * `TaskList`: the session's tasks in id order. Output `{tasks: [{id, subject, status, owner?,
 * blockedBy}]}` where `blockedBy` lists only the blockers not completed yet (what still holds the
 * task back).
 */
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import { buildTool, type ToolUseContext } from '../../core/index.js';
import { taskListDescriber } from './describe.js';
import { taskListDir } from './task-context.js';
import { loadTaskList, openBlockers, type TaskStatus } from './task-store.js';

export const TaskListInput = z.strictObject({});
export type TaskListInput = z.infer<typeof TaskListInput>;

export interface TaskListEntry {
  id: string;
  subject: string;
  status: TaskStatus;
  owner?: string;
  blockedBy: string[];
}
export interface TaskListOutput {
  tasks: TaskListEntry[];
}

export const TaskListTool = buildTool({
  name: 'TaskList',
  description:
    "List the tasks of this session's task list: id, subject, status, owner, and the unfinished tasks " +
    'each one waits for. Use it to pick the next task to work on (a pending task nothing blocks).',
  inputSchema: TaskListInput,
  maxResultSizeChars: 50_000,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  userFacingName: () => 'List Tasks',
  toAutoClassifierInput: taskListDescriber.toAutoClassifierInput,
  async describeCall(input: TaskListInput, context: ToolUseContext) {
    return taskListDescriber.describe(input, describeWorldOf(context));
  },
  async *call(_input: TaskListInput, context: ToolUseContext) {
    const list = await loadTaskList(taskListDir(context));
    const tasks = list.tasks.map(
      (t): TaskListEntry => ({
        id: t.id,
        subject: t.subject,
        status: t.status,
        ...(t.owner ? { owner: t.owner } : {}),
        blockedBy: openBlockers(list, t),
      }),
    );
    return { data: { tasks } satisfies TaskListOutput };
  },
  mapToolResultToContent: (output: TaskListOutput) =>
    output.tasks.length === 0
      ? 'No tasks found.'
      : output.tasks
          .map(
            (t) =>
              `#${t.id} [${t.status}] ${t.subject}${t.owner ? ` (${t.owner})` : ''}${
                t.blockedBy.length ? ` [blocked by ${t.blockedBy.map((x) => `#${x}`).join(', ')}]` : ''
              }`,
          )
          .join('\n'),
});
