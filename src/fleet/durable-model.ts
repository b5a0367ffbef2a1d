/**
 * The model seam of a durable session: a `ModelClient` whose every streamed response is one
 * record of the workflow's call journal (`model:<n>`, n counting the session's requests from 0;
 * one durable write, engine.ts `CallJournal`), so a session resumed after a crash replays the
 * responses it already paid for instead of asking again (docs/fleet.md, "What is journaled").
 *
 * The real stream is read to its end; the recorded value is the list of events without the
 * text/thinking/input-JSON deltas (the loop builds blocks from `content_block_stop` and the
 * message from `message_stop`), or the `ModelError` it ended with (kind, status, message),
 * rethrown as a `ModelError` on replay. The events are yielded after the record is written, so the
 * loop starts tools only once the response is journaled. `countTokens` is not journaled (it
 * changes nothing and may be asked again).
 *
 * An abort (`signal`) during the request ends the stream as usual and is not journaled, so the
 * request is sent again on the next run; so is a request cut off by a crash (it has no record).
 */
import {
  type ModelCallOptions,
  type ModelClient,
  ModelError,
  type ModelErrorKind,
  type ModelRequest,
  type ModelStreamEvent,
} from '../core/model-client.js';
import type { CallJournal } from './engine.js';

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
  calls: CallJournal,
  options: DurableModelOptions = {},
): ModelClient & { readonly requests: number } {
  let n = 0;
  const request = async (req: ModelRequest, o?: ModelCallOptions): Promise<RecordedResponse> => {
    await options.beforeRequest?.();
    const events: ModelStreamEvent[] = [];
    try {
      for await (const event of inner.stream(req, o)) if (!DROPPED.has(event.type)) events.push(event);
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
  };
  return {
    provider: inner.provider,
    get requests() {
      return n;
    },
    countTokens: (req, o) => inner.countTokens(req, o),
    async *stream(req: ModelRequest, o?: ModelCallOptions): AsyncIterable<ModelStreamEvent> {
      const key = `model:${n++}`;
      let recorded = calls.entries.get(key)?.record as RecordedResponse | undefined;
      if (!recorded) {
        recorded = await request(req, o);
        await calls.record(key, recorded);
      }
      for (const event of recorded.events) yield event;
      if (recorded.error)
        throw new ModelError(recorded.error.kind, recorded.error.message, recorded.error.status);
    },
  };
}
