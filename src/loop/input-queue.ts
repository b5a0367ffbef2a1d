/**
 * `createInputQueue()`: a push-based async iterable of user messages, for hosts that feed a
 * session as input arrives (the TUI's prompt line, the CLI's stream-json stdin). Unbounded by
 * design (a person types slowly); `pending` tells a host how much is waiting.
 */
import type { UserContentBlock } from '../core/messages.js';
import type { InputQueue, UserInputMessage } from './types.js';

/** A string or content blocks as an SDK user message. */
export function toUserInputMessage(input: UserInputMessage | string | UserContentBlock[]): UserInputMessage {
  if (typeof input === 'string' || Array.isArray(input)) {
    return { type: 'user', message: { role: 'user', content: input }, parent_tool_use_id: null };
  }
  return input;
}

export function createInputQueue(): InputQueue {
  const items: UserInputMessage[] = [];
  const waiters: ((r: IteratorResult<UserInputMessage>) => void)[] = [];
  let closed = false;
  return {
    push(message) {
      if (closed) throw new Error('InputQueue: push() after close()');
      const m = toUserInputMessage(message);
      const w = waiters.shift();
      if (w) w({ value: m, done: false });
      else items.push(m);
    },
    close() {
      closed = true;
      for (const w of waiters.splice(0)) w({ value: undefined, done: true });
    },
    get closed() {
      return closed;
    },
    get pending() {
      return items.length;
    },
    [Symbol.asyncIterator](): AsyncIterator<UserInputMessage> {
      return {
        next: () => {
          const item = items.shift();
          if (item) return Promise.resolve({ value: item, done: false });
          if (closed) return Promise.resolve({ value: undefined, done: true });
          return new Promise((resolve) => waiters.push(resolve));
        },
        return: () => {
          closed = true;
          return Promise.resolve({ value: undefined, done: true });
        },
      };
    },
  };
}
