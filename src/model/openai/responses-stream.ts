/**
 * Responses API stream events → `ModelStreamEvent`s.
 *
 * - `response.created` → `message_start` (response id, model).
 * - `response.output_text.delta` → text; `response.refusal.delta` → text (stop reason `refusal`);
 *   `response.reasoning_summary_text.delta` / `response.reasoning_text.delta` → thinking.
 * - `response.output_item.added` with a `function_call` item opens a tool_use (id = `call_id`);
 *   `response.function_call_arguments.delta` streams its input; `…arguments.done` or
 *   `response.output_item.done` completes it (the API's final `arguments` win).
 * - `response.completed` / `response.incomplete` end the message: stop reason `tool_use` when a
 *   call was made, `max_tokens` for `incomplete_details.reason = max_output_tokens`, `refusal` for
 *   `content_filter` or a refusal, else `end_turn`; usage from `response.usage`
 *   (`input_tokens_details.cached_tokens` → cache reads).
 * - `response.failed` and `error` events throw `InStreamApiError` (classified by its code).
 * - A stream that ends without `response.completed`/`incomplete` → `malformed_response`.
 */
import type { StopReason, Usage } from '../../core/messages.js';
import type { ModelStreamEvent } from '../../core/model-client.js';
import { malformed } from '../errors.js';
import { estimateTokens } from '../estimate.js';
import { BlockAssembler } from './blocks.js';
import { usageFromOpenAI } from './chat-stream.js';

type Loose = Record<string, any>;

/** An error the API reported inside a 200 stream. */
export class InStreamApiError extends Error {
  override readonly name = 'InStreamApiError';
  constructor(
    readonly errorType: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

function itemKey(event: Loose, item?: Loose): string {
  const id = item?.id ?? event.item_id;
  return typeof id === 'string' && id ? `id${id}` : `o${String(event.output_index ?? 0)}`;
}

export async function* assembleResponsesStream(
  events: AsyncIterable<unknown>,
  context: { model: string; estimatedInputTokens: number },
): AsyncGenerator<ModelStreamEvent, void, undefined> {
  const blocks = new BlockAssembler();
  let started: { id: string; model: string } | undefined;
  let refused = false;

  let stopped = false;
  for await (const raw of events) {
    if (stopped) continue; // drain what follows the final event (connection reuse)
    const event = (raw ?? {}) as Loose;
    const type = String(event.type ?? '');
    if (!started && type !== 'error') {
      const response = (event.response ?? {}) as Loose;
      started = { id: String(response.id ?? ''), model: String(response.model ?? context.model) };
      yield {
        type: 'message_start',
        ...started,
        usage: {
          input_tokens: 0,
          output_tokens: 0,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
        },
      };
    }
    switch (type) {
      case 'response.output_text.delta':
        yield* blocks.text(String(event.delta ?? ''));
        break;
      case 'response.refusal.delta':
        refused = true;
        yield* blocks.text(String(event.delta ?? ''));
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        yield* blocks.thinking(String(event.delta ?? ''));
        break;
      case 'response.output_item.added': {
        const item = (event.item ?? {}) as Loose;
        if (item.type !== 'function_call') break;
        const callId =
          typeof item.call_id === 'string' && item.call_id ? item.call_id : String(item.id ?? '');
        yield* blocks.toolStart(itemKey(event, item), callId, String(item.name ?? ''));
        if (typeof item.arguments === 'string' && item.arguments) {
          yield* blocks.toolArgs(itemKey(event, item), item.arguments);
        }
        break;
      }
      case 'response.function_call_arguments.delta':
        yield* blocks.toolArgs(itemKey(event), String(event.delta ?? ''));
        break;
      case 'response.function_call_arguments.done':
        yield* blocks.toolDone(
          itemKey(event),
          typeof event.arguments === 'string' ? event.arguments : undefined,
        );
        break;
      case 'response.output_item.done': {
        const item = (event.item ?? {}) as Loose;
        if (item.type === 'function_call') {
          yield* blocks.toolDone(
            itemKey(event, item),
            typeof item.arguments === 'string' ? item.arguments : undefined,
          );
        }
        break;
      }
      case 'response.completed':
      case 'response.incomplete': {
        yield* blocks.closeAll();
        const response = (event.response ?? {}) as Loose;
        const reason = response.incomplete_details?.reason;
        let stopReason: StopReason = blocks.hasToolUse ? 'tool_use' : 'end_turn';
        if (reason === 'max_output_tokens') stopReason = 'max_tokens';
        else if (reason === 'content_filter' || refused) stopReason = 'refusal';
        const usage: Usage = response.usage
          ? usageFromOpenAI(response.usage)
          : {
              input_tokens: context.estimatedInputTokens,
              output_tokens: estimateTokens(blocks.outputChars),
              cache_creation_input_tokens: 0,
              cache_read_input_tokens: 0,
            };
        yield { type: 'message_delta', stopReason, usage: { ...usage } };
        stopped = true;
        yield {
          type: 'message_stop',
          id: started!.id,
          message: { role: 'assistant', content: blocks.content() },
          stopReason,
          usage,
        };
        break;
      }
      case 'response.failed': {
        const err = ((event.response ?? {}) as Loose).error ?? {};
        throw new InStreamApiError(err.code, String(err.message ?? 'the response failed'));
      }
      case 'error':
        throw new InStreamApiError(event.code ?? undefined, String(event.message ?? 'stream error'));
      default:
        break;
    }
  }
  if (stopped) return;
  throw malformed(
    started ? 'the stream ended before response.completed' : 'the stream ended without any event',
  );
}
