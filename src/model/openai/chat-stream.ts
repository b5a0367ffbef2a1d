/**
 * Chat Completions stream chunks (as the `openai` SDK parses them) → `ModelStreamEvent`s.
 *
 * - The first chunk gives `message_start` (its `id` and `model`).
 * - `delta.content` → text; `delta.reasoning_content` / `delta.reasoning` (vLLM, llama.cpp,
 *   Ollama, OpenRouter) → thinking; `delta.tool_calls[i]` → tool_use blocks assembled per `index`
 *   (parallel calls), see `blocks.ts` for when each is complete.
 * - `finish_reason` closes every open block at once (before the trailing usage chunk).
 *   `stop` → `end_turn` (or `tool_use` when the message has tool calls: some local servers say
 *   `stop` there), `tool_calls`/`function_call` → `tool_use`, `length` → `max_tokens`,
 *   `content_filter` → `refusal`.
 * - Usage (`stream_options.include_usage`): `prompt_tokens` minus
 *   `prompt_tokens_details.cached_tokens` → `input_tokens`, cached → `cache_read_input_tokens`,
 *   `completion_tokens` → `output_tokens`. Without a usage chunk both are estimated (chars/4).
 * - No chunk at all, or no `finish_reason` before the stream ends → `malformed_response`.
 */
import type { StopReason, Usage } from '../../core/messages.js';
import type { ModelStreamEvent } from '../../core/model-client.js';
import { malformed } from '../errors.js';
import { estimateTokens } from '../estimate.js';
import { BlockAssembler } from './blocks.js';

type Loose = Record<string, any>;

export function mapFinishReason(reason: string, hasToolUse: boolean): StopReason {
  switch (reason) {
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    default:
      return hasToolUse ? 'tool_use' : 'end_turn';
  }
}

/** OpenAI usage (chat or responses field names) → Messages API usage. */
export function usageFromOpenAI(raw: Loose): Usage {
  const prompt = Number(raw.prompt_tokens ?? raw.input_tokens ?? 0) || 0;
  const completion = Number(raw.completion_tokens ?? raw.output_tokens ?? 0) || 0;
  const details = raw.prompt_tokens_details ?? raw.input_tokens_details ?? {};
  const cached = Math.min(prompt, Number(details?.cached_tokens ?? 0) || 0);
  return {
    input_tokens: prompt - cached,
    output_tokens: completion,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
  };
}

export async function* assembleChatStream(
  chunks: AsyncIterable<unknown>,
  context: { model: string; estimatedInputTokens: number },
): AsyncGenerator<ModelStreamEvent, void, undefined> {
  const blocks = new BlockAssembler();
  let started: { id: string; model: string } | undefined;
  let finish: string | undefined;
  let usage: Usage | undefined;
  let callCount = 0;
  let lastKey: string | undefined;

  for await (const raw of chunks) {
    const chunk = (raw ?? {}) as Loose;
    if (!started) {
      started = { id: String(chunk.id ?? ''), model: String(chunk.model ?? context.model) };
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
    if (chunk.usage && typeof chunk.usage === 'object') usage = usageFromOpenAI(chunk.usage);
    const choice = Array.isArray(chunk.choices) ? (chunk.choices[0] as Loose | undefined) : undefined;
    if (!choice) continue;
    const delta = (choice.delta ?? {}) as Loose;
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (typeof reasoning === 'string') yield* blocks.thinking(reasoning);
    if (typeof delta.content === 'string') yield* blocks.text(delta.content);
    if (Array.isArray(delta.tool_calls)) {
      for (const call of delta.tool_calls as Loose[]) {
        // The index keys a call; servers that omit it send each call whole, with its own id.
        const key =
          typeof call.index === 'number'
            ? `i${call.index}`
            : typeof call.id === 'string' && call.id
              ? `id${call.id}`
              : (lastKey ?? 'i0');
        lastKey = key;
        const fn = (call.function ?? {}) as Loose;
        if (!blocks.hasTool(key)) {
          const id = typeof call.id === 'string' && call.id ? call.id : `call_${started.id}_${callCount}`;
          callCount++;
          yield* blocks.toolStart(key, id, typeof fn.name === 'string' ? fn.name : '');
        } else if (typeof fn.name === 'string') {
          blocks.toolName(key, fn.name);
        }
        if (typeof fn.arguments === 'string') yield* blocks.toolArgs(key, fn.arguments);
      }
    }
    if (typeof choice.finish_reason === 'string' && choice.finish_reason) {
      finish = choice.finish_reason;
      yield* blocks.closeAll();
    }
  }
  if (!started) throw malformed('the stream ended without any chunk');
  if (finish === undefined) throw malformed('the stream ended without a finish_reason');
  const stopReason = mapFinishReason(finish, blocks.hasToolUse);
  const final: Usage = usage ?? {
    input_tokens: context.estimatedInputTokens,
    output_tokens: estimateTokens(blocks.outputChars),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  yield { type: 'message_delta', stopReason, usage: { ...final } };
  yield {
    type: 'message_stop',
    id: started.id,
    message: { role: 'assistant', content: blocks.content() },
    stopReason,
    usage: final,
  };
}
