/**
 * `TaskUpdate`: changes one task of the session's task list.
 *
 * Sequence: load the list → apply the fields in order (subject, description, activeForm, owner,
 * metadata — keys merged, a `null` value deletes the key —, addBlocks, addBlockedBy, status) on a
 * copy → any refusal (unknown task, self or cyclic dependency) → `{success: false, error}` and
 * nothing is saved → save → when the status became `completed`, fire `TaskCompleted`; a hook that
 * blocks puts the previous list back and the result says why. `status: "deleted"` removes the task
 * and every dependency on it.
 *
 * Output `{success, taskId, updatedFields, error?, statusChange?: {from, to}}` (Claude Code's shape).
 */
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import { buildTool, type ToolUseContext } from '../../core/index.js';
import { taskUpdateDescriber } from './describe.js';
import { fireTaskHook, taskListDir } from './task-context.js';
import {
  addDependency,
  cloneList,
  findTask,
  loadTaskList,
  removeTask,
  saveTaskList,
  type TaskListFile,
  type TaskRecord,
  withTaskList,
} from './task-store.js';

export const TaskUpdateInput = z.strictObject({
  taskId: z.string().min(1).describe('The id of the task to change'),
  subject: z.string().min(1).optional().describe('New subject'),
  description: z.string().optional().describe('New description'),
  activeForm: z.string().optional().describe('New present-continuous label'),
  status: z
    .enum(['pending', 'in_progress', 'completed', 'deleted'])
    .optional()
    .describe('New status; `deleted` removes the task'),
  addBlocks: z
    .array(z.string())
    .optional()
    .describe('Ids of tasks that cannot start until this one is completed'),
  addBlockedBy: z.array(z.string()).optional().describe('Ids of tasks this one must wait for'),
  owner: z.string().optional().describe('Who works on the task (an agent name)'),
  metadata: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("Keys to merge into the task's metadata; a null value deletes that key"),
});
export type TaskUpdateInput = z.infer<typeof TaskUpdateInput>;

export interface TaskUpdateOutput {
  success: boolean;
  taskId: string;
  updatedFields: string[];
  error?: string;
  statusChange?: { from: string; to: string };
}

type Applied = { ok: true; fields: string[]; from: string; to: string } | { ok: false; error: string };

function apply(list: TaskListFile, task: TaskRecord, input: TaskUpdateInput): Applied {
  const fields: string[] = [];
  const from = task.status;
  if (input.subject !== undefined && input.subject !== task.subject) {
    task.subject = input.subject;
    fields.push('subject');
  }
  if (input.description !== undefined && input.description !== task.description) {
    task.description = input.description;
    fields.push('description');
  }
  if (input.activeForm !== undefined && input.activeForm !== task.activeForm) {
    task.activeForm = input.activeForm;
    fields.push('activeForm');
  }
  if (input.owner !== undefined && input.owner !== task.owner) {
    if (input.owner === '') delete task.owner;
    else task.owner = input.owner;
    fields.push('owner');
  }
  if (input.metadata !== undefined) {
    const merged: Record<string, unknown> = { ...task.metadata };
    for (const [key, value] of Object.entries(input.metadata)) {
      if (value === null) delete merged[key];
      else merged[key] = value;
    }
    if (Object.keys(merged).length) task.metadata = merged;
    else delete task.metadata;
    fields.push('metadata');
  }
  for (const other of input.addBlocks ?? []) {
    const error = addDependency(list, task.id, other);
    if (error) return { ok: false, error };
  }
  if (input.addBlocks?.length) fields.push('blocks');
  for (const other of input.addBlockedBy ?? []) {
    const error = addDependency(list, other, task.id);
    if (error) return { ok: false, error };
  }
  if (input.addBlockedBy?.length) fields.push('blockedBy');
  let to: string = from;
  if (input.status !== undefined && input.status !== from) {
    to = input.status;
    if (input.status === 'deleted') removeTask(list, task.id);
    else task.status = input.status;
    fields.push('status');
  }
  return { ok: true, fields, from, to };
}

export const TaskUpdateTool = buildTool({
  name: 'TaskUpdate',
  description:
    "Change a task of this session's task list: set its status (pending, in_progress, completed, or " +
    'deleted to remove it), subject, description, owner or metadata (keys are merged; null deletes a ' +
    'key), and add dependencies (addBlocks: tasks that wait for this one; addBlockedBy: tasks this one ' +
    'waits for). Mark a task in_progress when you start it and completed only when it is fully done.',
  inputSchema: TaskUpdateInput,
  maxResultSizeChars: 10_000,
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  userFacingName: () => 'Update Task',
  toAutoClassifierInput: taskUpdateDescriber.toAutoClassifierInput,
  async describeCall(input: TaskUpdateInput, context: ToolUseContext) {
    return taskUpdateDescriber.describe(input, describeWorldOf(context));
  },
  async *call(input: TaskUpdateInput, context: ToolUseContext) {
    const dir = taskListDir(context);
    const fail = (error: string): { data: TaskUpdateOutput } => ({
      data: { success: false, taskId: input.taskId, updatedFields: [], error },
    });
    const step = await withTaskList(dir, async () => {
      const before = await loadTaskList(dir);
      const list = cloneList(before);
      const task = findTask(list, input.taskId);
      if (!task) return { applied: { ok: false, error: `Task #${input.taskId} not found.` } as Applied };
      const applied = apply(list, task, input);
      if (applied.ok && applied.fields.length) await saveTaskList(dir, list);
      return { applied, before, task };
    });
    const { applied } = step;
    if (!applied.ok) return fail(applied.error);
    if (applied.to === 'completed' && applied.from !== 'completed' && step.task) {
      const blocked = await fireTaskHook('TaskCompleted', step.task, context);
      if (blocked !== undefined) {
        await withTaskList(dir, async () => {
          const current = await loadTaskList(dir);
          const touched = new Set([input.taskId, ...(input.addBlocks ?? []), ...(input.addBlockedBy ?? [])]);
          current.tasks = current.tasks.map((t) => {
            const previous = touched.has(t.id) ? findTask(step.before!, t.id) : undefined;
            return previous ? structuredClone(previous) : t;
          });
          await saveTaskList(dir, current);
        });
        return fail(
          `A TaskCompleted hook kept task #${input.taskId} from being completed, and the update was undone: ${blocked}`,
        );
      }
    }
    const data: TaskUpdateOutput = {
      success: true,
      taskId: input.taskId,
      updatedFields: applied.fields,
      ...(applied.from !== applied.to ? { statusChange: { from: applied.from, to: applied.to } } : {}),
    };
    return { data };
  },
  mapToolResultToContent: (output: TaskUpdateOutput) =>
    output.success
      ? output.updatedFields.length
        ? `Updated task #${output.taskId}: ${output.updatedFields.join(', ')}`
        : `Task #${output.taskId} was already as requested; nothing changed.`
      : `Task #${output.taskId} was not updated: ${output.error}`,
});
