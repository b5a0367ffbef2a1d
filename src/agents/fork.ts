/**
 * Forks: a sub-agent that continues from its parent's own context, so its requests share the
 * parent's prompt cache. Its request is built from
 *
 * - the parent's system blocks as rendered at the start of the session (never re-rendered),
 * - the parent's exact tool list and definitions (no filtering, same order, same bytes),
 * - the parent's conversation up to and including the assistant message that called Agent, with
 *   all its blocks (every tool_use, thinking, text),
 * - one user message: a `tool_result` with the same fixed placeholder for every tool_use of that
 *   message, then the directive.
 *
 * Two forks of the same turn therefore send requests that are byte-identical up to the directive
 * text (bench/agents.bench.ts measures it). The fork's loop keeps a cache breakpoint on the last
 * placeholder (`ResumedSession.sharedPrefix`), so the first fork writes that shared prefix and the
 * others read it (docs/agent-wire.md, "Cache breakpoints").
 */
import type { AssistantMessage, Message, UserContentBlock } from '../core/index.js';

/** The text every tool_result of the forking message gets in a fork. */
export const FORK_PLACEHOLDER_RESULT = 'Forked: runs in the background.';

/** The directive block: fixed rules, then the fork's own task. */
export function forkDirectiveText(prompt: string): string {
  return [
    '<fork>You are a fork of the agent above, sharing its context; the tool results of its last',
    'message are placeholders. Do only the directive, without forking again, then reply with a short',
    'report for that agent.</fork>',
    `Your directive: ${prompt}`,
  ].join('\n');
}

/** The index of the assistant message holding `toolUseId`, or -1. */
export function forkingMessageIndex(messages: readonly Message[], toolUseId: string): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'assistant' || !Array.isArray(m.content)) continue;
    if (m.content.some((b) => b.type === 'tool_use' && b.id === toolUseId)) return i;
  }
  return -1;
}

/**
 * The fork's conversation without the directive (the directive is the fork's prompt, which the
 * loop appends to the last user message). Undefined when the forking message is not there.
 */
export function buildForkMessages(messages: readonly Message[], toolUseId: string): Message[] | undefined {
  const index = forkingMessageIndex(messages, toolUseId);
  if (index < 0) return undefined;
  const assistant = messages[index] as AssistantMessage;
  const results: UserContentBlock[] = [];
  for (const block of assistant.content) {
    if (block.type !== 'tool_use') continue;
    results.push({
      type: 'tool_result',
      tool_use_id: block.id,
      content: [{ type: 'text', text: FORK_PLACEHOLDER_RESULT }],
    });
  }
  return [...messages.slice(0, index + 1), { role: 'user', content: results }];
}

/**
 * Waits until the parent's conversation holds the assistant message that called `toolUseId` (a
 * tool starts while the model still streams the rest of its message), polling every `intervalMs`.
 */
export async function waitForForkingMessage(
  messages: () => readonly Message[],
  toolUseId: string,
  signal: AbortSignal,
  options: { intervalMs?: number; timeoutMs?: number } = {},
): Promise<Message[] | undefined> {
  const interval = options.intervalMs ?? 5;
  const deadline = Date.now() + (options.timeoutMs ?? 10 * 60_000);
  for (;;) {
    const built = buildForkMessages(messages(), toolUseId);
    if (built) return built;
    if (signal.aborted || Date.now() > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
