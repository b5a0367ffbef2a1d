/**
 * Messages API stream events (as the SDK parses them from SSE) → `ModelStreamEvent`s, assembling
 * the assistant message on the way (docs/agent-wire.md, "Streaming").
 *
 * - `text_delta`, `thinking_delta` and `input_json_delta` are passed on as they come;
 *   `signature_delta` completes a thinking block's signature; `citations_delta` is not kept.
 * - At `content_block_stop` the block is complete: a `tool_use` input is parsed from its
 *   concatenated `input_json_delta` fragments (none: the start block's `input`, usually `{}`), so
 *   the loop can start the tool while the rest of the message still streams. Input that does not
 *   parse is kept as the raw text with `inputError` set (see core/model-client.ts).
 * - `message_stop` carries the complete message, the stop reason and the final usage: the
 *   `message_start` usage overlaid with the cumulative `message_delta` usage. Whatever follows it
 *   is read and ignored (the connection stays reusable).
 * - Malformed: an event before `message_start`, a delta for a block that is not open or of another
 *   type, a block type Gantry does not model (server tools), a block still open at `message_stop`,
 *   or a stream that ends without `message_stop` → ModelError `malformed_response`.
 */
import type { AssistantContentBlock, AssistantMessage, StopReason, Usage } from '../../core/messages.js';
import type { ModelStreamEvent } from '../../core/model-client.js';
import { malformed } from '../errors.js';

type OpenBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; startInput: unknown; json: string };

type Loose = Record<string, unknown>;

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A full usage record from the API's (possibly null-valued) usage object. */
export function usageFrom(raw: unknown): Usage {
  const u = (raw ?? {}) as Loose;
  return {
    input_tokens: num(u.input_tokens),
    output_tokens: num(u.output_tokens),
    cache_creation_input_tokens: num(u.cache_creation_input_tokens),
    cache_read_input_tokens: num(u.cache_read_input_tokens),
  };
}

/** Only the numeric fields present (a `message_delta` usage is partial). */
function partialUsage(raw: unknown): Partial<Usage> {
  const u = (raw ?? {}) as Loose;
  const out: Partial<Usage> = {};
  for (const key of [
    'input_tokens',
    'output_tokens',
    'cache_creation_input_tokens',
    'cache_read_input_tokens',
  ] as const) {
    const v = u[key];
    if (typeof v === 'number' && Number.isFinite(v)) out[key] = v;
  }
  return out;
}

function openBlock(raw: unknown, index: number): OpenBlock {
  const b = (raw ?? {}) as Loose;
  switch (b.type) {
    case 'text':
      return { type: 'text', text: str(b.text) ?? '' };
    case 'thinking':
      return { type: 'thinking', thinking: str(b.thinking) ?? '', signature: str(b.signature) ?? '' };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: str(b.data) ?? '' };
    case 'tool_use': {
      const id = str(b.id);
      const name = str(b.name);
      if (!id || !name) throw malformed(`tool_use block ${index} has no id or name`);
      return { type: 'tool_use', id, name, startInput: b.input ?? {}, json: '' };
    }
    default:
      throw malformed(`content block ${index} has a type Gantry does not support (${String(b.type)})`);
  }
}

function closeBlock(block: OpenBlock): { block: AssistantContentBlock; inputError?: string } {
  switch (block.type) {
    case 'text':
      return { block: { type: 'text', text: block.text } };
    case 'thinking':
      return { block: { type: 'thinking', thinking: block.thinking, signature: block.signature } };
    case 'redacted_thinking':
      return { block: { type: 'redacted_thinking', data: block.data } };
    case 'tool_use': {
      if (block.json.trim() === '') {
        return { block: { type: 'tool_use', id: block.id, name: block.name, input: block.startInput } };
      }
      try {
        const input: unknown = JSON.parse(block.json);
        return { block: { type: 'tool_use', id: block.id, name: block.name, input } };
      } catch (error) {
        return {
          block: { type: 'tool_use', id: block.id, name: block.name, input: block.json },
          inputError: `The input of tool call ${block.id} (${block.name}) is not valid JSON: ${
            (error as Error).message
          }`,
        };
      }
    }
  }
}

