/**
 * TodoWrite: the complete list each call, stored per agent (the main session under its session id,
 * a sub-agent under its own id), `{oldTodos, newTodos}`; and the stale-list reminder's rhythm.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, TodoItem } from '../../core/index.js';
import { createChildContext } from '../../runtime/child-context.js';
import { createToolRuntime } from '../../runtime/create-tool-runtime.js';
import { allowAllDecider } from '../../runtime/deciders.js';
import { makeTempDir, toolUse } from '../../testing/runtime-fixtures.js';
import { TODO_REMINDER_LEAD, TODO_STALE_TURNS, todoReminder } from './todo-reminder.js';
import { TodoWriteTool } from './todo-write.tool.js';

let temp: { dir: string; cleanup(): Promise<void> };
beforeEach(async () => {
  temp = await makeTempDir();
});
afterEach(async () => {
  await temp.cleanup();
});

const item = (content: string, status: TodoItem['status'] = 'pending'): TodoItem => ({
  content,
  status,
  activeForm: `Doing ${content}`,
});

describe('TodoWrite', () => {
  it('replaces the list, returns old and new, and keeps each agent its own list', async () => {
    const runtime = createToolRuntime({
      tools: [TodoWriteTool],
      cwd: temp.dir,
      sessionId: 'main-session',
      sessionDir: temp.dir,
      decide: allowAllDecider,
    });
    const first = await runtime.runToolsToCompletion([toolUse('a', 'TodoWrite', { todos: [item('one')] })]);
    expect(first.calls[0]?.data).toEqual({ oldTodos: [], newTodos: [item('one')] });
    const second = await runtime.runToolsToCompletion([
      toolUse('b', 'TodoWrite', { todos: [item('one', 'in_progress'), item('two')] }),
    ]);
    expect(second.calls[0]?.data).toEqual({
      oldTodos: [item('one')],
      newTodos: [item('one', 'in_progress'), item('two')],
    });
    const child = createChildContext(runtime.context, { agentId: 'agent-7', tools: [TodoWriteTool] });
    await runtime.runToolsToCompletion([toolUse('c', 'TodoWrite', { todos: [item('sub')] })], {
      context: child,
    });
    child.dispose();
    expect(runtime.getAppState().todos).toEqual({
      'main-session': [item('one', 'in_progress'), item('two')],
      'agent-7': [item('sub')],
    });
    await runtime.services.dispose();
  });

  it('a list that is all completed is stored as empty, while newTodos echoes it', async () => {
    const runtime = createToolRuntime({
      tools: [TodoWriteTool],
      cwd: temp.dir,
      sessionId: 's',
      decide: allowAllDecider,
      sessionDir: temp.dir,
    });
    const r = await runtime.runToolsToCompletion([
      toolUse('a', 'TodoWrite', { todos: [item('x', 'completed')] }),
    ]);
    expect(r.calls[0]?.data).toMatchObject({ newTodos: [item('x', 'completed')] });
    expect(runtime.getAppState().todos?.s).toEqual([]);
    await runtime.services.dispose();
  });

  it.each([
    [{ todos: [{ content: 'x', status: 'done', activeForm: 'x' }] }, 'status', 'an unknown status'],
    [{ todos: [{ content: 'x', status: 'pending' }] }, 'activeForm', 'a missing activeForm'],
  ])('rejects %j (mentions %s; %s)', async (input, phrase, _reason) => {
    const runtime = createToolRuntime({
      tools: [TodoWriteTool],
      cwd: temp.dir,
      decide: allowAllDecider,
      sessionDir: temp.dir,
    });
    const { results } = await runtime.runToolsToCompletion([toolUse('a', 'TodoWrite', input)]);
    expect(results[0]?.is_error).toBe(true);
    expect(results[0]?.content).toContain(phrase);
    await runtime.services.dispose();
  });
});

describe('the stale-list reminder', () => {
  const assistant = (blocks: unknown[] = [{ type: 'text', text: 'working' }]): Message =>
    ({ role: 'assistant', content: blocks }) as Message;
  const user = (text = 'ok'): Message => ({ role: 'user', content: text });
  const conversation = (turns: number, start: Message[] = []): Message[] => {
    const out = [...start];
    for (let i = 0; i < turns; i++) out.push(assistant(), user());
    return out;
  };
  const state = (todos?: Record<string, TodoItem[]>) =>
    ({ sessionId: 'main', todos }) as unknown as Parameters<typeof todoReminder>[0]['appState'];

  it.each([
    [TODO_STALE_TURNS - 1, false, 'one turn short of stale: nothing'],
    [TODO_STALE_TURNS, true, 'stale: a reminder'],
  ])('after %i assistant turns without TodoWrite → reminder: %s (%s)', (turns, due, _reason) => {
    const text = todoReminder({ messages: conversation(turns, [user('start')]), appState: state() });
    expect(text !== undefined).toBe(due);
  });

  it('counts from the last TodoWrite call, and from its own last reminder', () => {
    const afterCall = conversation(TODO_STALE_TURNS - 1, [
      user('start'),
      assistant([{ type: 'tool_use', id: 't', name: 'TodoWrite', input: {} }]),
      user(),
    ]);
    expect(todoReminder({ messages: afterCall, appState: state() })).toBeUndefined();
    const afterReminder = conversation(TODO_STALE_TURNS - 1, [
      ...conversation(TODO_STALE_TURNS, [user('start')]),
      {
        role: 'user',
        content: [{ type: 'text', text: `<system-reminder>\n${TODO_REMINDER_LEAD}\n</system-reminder>` }],
      },
    ]);
    expect(todoReminder({ messages: afterReminder, appState: state() })).toBeUndefined();
  });

  it("restates the asking agent's own list", () => {
    const text = todoReminder({
      messages: conversation(TODO_STALE_TURNS),
      appState: state({ main: [item('main step')], 'agent-1': [item('agent step', 'in_progress')] }),
      agentId: 'agent-1',
    });
    expect(text).toContain('1. [in_progress] agent step');
    expect(text).not.toContain('main step');
  });
});
