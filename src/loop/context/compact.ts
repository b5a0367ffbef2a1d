/**
 * Auto-compaction (docs/loop.md, "Context management"): when a request would come near the model's
 * context window, the older part of the conversation is replaced by a summary the model writes.
 *
 * 1. Cut: keep the most recent `keepRecentPrompts` prompts with everything after them, when that
 *    tail fits in a quarter of the window; otherwise keep the tail from the latest assistant
 *    message that fits (a tail may start with an assistant message: the summary is the user
 *    message before it, so every tool_use still meets its tool_result). No cut → no compaction.
 * 2. Summarise the part before the cut through the same model, with the same system blocks and
 *    tools (so the request reuses the cached prefix) and a closing instruction; tool calls in the
 *    answer are ignored.
 * 3. The new conversation: one user message with the session-context block (date, git snapshot)
 *    of the original first message, the summary, and the open todos of the last TodoWrite call
 *    (quoted, so open tasks survive), followed by the kept tail.
 */
import type { TextBlock } from '../../core/content.js';
import type { Message, SystemBlock, Usage } from '../../core/messages.js';
import type { ModelClient, ModelRequest, ModelToolDefinition } from '../../core/model-client.js';
import { appendUserPart, toBlocks } from '../messages.js';

/** The instruction that closes the summary request (Gantry's own wording). */
export const COMPACT_INSTRUCTION = `The conversation so far is about to be replaced by a summary so the work can go on in a fresh context. Write that summary now, for the agent that will continue. Do not call any tools; answer with the summary text only.

Cover, in this order:
1. What the user asked for, quoting any exact instructions or constraints they gave.
2. What has been done: files read or changed (with paths), commands run and what they showed, errors hit and how they were resolved.
3. Facts the work depends on: names of files, functions, settings, versions, test names.
4. Decisions taken and why.
5. What is still open, and the very next step.

Be specific and complete; leave out pleasantries and anything that no longer matters.`;

/** The lead-in of the summary message that starts a compacted conversation. */
export const SUMMARY_LEAD =
  'This session was compacted: the earlier conversation is replaced by the summary below, written when the context filled up. Continue from it; the most recent messages follow unchanged.';

export interface CompactOptions {
  client: ModelClient;
  model: string;
  system: readonly SystemBlock[];
  tools: readonly ModelToolDefinition[];
  messages: readonly Message[];
  /** Tokens of a message (the session's estimator). */
  tokensOf: (message: Message) => number;
  contextWindowTokens: number;
  keepRecentPrompts: number;
  maxTokens: number;
  signal?: AbortSignal;
  headers?: Readonly<Record<string, string>>;
  extra?: Readonly<Record<string, unknown>>;
}

export interface CompactResult {
  messages: Message[];
  summary: string;
  /** The part of `messages` that was replaced. */
  droppedCount: number;
  usage: Usage;
  responseModel: string;
}

function isPrompt(m: Message): boolean {
  return (
    m.role === 'user' && (typeof m.content === 'string' || !m.content.some((b) => b.type === 'tool_result'))
  );
}

/** Index where the kept tail starts, or undefined when nothing can be cut. */
export function chooseCut(
  messages: readonly Message[],
  tokensOf: (m: Message) => number,
  keepBudgetTokens: number,
  keepRecentPrompts: number,
): number | undefined {
  const suffix: number[] = new Array(messages.length + 1).fill(0);
  for (let i = messages.length - 1; i >= 0; i--)
    suffix[i] = (suffix[i + 1] as number) + tokensOf(messages[i] as Message);
  let prompts = 0;
  for (let i = messages.length - 1; i > 0; i--) {
    if (!isPrompt(messages[i] as Message)) continue;
    prompts++;
    if (prompts === keepRecentPrompts) {
      if ((suffix[i] as number) <= keepBudgetTokens) return i;
      break;
    }
  }
  let best: number | undefined;
  for (let i = messages.length - 1; i > 0; i--) {
    if ((suffix[i] as number) > keepBudgetTokens) break;
    if (messages[i]?.role === 'assistant') best = i;
  }
  return best;
}

/** The open entries of the last TodoWrite call in `messages`, as text lines (empty when none). */
export function openTodos(messages: readonly Message[]): string[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as Message;
    if (m.role !== 'assistant') continue;
    for (let j = m.content.length - 1; j >= 0; j--) {
      const b = m.content[j];
      if (b?.type !== 'tool_use' || b.name !== 'TodoWrite') continue;
      const todos = (b.input as { todos?: unknown })?.todos;
      if (!Array.isArray(todos)) return [];
      return todos
        .filter((t) => t && typeof t === 'object' && (t as { status?: unknown }).status !== 'completed')
        .map((t) => {
          const o = t as { content?: unknown; status?: unknown };
          return `- [${String(o.status ?? 'pending')}] ${String(o.content ?? '')}`;
        });
    }
  }
  return [];
}

/** The session-context block of the first message (a leading `<system-reminder>` text), if any. */
function sessionContextBlock(messages: readonly Message[]): TextBlock | undefined {
  const first = messages[0];
  if (first?.role !== 'user' || typeof first.content === 'string') return undefined;
  const b = first.content[0];
  return b?.type === 'text' && b.text.startsWith('<system-reminder>') ? b : undefined;
}

/** Compacts `messages` (see the module comment); undefined when there is nothing to cut. Throws the model's errors. */
export async function compactConversation(options: CompactOptions): Promise<CompactResult | undefined> {
  const cut = chooseCut(
    options.messages,
    options.tokensOf,
    Math.floor(options.contextWindowTokens / 4),
    Math.max(1, options.keepRecentPrompts),
  );
  if (cut === undefined || cut <= 0) return undefined;
  const dropped = options.messages.slice(0, cut);
  const requestMessages: Message[] = [...dropped];
  appendUserPart(requestMessages, COMPACT_INSTRUCTION);
  const request: ModelRequest = {
    model: options.model,
    system: options.system,
    messages: requestMessages,
    tools: options.tools,
    maxTokens: Math.min(options.maxTokens, 8_192),
    ...(options.extra ? { extra: options.extra } : {}),
  };
  let summary = '';
  let usage: Usage | undefined;
  let responseModel = options.model;
  for await (const e of options.client.stream(request, {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  })) {
    if (e.type === 'message_stop') {
      summary = e.message.content
        .filter((b) => b.type === 'text')
        .map((b) => (b as TextBlock).text)
        .join('\n\n')
        .trim();
      usage = e.usage;
    } else if (e.type === 'message_start') responseModel = e.model || responseModel;
  }
  if (!summary || !usage) throw new Error('the model returned no summary text');
  const todos = openTodos(dropped);
  const context = sessionContextBlock(options.messages);
  const text = [
    SUMMARY_LEAD,
    '',
    summary,
    ...(todos.length ? ['', 'Open todos at the time of the summary:', ...todos] : []),
  ].join('\n');
  const messages: Message[] = [];
  appendUserPart(messages, context ? [context, { type: 'text', text }] : text);
  for (const m of options.messages.slice(cut)) {
    if (m.role === 'user')
      appendUserPart(messages, typeof m.content === 'string' ? m.content : toBlocks(m.content));
    else messages.push(m);
  }
  return { messages, summary, droppedCount: cut, usage, responseModel };
}
