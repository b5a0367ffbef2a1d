/**
 * The model seam of a durable session: a `ModelClient` whose every streamed response is one
 * workflow step (`model:<n>`, n counting the session's requests from 0), so a session resumed
 * after a crash replays the responses it already paid for instead of asking again
 * (docs/fleet.md, "What is journaled").
 *
 * Inside the step the real stream is read to its end; the recorded value is the list of events
 * without the text/thinking/input-JSON deltas (the loop builds blocks from `content_block_stop`
 * and the message from `message_stop`), or the `ModelError` it ended with (kind, status,
 * message), rethrown as a `ModelError` on replay. The events are yielded after the step, so the
 * loop starts tools only once the response is journaled. `countTokens` is not journaled (it changes
 * nothing and may be asked again).
 *
 * An abort (`signal`) during the step ends the stream as usual and is not journaled, so the
 * request is sent again on the next run.
 */
import {
  type ModelCallOptions,
  type ModelClient,
  ModelError,
  type ModelErrorKind,
  type ModelRequest,
  type ModelStreamEvent,
} from '../core/model-client.js';
import type { WorkflowContext } from './engine.js';

interface RecordedResponse {
  events: ModelStreamEvent[];
  error?: { kind: ModelErrorKind; message: string; status?: number };
}

const DROPPED = new Set<ModelStreamEvent['type']>(['text_delta', 'thinking_delta', 'input_json_delta']);

export interface DurableModelOptions {
  /** Waits before each request that is really sent (the fleet's model-API rate limit). */
  beforeRequest?: () => Promise<void>;
}

export function durableModelClient(
  inner: ModelClient,
  ctx: WorkflowContext,
  options: DurableModelOptions = {},
): ModelClient & { readonly requests: number } {
  let n = 0;
  return {
    provider: inner.provider,
    get requests() {
      return n;
    },
    countTokens: (request, o) => inner.countTokens(request, o),
    async *stream(request: ModelRequest, o?: ModelCallOptions): AsyncIterable<ModelStreamEvent> {
      const name = `model:${n++}`;
      const recorded = await ctx.step<RecordedResponse>(name, async () => {
        await options.beforeRequest?.();
        const events: ModelStreamEvent[] = [];
        try {
          for await (const event of inner.stream(request, o))
            if (!DROPPED.has(event.type)) events.push(event);
          return { events };
        } catch (error) {
          if (error instanceof ModelError && error.kind !== 'aborted') {
            return {
              events,
              error: {
                kind: error.kind,
                message: error.message,
                ...(error.status !== undefined ? { status: error.status } : {}),
              },
            };
          }
          throw error;
        }
      });
      for (const event of recorded.events) yield event;
      if (recorded.error)
        throw new ModelError(recorded.error.kind, recorded.error.message, recorded.error.status);
    },
  };
}
