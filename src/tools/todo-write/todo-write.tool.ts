/**
 * `TodoWrite`: replaces the calling agent's to-do list with the complete list it is given.
 *
 * Storage: `AppState.todos[agentId ?? sessionId]`, written through `setAppStateForTasks` so the
 * host sees every agent's list (the main session under its session id, each sub-agent under its
 * own id). Output `{oldTodos, newTodos}`; a list whose items are all completed is stored as empty
 * (the work is done), while `newTodos` still echoes what was sent. "Exactly one item in progress"
 * is guidance for the model, not validated. Reminders: see todo-reminder.ts.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import { buildTool, type TodoItem, type ToolUseContext } from '../../core/index.js';
import { todoWriteDescriber } from './describe.js';
import { todoReminder } from './todo-reminder.js';

const description = readFileSync(
  fileURLToPath(new URL('./todo-write.prompt.md', import.meta.url)),
  'utf8',
).trimEnd();

const TodoItemSchema = z.strictObject({
  content: z.string().min(1).describe('The step, in the imperative ("Run the tests")'),
  status: z.enum(['pending', 'in_progress', 'completed']),
  activeForm: z.string().min(1).describe('The step in the present continuous ("Running the tests")'),
});

export const TodoWriteInput = z.strictObject({
  todos: z.array(TodoItemSchema).describe('The complete, updated to-do list'),
});
export type TodoWriteInput = z.infer<typeof TodoWriteInput>;

export interface TodoWriteOutput {
  oldTodos: TodoItem[];
  newTodos: TodoItem[];
}

/** The key an agent's list is stored under. */
export function todoKey(context: Pick<ToolUseContext, 'agentId' | 'getAppState'>): string {
  return context.agentId ?? context.getAppState().sessionId;
}

export const TodoWriteTool = buildTool({
  name: 'TodoWrite',
  description,
  inputSchema: TodoWriteInput,
  maxResultSizeChars: 10_000,
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  userFacingName: () => 'Update Todos',
  toAutoClassifierInput: todoWriteDescriber.toAutoClassifierInput,
  reminders: { beforeRequest: todoReminder },
  async describeCall(input: TodoWriteInput, context: ToolUseContext) {
    return todoWriteDescriber.describe(input, describeWorldOf(context));
  },
  async *call(input: TodoWriteInput, context: ToolUseContext) {
    const key = todoKey(context);
    const oldTodos = [...(context.getAppState().todos?.[key] ?? [])];
    const newTodos: TodoItem[] = input.todos.map((t) => ({ ...t }));
    const stored = newTodos.every((t) => t.status === 'completed') ? [] : newTodos;
    context.setAppStateForTasks((prev) => ({ ...prev, todos: { ...prev.todos, [key]: stored } }));
    return { data: { oldTodos, newTodos } satisfies TodoWriteOutput };
  },
  mapToolResultToContent: () =>
    'The to-do list was updated. Keep working through it, and keep it current as you go.',
});
