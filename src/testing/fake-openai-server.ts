/**
 * A scripted fake of an OpenAI-compatible endpoint on 127.0.0.1 (port 0), driven through the real
 * `openai` SDK (or any OpenAI-compatible client). It takes the same scripts as the fake Anthropic
 * server (`fake-model-script.ts`).
 *
 * Endpoints (with or without the `/v1` prefix):
 * - `POST /v1/chat/completions`: a scripted message streams as chunks (`data: <chunk>`, first a
 *   role chunk, then `content` / `reasoning_content` / `tool_calls[i]` deltas — a call's id and
 *   name first, then its `arguments` in fragments — then a `finish_reason` chunk, a usage chunk
 *   when `stream_options.include_usage` is set, and `data: [DONE]`); `stream: false` gets the
 *   whole `chat.completion`.
 * - `POST /v1/responses`: Responses API events (`response.created` … `response.completed`).
 * - `GET /v1/models`: one model entry per model seen so far.
 * Errors are `{"error": {"message", "type", "param", "code"}}` bodies.
 *
 * Usage: prompt tokens by ceil(chars/4) of the canonical request, `cached_tokens` from simulated
 * automatic prefix caching (`fake-prompt-cache.ts`), completion tokens by ceil(chars/4) of the
 * output. `RecordedRequest.usage` holds them in Messages API terms (uncached input, cache reads).
 *
 * Authentication: with `apiKey` set, requests need `authorization: Bearer <key>`.
 */
import type { ServerResponse } from 'node:http';
import type { StopReason } from '../core/messages.js';
import { type FakeHttpHandlers, FakeHttpServer, type RecordedRequest, writeSse } from './fake-http.js';
import type { FakeBlock, FakeMessageReply, FakeReply, FakeRoute, ScriptEntry } from './fake-model-script.js';
import { estimateTokens } from './fake-model-script.js';
import { chatStreamEvents, type OpenAIUsageFigures, responsesStreamEvents } from './fake-openai-events.js';
import { FakePromptCache, openaiCacheUnits } from './fake-prompt-cache.js';

export interface FakeOpenAIOptions {
  script?: ScriptEntry[];
  routes?: FakeRoute[];
  /** Require `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Smallest cacheable prefix in tokens (default 0; OpenAI's is 1,024). */
  minCacheableTokens?: number;
  /** Reasoning delta field (default `reasoning_content`). */
  reasoningField?: 'reasoning_content' | 'reasoning';
}

