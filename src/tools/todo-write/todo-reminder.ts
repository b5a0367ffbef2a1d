/**
 * The stale-list reminder of TodoWrite: when the model has gone a while without updating its to-do
 * list, the loop attaches a short `<system-reminder>` to the next request (core/reminders.ts).
 *
 * Rhythm (counted in assistant turns of the conversation being sent, so a resumed session gets the
 * same reminders): a reminder is due when at least {@link TODO_STALE_TURNS} assistant turns passed
 * since the last TodoWrite call and since the last such reminder. Only for agents that have the
 * tool; the current list, when there is one, is restated so the model need not scroll back.
 */
import type { ReminderView } from '../../core/reminders.js';
import type { Message, TodoItem } from '../../core/index.js';

/** Assistant turns without a TodoWrite call before the model is reminded. */
export const TODO_STALE_TURNS = 10;

/** The first line of the reminder; also how an earlier reminder is recognised in the conversation. */
export const TODO_REMINDER_LEAD = 'Reminder: the TodoWrite tool has not been used for a while.';

function blocksOf(message: Message): readonly unknown[] {
  return Array.isArray(message.content) ? message.content : [];
}

function isTodoWriteCall(block: unknown): boolean {
  const b = block as { type?: unknown; name?: unknown };
  return b?.type === 'tool_use' && b.name === 'TodoWrite';
}

function mentionsReminder(message: Message): boolean {
  if (typeof message.content === 'string') return message.content.includes(TODO_REMINDER_LEAD);
  return blocksOf(message).some((block) => {
    const b = block as { type?: unknown; text?: unknown };
    return b?.type === 'text' && typeof b.text === 'string' && b.text.includes(TODO_REMINDER_LEAD);
  });
}

/** Assistant turns since the last TodoWrite call or the last reminder (whichever came later). */
export function turnsSinceTodoActivity(messages: readonly Message[]): number {
  let turns = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'assistant') {
      if (blocksOf(message).some(isTodoWriteCall)) return turns;
      turns++;
    } else if (mentionsReminder(message)) {
      return turns;
    }
  }
  return turns;
}

function listText(todos: readonly TodoItem[]): string {
  return todos.map((t, i) => `${i + 1}. [${t.status}] ${t.content}`).join('\n');
}

/** The reminder text when one is due for this view, else undefined. */
export function todoReminder(view: ReminderView): string | undefined {
  if (turnsSinceTodoActivity(view.messages) < TODO_STALE_TURNS) return undefined;
  const key = view.agentId ?? view.appState.sessionId;
  const todos = view.appState.todos?.[key] ?? [];
  const lines = [
    TODO_REMINDER_LEAD,
    'If the current work has several steps, use it to record them and to mark progress; if the list is finished or no longer fits, update or clear it. Ignore this reminder when it does not apply, and do not mention it to the user.',
  ];
  if (todos.length > 0) lines.push('', 'The current list:', listText(todos));
  return lines.join('\n');
}
