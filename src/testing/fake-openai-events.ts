/**
 * SSE event lists the fake OpenAI-compatible server streams for one scripted message: Chat
 * Completions chunks (`data: <chunk>` lines, then `data: [DONE]`) and Responses API events
 * (`event: <type>` + `data: <event>`), shaped as OpenAI's API sends them and as the `openai` SDK
 * parses them.
 */
import type { SseEvent } from './fake-http.js';
import type { FakeBlock } from './fake-model-script.js';
import { chunks } from './fake-model-script.js';

export interface OpenAIUsageFigures {
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
}

export interface ChatStreamPlan {
  id: string;
  model: string;
  created: number;
  blocks: FakeBlock[];
  finishReason: string;
  chunkChars: number;
  /** Field name for reasoning deltas (`reasoning_content`: vLLM, DeepSeek; `reasoning`: Ollama, OpenRouter). */
  reasoningField: 'reasoning_content' | 'reasoning';
  /** Send the usage chunk (the request asked with `stream_options.include_usage`). */
  includeUsage: boolean;
  usage: OpenAIUsageFigures;
}

export function chatStreamEvents(plan: ChatStreamPlan): SseEvent[] {
  const events: SseEvent[] = [];
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    events.push({
      data: JSON.stringify({
        id: plan.id,
        object: 'chat.completion.chunk',
        created: plan.created,
        model: plan.model,
        system_fingerprint: null,
        choices,
        ...extra,
      }),
    });
  const delta = (d: Record<string, unknown>) =>
    chunk([{ index: 0, delta: d, logprobs: null, finish_reason: null }]);
  delta({ role: 'assistant', content: '' });
  let toolIndex = 0;
  plan.blocks.forEach((block, j) => {
    switch (block.type) {
      case 'text':
        for (const piece of chunks(block.text, plan.chunkChars)) delta({ content: piece });
        break;
      case 'thinking':
        for (const piece of chunks(block.thinking, plan.chunkChars)) delta({ [plan.reasoningField]: piece });
        break;
      case 'redacted_thinking':
        break;
      case 'tool_use': {
        const index = toolIndex++;
        delta({
          tool_calls: [
            {
              index,
              id: block.id ?? `call_fake_${j}`,
              type: 'function',
              function: { name: block.name, arguments: '' },
            },
          ],
        });
        for (const piece of chunks(block.rawJson ?? JSON.stringify(block.input), plan.chunkChars)) {
          delta({ tool_calls: [{ index, function: { arguments: piece } }] });
        }
        break;
      }
    }
  });
  chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: plan.finishReason }]);
  if (plan.includeUsage) {
    chunk([], {
      usage: {
        prompt_tokens: plan.usage.promptTokens,
        completion_tokens: plan.usage.completionTokens,
        total_tokens: plan.usage.promptTokens + plan.usage.completionTokens,
        prompt_tokens_details: { cached_tokens: plan.usage.cachedTokens, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
      },
    });
  }
  events.push({ data: '[DONE]' });
  return events;
}

export interface ResponsesStreamPlan {
  id: string;
  model: string;
  created: number;
  blocks: FakeBlock[];
  /** `completed`, or `incomplete` with this reason. */
  incompleteReason?: 'max_output_tokens' | 'content_filter';
  chunkChars: number;
  usage: OpenAIUsageFigures;
}

export function responsesStreamEvents(plan: ResponsesStreamPlan): SseEvent[] {
  const events: SseEvent[] = [];
  let seq = 0;
  const emit = (type: string, fields: Record<string, unknown>) =>
    events.push({ event: type, data: JSON.stringify({ type, sequence_number: seq++, ...fields }) });
  const response = (status: string, output: unknown[], usage: unknown) => ({
    id: plan.id,
    object: 'response',
    created_at: plan.created,
    status,
    model: plan.model,
    output,
    usage,
    incomplete_details: status === 'incomplete' ? { reason: plan.incompleteReason } : null,
    error: null,
  });
  emit('response.created', { response: response('in_progress', [], null) });
  emit('response.in_progress', { response: response('in_progress', [], null) });
  const output: Record<string, unknown>[] = [];
  plan.blocks.forEach((block, output_index) => {
    switch (block.type) {
      case 'text': {
        const item_id = `msg_fake_${output_index}`;
        emit('response.output_item.added', {
          output_index,
          item: { id: item_id, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
        });
        emit('response.content_part.added', {
          item_id,
          output_index,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [] },
        });
        for (const delta of chunks(block.text, plan.chunkChars)) {
          emit('response.output_text.delta', {
            item_id,
            output_index,
            content_index: 0,
            delta,
            logprobs: [],
          });
        }
        emit('response.output_text.done', {
          item_id,
          output_index,
          content_index: 0,
          text: block.text,
          logprobs: [],
        });
        const part = { type: 'output_text', text: block.text, annotations: [] };
        emit('response.content_part.done', { item_id, output_index, content_index: 0, part });
        const item = {
          id: item_id,
          type: 'message',
          status: 'completed',
          role: 'assistant',
          content: [part],
        };
        emit('response.output_item.done', { output_index, item });
        output.push(item);
        break;
      }
      case 'thinking': {
        const item_id = `rs_fake_${output_index}`;
        emit('response.output_item.added', {
          output_index,
          item: { id: item_id, type: 'reasoning', summary: [] },
        });
        emit('response.reasoning_summary_part.added', {
          item_id,
          output_index,
          summary_index: 0,
          part: { type: 'summary_text', text: '' },
        });
        for (const delta of chunks(block.thinking, plan.chunkChars)) {
          emit('response.reasoning_summary_text.delta', { item_id, output_index, summary_index: 0, delta });
        }
        emit('response.reasoning_summary_text.done', {
          item_id,
          output_index,
          summary_index: 0,
          text: block.thinking,
        });
        const item = {
          id: item_id,
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: block.thinking }],
        };
        emit('response.output_item.done', { output_index, item });
        output.push(item);
        break;
      }
      case 'redacted_thinking':
        break;
      case 'tool_use': {
        const item_id = `fc_fake_${output_index}`;
        const call_id = block.id ?? `call_fake_${output_index}`;
        const args = block.rawJson ?? JSON.stringify(block.input);
        emit('response.output_item.added', {
          output_index,
          item: {
            id: item_id,
            type: 'function_call',
            status: 'in_progress',
            arguments: '',
            call_id,
            name: block.name,
          },
        });
        for (const delta of chunks(args, plan.chunkChars)) {
          emit('response.function_call_arguments.delta', { item_id, output_index, delta });
        }
        emit('response.function_call_arguments.done', { item_id, output_index, arguments: args });
        const item = {
          id: item_id,
          type: 'function_call',
          status: 'completed',
          arguments: args,
          call_id,
          name: block.name,
        };
        emit('response.output_item.done', { output_index, item });
        output.push(item);
        break;
      }
    }
  });
  const usage = {
    input_tokens: plan.usage.promptTokens,
    input_tokens_details: { cached_tokens: plan.usage.cachedTokens },
    output_tokens: plan.usage.completionTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: plan.usage.promptTokens + plan.usage.completionTokens,
  };
  if (plan.incompleteReason) emit('response.incomplete', { response: response('incomplete', output, usage) });
  else emit('response.completed', { response: response('completed', output, usage) });
  return events;
}