/** Assembles one streamed response; see the module comment. */
export async function* assembleAnthropicStream(
  events: AsyncIterable<unknown>,
): AsyncGenerator<ModelStreamEvent, void, undefined> {
  let started: { id: string; model: string; usage: Usage } | undefined;
  const open = new Map<number, OpenBlock>();
  const done = new Map<number, AssistantContentBlock>();
  let stopReason: StopReason | null = null;
  let deltaUsage: Partial<Usage> = {};

  let stopped = false;
  for await (const raw of events) {
    // After message_stop the rest of the response is read and ignored, so the connection can be
    // reused (the caller bounds this drain).
    if (stopped) continue;
    const event = (raw ?? {}) as Loose;
    const type = event.type;
    if (type !== 'message_start' && !started) {
      throw malformed(`the stream sent ${String(type)} before message_start`);
    }
    switch (type) {
      case 'message_start': {
        if (started) throw malformed('the stream sent message_start twice');
        const message = (event.message ?? {}) as Loose;
        started = {
          id: str(message.id) ?? '',
          model: str(message.model) ?? '',
          usage: usageFrom(message.usage),
        };
        yield { type: 'message_start', ...started, usage: { ...started.usage } };
        break;
      }
      case 'content_block_start': {
        const index = num(event.index);
        if (open.has(index) || done.has(index)) throw malformed(`content block ${index} started twice`);
        const block = openBlock(event.content_block, index);
        open.set(index, block);
        yield block.type === 'tool_use'
          ? {
              type: 'content_block_start',
              index,
              blockType: block.type,
              toolUse: { id: block.id, name: block.name },
            }
          : { type: 'content_block_start', index, blockType: block.type };
        break;
      }
      case 'content_block_delta': {
        const index = num(event.index);
        const block = open.get(index);
        const delta = (event.delta ?? {}) as Loose;
        if (!block) throw malformed(`a delta arrived for content block ${index}, which is not open`);
        if (delta.type === 'text_delta' && block.type === 'text') {
          const text = str(delta.text) ?? '';
          block.text += text;
          yield { type: 'text_delta', index, text };
        } else if (delta.type === 'input_json_delta' && block.type === 'tool_use') {
          const partialJson = str(delta.partial_json) ?? '';
          block.json += partialJson;
          yield { type: 'input_json_delta', index, partialJson };
        } else if (delta.type === 'thinking_delta' && block.type === 'thinking') {
          const thinking = str(delta.thinking) ?? '';
          block.thinking += thinking;
          yield { type: 'thinking_delta', index, thinking };
        } else if (delta.type === 'signature_delta' && block.type === 'thinking') {
          block.signature += str(delta.signature) ?? '';
        } else if (delta.type === 'citations_delta' && block.type === 'text') {
          // Citations are not part of Gantry's text block; the text itself is complete without them.
        } else {
          throw malformed(`a ${String(delta.type)} arrived for a ${block.type} block (${index})`);
        }
        break;
      }
      case 'content_block_stop': {
        const index = num(event.index);
        const block = open.get(index);
        if (!block) throw malformed(`content block ${index} stopped but was not open`);
        open.delete(index);
        const closed = closeBlock(block);
        done.set(index, closed.block);
        yield closed.inputError === undefined
          ? { type: 'content_block_stop', index, block: closed.block }
          : { type: 'content_block_stop', index, block: closed.block, inputError: closed.inputError };
        break;
      }
      case 'message_delta': {
        const delta = (event.delta ?? {}) as Loose;
        if (typeof delta.stop_reason === 'string') stopReason = delta.stop_reason as StopReason;
        const usage = partialUsage(event.usage);
        deltaUsage = { ...deltaUsage, ...usage };
        yield { type: 'message_delta', stopReason, usage };
        break;
      }
      case 'message_stop': {
        if (open.size > 0) {
          throw malformed(`message_stop arrived while content block ${[...open.keys()][0]} was open`);
        }
        const content = [...done.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b);
        const message: AssistantMessage = { role: 'assistant', content };
        const usage: Usage = { ...started!.usage, ...deltaUsage };
        stopped = true;
        yield { type: 'message_stop', id: started!.id, message, stopReason, usage };
        break;
      }
      default:
        // Event types added to the API later (not content) are skipped, as the SDK's own stream does.
        break;
    }
  }
  if (stopped) return;
  throw malformed(started ? 'the stream ended before message_stop' : 'the stream ended without any event');
}
