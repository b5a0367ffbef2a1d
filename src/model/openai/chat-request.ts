/**
 * `ModelRequest` (Anthropic-shaped) → an OpenAI Chat Completions request body
 * (docs/agent-wire.md, "OpenAI-compatible mapping").
 *
 * - `system` blocks → one `system` message (texts joined by a blank line); `systemRole:
 *   'developer'` for endpoints that want that role.
 * - user text/image/document blocks → a `user` message (a plain string when it is only text, else
 *   `text` / `image_url` (data URL) / `file` parts).
 * - `tool_result` blocks → `role: "tool"` messages (`tool_call_id`, string content) placed right
 *   after the assistant message that called them, before the user's other blocks; images a tool
 *   returned follow in a `user` message (tool messages carry text only). `is_error` has no field
 *   on this API: the result text says what failed.
 * - assistant `text` → `content`; `tool_use` → `tool_calls` (`arguments` = the input as JSON, or
 *   the raw text when the streamed input did not parse); `thinking` and `redacted_thinking` are
 *   not sent (OpenAI-compatible endpoints take no reasoning back). An assistant message left with
 *   neither content nor calls is dropped.
 * - tools → `{type: "function", function: {name, description, parameters}}`; `defer_loading` is
 *   not sent.
 * - `max_tokens` by default; `max_completion_tokens` when `maxTokensField` says so (OpenAI's own
 *   reasoning models require it). `stream_options.include_usage` asks for the usage chunk.
 * - `extra.openai` is spread into the body; other `extra` keys belong to the Anthropic provider
 *   and are ignored here.
 */
import type { ToolResultContent } from '../../core/content.js';
import type { Message, SystemBlock, UserContentBlock } from '../../core/messages.js';
import type { ModelRequest, ModelToolDefinition } from '../../core/model-client.js';

export interface ChatRequestOptions {
  systemRole?: 'system' | 'developer';
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

type ChatContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'file'; file: { filename: string; file_data: string } };

export type ChatMessage =
  | { role: 'system' | 'developer'; content: string }
  | { role: 'user'; content: string | ChatContentPart[] }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

export function systemPromptText(system: readonly SystemBlock[]): string {
  return system
    .map((b) => b.text)
    .filter((t) => t.length > 0)
    .join('\n\n');
}

function dataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

function partOf(block: UserContentBlock): ChatContentPart | undefined {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image_url', image_url: { url: dataUrl(block.source.media_type, block.source.data) } };
    case 'document':
      return {
        type: 'file',
        file: { filename: 'document.pdf', file_data: dataUrl(block.source.media_type, block.source.data) },
      };
    default:
      return undefined;
  }
}

/** Text of a tool result, and its media as parts (tool messages carry text only). */
function splitToolResult(content: ToolResultContent): { text: string; media: ChatContentPart[] } {
  if (typeof content === 'string') return { text: content, media: [] };
  const texts: string[] = [];
  const media: ChatContentPart[] = [];
  for (const b of content) {
    if (b.type === 'text') texts.push(b.text);
    // A tool-search result: OpenAI-compatible APIs have no tool references; the loaded tool's
    // definition is in the request's tools, and the model is told by name.
    else if (b.type === 'tool_reference') texts.push(`Tool loaded: ${b.tool_name}`);
    else {
      const part = partOf(b);
      if (part) media.push(part);
    }
  }
  if (media.length > 0) texts.push(`[${media.length} attachment(s) follow in the next user message]`);
  return { text: texts.join('\n'), media };
}

function userContent(parts: ChatContentPart[]): string | ChatContentPart[] {
  return parts.every((p) => p.type === 'text')
    ? parts.map((p) => (p as { text: string }).text).join('\n')
    : parts;
}

function pushUser(out: ChatMessage[], content: readonly UserContentBlock[]): void {
  const parts: ChatContentPart[] = [];
  const toolMedia: ChatContentPart[] = [];
  for (const block of content) {
    if (block.type === 'tool_result') {
      const { text, media } = splitToolResult(block.content);
      out.push({ role: 'tool', tool_call_id: block.tool_use_id, content: text });
      if (media.length > 0) {
        toolMedia.push({ type: 'text', text: `Attachments of tool call ${block.tool_use_id}:` }, ...media);
      }
      continue;
    }
    const part = partOf(block);
    if (part) parts.push(part);
  }
  const all = [...toolMedia, ...parts];
  if (all.length > 0) out.push({ role: 'user', content: userContent(all) });
}

/** The conversation as Chat Completions messages (see the module comment). */
export function toChatMessages(
  system: readonly SystemBlock[],
  messages: readonly Message[],
  systemRole: 'system' | 'developer' = 'system',
): ChatMessage[] {
  const out: ChatMessage[] = [];
  const prompt = systemPromptText(system);
  if (prompt) out.push({ role: systemRole, content: prompt });
  for (const m of messages) {
    if (m.role === 'user') {
      if (typeof m.content === 'string') out.push({ role: 'user', content: m.content });
      else pushUser(out, m.content);
      continue;
    }
    let text = '';
    const calls: NonNullable<Extract<ChatMessage, { role: 'assistant' }>['tool_calls']> = [];
    for (const b of m.content) {
      if (b.type === 'text') text += b.text;
      else if (b.type === 'tool_use') {
        calls.push({
          id: b.id,
          type: 'function',
          function: {
            name: b.name,
            arguments: typeof b.input === 'string' ? b.input : JSON.stringify(b.input ?? {}),
          },
        });
      }
    }
    if (!text && calls.length === 0) continue;
    out.push(
      calls.length > 0
        ? { role: 'assistant', content: text || null, tool_calls: calls }
        : { role: 'assistant', content: text },
    );
  }
  return out;
}

export function toChatTools(tools: readonly ModelToolDefinition[]) {
  return tools.map((t) => ({
    type: 'function' as const,
    function: { name: t.name, description: t.description, parameters: t.input_schema },
  }));
}

function openaiExtras(request: ModelRequest): Record<string, unknown> {
  const extra = request.extra?.openai;
  return extra && typeof extra === 'object' && !Array.isArray(extra)
    ? (extra as Record<string, unknown>)
    : {};
}

/** The streaming Chat Completions body. */
export function buildChatRequest(
  request: ModelRequest,
  options: ChatRequestOptions = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model,
    messages: toChatMessages(request.system, request.messages, options.systemRole),
  };
  if (request.tools.length > 0) body.tools = toChatTools(request.tools);
  body[options.maxTokensField ?? 'max_tokens'] = request.maxTokens;
  Object.assign(body, openaiExtras(request));
  body.stream = true;
  body.stream_options = { include_usage: true };
  return body;
}

export { openaiExtras };