const DEFAULT_ERRORS: Readonly<Record<number, { type: string; code: string | null; message: string }>> = {
  400: { type: 'invalid_request_error', code: null, message: 'Invalid request' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' },
  403: { type: 'permission_error', code: null, message: 'You are not allowed to do this.' },
  404: { type: 'invalid_request_error', code: 'model_not_found', message: 'The model does not exist.' },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached.' },
  500: { type: 'server_error', code: null, message: 'The server had an error.' },
  503: { type: 'server_error', code: null, message: 'The engine is currently overloaded.' },
};

const FINISH: Readonly<Record<StopReason, string>> = {
  end_turn: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  refusal: 'content_filter',
  model_context_window_exceeded: 'length',
};

function outputChars(blocks: FakeBlock[]): number {
  let n = 0;
  for (const b of blocks) {
    if (b.type === 'text') n += b.text.length;
    else if (b.type === 'thinking') n += b.thinking.length;
    else if (b.type === 'tool_use') n += (b.rawJson ?? JSON.stringify(b.input)).length;
  }
  return n;
}

export class FakeOpenAIServer {
  readonly cache: FakePromptCache;
  private readonly http: FakeHttpServer;
  private readonly models = new Set<string>();
  private count = 0;

  constructor(private readonly options: FakeOpenAIOptions = {}) {
    this.cache = new FakePromptCache({ minCacheableTokens: options.minCacheableTokens ?? 0 });
    const handlers: FakeHttpHandlers = {
      endpointOf: (path) => {
        const p = path.replace(/^\/v1(?=\/)/, '');
        return p === '/chat/completions'
          ? 'chat'
          : p === '/responses'
            ? 'responses'
            : p === '/models'
              ? 'models'
              : 'other';
      },
      handle: (request, res, next) => this.handle(request, res, next),
    };
    this.http = new FakeHttpServer(options, handlers);
  }

  /** `http://127.0.0.1:<port>` — pass `${url}/v1` as `OPENAI_BASE_URL`. */
  get url(): string {
    return this.http.url;
  }

  get requests(): readonly RecordedRequest[] {
    return this.http.requests;
  }

  /** Chat Completions and Responses requests. */
  get modelRequests(): readonly RecordedRequest[] {
    return this.http.requests.filter((r) => r.endpoint === 'chat' || r.endpoint === 'responses');
  }

  get remaining(): number {
    return this.http.remaining;
  }

  enqueue(...entries: ScriptEntry[]): void {
    this.http.enqueue(...entries);
  }

  addRoute(route: FakeRoute): void {
    this.http.addRoute(route);
  }

  async start(): Promise<this> {
    await this.http.start();
    return this;
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private sendError(
    res: ServerResponse,
    status: number,
    errorType?: string,
    message?: string,
    headers: Record<string, string> = {},
    rawBody?: string,
  ): void {
    const d = DEFAULT_ERRORS[status] ?? {
      type: status >= 500 ? 'server_error' : 'invalid_request_error',
      code: null,
      message: `HTTP ${status}`,
    };
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(
      rawBody ??
        JSON.stringify({
          error: {
            message: message ?? d.message,
            type: errorType ?? d.type,
            param: null,
            code: errorType ?? d.code,
          },
        }),
    );
  }

  private async handle(
    request: RecordedRequest,
    res: ServerResponse,
    next: () => Promise<{ reply: FakeReply; route?: string }>,
  ): Promise<void> {
    if (
      this.options.apiKey !== undefined &&
      request.headers.authorization !== `Bearer ${this.options.apiKey}`
    ) {
      this.sendError(res, 401);
      return;
    }
    if (request.endpoint === 'models' && request.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data: [...this.models].map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })),
        }),
      );
      return;
    }
    if ((request.endpoint !== 'chat' && request.endpoint !== 'responses') || request.method !== 'POST') {
      this.sendError(
        res,
        404,
        'invalid_request_error',
        `fake: no endpoint ${request.method} ${request.path}`,
      );
      return;
    }
    if (request.body === undefined) {
      this.sendError(res, 400, 'invalid_request_error', 'fake: the body is not JSON');
      return;
    }
    this.models.add(String(request.body.model ?? ''));
    const { reply, route } = await next();
    request.reply = reply;
    if (route !== undefined) request.route = route;
    switch (reply.type) {
      case 'http_error':
        this.sendError(res, reply.status, reply.errorType, reply.message, reply.headers, reply.rawBody);
        return;
      case 'no_response':
        return;
      case 'malformed':
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
        res.write(
          `data: ${JSON.stringify({ id: 'chatcmpl_fake_malformed', object: 'chat.completion.chunk', created: 0, model: request.body.model, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })}\n\n`,
        );
        res.end(`data: ${reply.raw ?? '{"id": "chatcmpl_fake_malformed", "choices": [{'}\n\n`);
        return;
      case 'message':
        await this.sendMessage(request, res, reply);
        return;
    }
  }

  private usageFor(
    request: RecordedRequest,
    reply: FakeMessageReply,
    blocks: FakeBlock[],
  ): OpenAIUsageFigures {
    const cache = this.cache.automatic(String(request.body.model ?? ''), openaiCacheUnits(request.body));
    const cached = reply.usage?.cache_read_input_tokens ?? cache.cache_read_input_tokens;
    const uncached = reply.usage?.input_tokens ?? cache.input_tokens;
    const completion = reply.usage?.output_tokens ?? estimateTokens(outputChars(blocks));
    request.usage = {
      input_tokens: uncached,
      output_tokens: completion,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: cached,
    };
    return { promptTokens: uncached + cached, cachedTokens: cached, completionTokens: completion };
  }

  private async sendMessage(
    request: RecordedRequest,
    res: ServerResponse,
    reply: FakeMessageReply,
  ): Promise<void> {
    const n = this.count++;
    const blocks = reply.content.map((b, j) =>
      b.type === 'tool_use' && !b.id ? { ...b, id: `call_fake_${n}_${j}` } : b,
    );
    const usage = this.usageFor(request, reply, blocks);
    const stop = reply.stopReason ?? (blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
    const model = reply.model ?? String(request.body.model ?? '');
    const created = 1_700_000_000 + n;
    const chunkChars = reply.chunkChars ?? 16;
    const errorEvent = (errorType: string, message: string) =>
      request.endpoint === 'responses'
        ? {
            event: 'error',
            data: JSON.stringify({
              type: 'error',
              code: errorType,
              message,
              param: null,
              sequence_number: 0,
            }),
          }
        : { data: JSON.stringify({ error: { message, type: errorType, param: null, code: errorType } }) };
    if (request.endpoint === 'responses') {
      const incompleteReason =
        stop === 'max_tokens' ? 'max_output_tokens' : stop === 'refusal' ? 'content_filter' : undefined;
      const events = responsesStreamEvents({
        id: reply.id ?? `resp_fake_${n}`,
        model,
        created,
        blocks,
        ...(incompleteReason ? { incompleteReason } : {}),
        chunkChars,
        usage,
      });
      await writeSse(res, events, reply, errorEvent);
      return;
    }
    const id = reply.id ?? `chatcmpl_fake_${n}`;
    if (request.body.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(wholeCompletion(id, model, created, blocks, FINISH[stop], usage)));
      return;
    }
    const events = chatStreamEvents({
      id,
      model,
      created,
      blocks,
      finishReason: FINISH[stop],
      chunkChars,
      reasoningField: this.options.reasoningField ?? 'reasoning_content',
      includeUsage: request.body.stream_options?.include_usage === true,
      usage,
    });
    await writeSse(res, events, reply, errorEvent);
  }
}

function wholeCompletion(
  id: string,
  model: string,
  created: number,
  blocks: FakeBlock[],
  finishReason: string,
  usage: OpenAIUsageFigures,
) {
  const text = blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  const calls = blocks.flatMap((b, j) =>
    b.type === 'tool_use'
      ? [
          {
            id: b.id ?? `call_fake_${j}`,
            type: 'function',
            function: { name: b.name, arguments: b.rawJson ?? JSON.stringify(b.input) },
          },
        ]
      : [],
  );
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text || null,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        },
        finish_reason: finishReason,
        logprobs: null,
      },
    ],
    usage: {
      prompt_tokens: usage.promptTokens,
      completion_tokens: usage.completionTokens,
      total_tokens: usage.promptTokens + usage.completionTokens,
      prompt_tokens_details: { cached_tokens: usage.cachedTokens },
    },
  };
}

/** Starts a fake on 127.0.0.1 with an ephemeral port. */
export function startFakeOpenAIServer(options: FakeOpenAIOptions = {}): Promise<FakeOpenAIServer> {
  return new FakeOpenAIServer(options).start();
}
