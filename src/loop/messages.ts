/**
 * How the loop grows its conversation, one rule shared with the transcript reader so a session
 * restored from its file is the same conversation to the byte:
 *
 * - A user "part" (a prompt, a tool result, a text the loop adds) appended after an assistant
 *   message starts a new user message with the part's content as given (a string stays a string).
 * - A part appended after a user message joins it: both contents become block lists (a string is a
 *   `text` block) and are concatenated.
 * - An assistant response is one message; a later response is another message.
 */
import type { AssistantMessage, Message, UserContentBlock } from '../core/messages.js';

export type UserPart = string | UserContentBlock[];

/** A user content value as blocks (a string becomes one text block). */
export function toBlocks(content: UserPart): UserContentBlock[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** Appends a user part to `messages` in place (see the module rule). */
export function appendUserPart(messages: Message[], part: UserPart): void {
  const last = messages[messages.length - 1];
  if (last?.role === 'user') {
    messages[messages.length - 1] = { role: 'user', content: [...toBlocks(last.content), ...toBlocks(part)] };
  } else {
    messages.push({ role: 'user', content: typeof part === 'string' ? part : [...part] });
  }
}

export function appendAssistant(messages: Message[], message: AssistantMessage): void {
  messages.push({ role: 'assistant', content: [...message.content] });
}

/** Text of an assistant message's text blocks, joined by blank lines (the `result` text). */
export function assistantText(message: AssistantMessage | undefined): string {
  if (!message) return '';
  return message.content
    .filter((b) => b.type === 'text')
    .map((b) => (b as { text: string }).text)
    .join('\n\n');
}
