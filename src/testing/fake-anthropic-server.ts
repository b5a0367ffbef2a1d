/**
 * A scripted fake of the Anthropic Messages API on 127.0.0.1 (port 0), for tests and benches that
 * drive the real `@anthropic-ai/sdk` (or any Messages API client, Claude Code included) against it.
 *
 * Endpoints:
 * - `POST /v1/messages` (with or without `?beta=true`): takes the next script reply (see
 *   `fake-model-script.ts`). A message is streamed as the API streams it — `message_start`, `ping`,
 *   per block `content_block_start` / `content_block_delta` (`text_delta`, `input_json_delta`,
 *   `thinking_delta`, `signature_delta`) / `content_block_stop`, `message_delta` (stop reason,
 *   cumulative usage), `message_stop` — each as `event: <type>` + `data: <json>`. A request with
 *   `stream: false` gets the whole message as JSON. Errors are JSON bodies
 *   `{"type":"error","error":{"type","message"},"request_id"}` with a `request-id` header.
 * - `POST /v1/messages/count_tokens`: `{"input_tokens": n}` by the chars/4 estimator.
 * - anything else: 404 `not_found_error`.
 *
 * Usage: `input_tokens` / `cache_creation_input_tokens` / `cache_read_input_tokens` come from the
 * simulated prompt cache (`fake-prompt-cache.ts`), `output_tokens` from ceil(chars/4) of the
 * streamed text, thinking and input JSON; a reply's `usage` overrides any field.
 *
 * Authentication: with `apiKey` set, a request must carry `x-api-key: <key>` or
 * `authorization: Bearer <key>`, else 401 `authentication_error` (not a script entry).
 *
 * Example:
 * ```ts
 * const fake = await startFakeAnthropicServer({
 *   apiKey: 'test-key',
 *   script: [reply.toolUse('Read', { file_path: '/x' }), reply.text('Done.')],
 *   routes: [{ name: 'subagent', when: (r) => agentIdOf(r) !== undefined, script: [reply.text('Sub done.')] }],
 * });
 * const client = new AnthropicModelClient({ apiKey: 'test-key', baseURL: fake.url });
 * // … fake.messageRequests[0].body.system, fake.messageRequests[1].usage, …
 * await fake.close();
 * ```
 */
import type { ServerResponse } from 'node:http';
import {
  type FakeHttpHandlers,
  FakeHttpServer,
  type RecordedRequest,
  type SseEvent,
  writeSse,
} from './fake-http.js';
import type { FakeBlock, FakeMessageReply, FakeReply, FakeRoute, ScriptEntry } from './fake-model-script.js';
import { chunks, estimateTokens } from './fake-model-script.js';
import { anthropicCacheUnits, canonicalJson, FakePromptCache } from './fake-prompt-cache.js';

export interface FakeAnthropicOptions {
  script?: ScriptEntry[];
  routes?: FakeRoute[];
  /** Require this key (`x-api-key` or bearer). */
  apiKey?: string;
  /** Smallest cacheable prefix in tokens (default 0). */
  minCacheableTokens?: number;
  /** Override the count_tokens answer. */
  countTokens?: (request: RecordedRequest) => number;
}

const DEFAULT_ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const DEFAULT_MESSAGES: Readonly<Record<string, string>> = {
  invalid_request_error: 'Invalid request',
  authentication_error: 'invalid x-api-key',
  permission_error: 'Your API key does not have permission to use the specified resource.',
  not_found_error: 'Not found',
  request_too_large: 'Request exceeds the maximum allowed number of bytes.',
  rate_limit_error: 'Number of request tokens has exceeded your per-minute rate limit',
  api_error: 'Internal server error',
  overloaded_error: 'Overloaded',
};

function errorBody(errorType: string, message: string, requestId: string): string {
  return JSON.stringify({ type: 'error', error: { type: errorType, message }, request_id: requestId });
}

function blockOutputChars(block: FakeBlock): number {
  switch (block.type) {
    case 'text':
      return block.text.length;
    case 'thinking':
      return block.thinking.length;
    case 'redacted_thinking':
      return block.data.length;
    case 'tool_use':
      return (block.rawJson ?? JSON.stringify(block.input)).length;
  }
}

export class FakeAnthropicServer {
  readonly cache: FakePromptCache;
  private readonly http: FakeHttpServer;
  private messageCount = 0;

  constructor(private readonly options: FakeAnthropicOptions = {}) {
    this.cache = new FakePromptCache({ minCacheableTokens: options.minCacheableTokens ?? 0 });
    const handlers: FakeHttpHandlers = {
      endpointOf: (path) =>
        path === '/v1/messages'
          ? 'messages'
          : path === '/v1/messages/count_tokens'
            ? 'count_tokens'
            : 'other',
      handle: (request, res, next) => this.handle(request, res, next),
    };
    this.http = new FakeHttpServer(options, handlers);
  }

  /** Base URL for `ANTHROPIC_BASE_URL` / `baseURL` (`http://127.0.0.1:<port>`). */
  get url(): string {
    return this.http.url;
  }

  /** Every request, in arrival order. */
  get requests(): readonly RecordedRequest[] {
    return this.http.requests;
  }

  /** `POST /v1/messages` requests only. */
  get messageRequests(): readonly RecordedRequest[] {
    return this.http.requests.filter((r) => r.endpoint === 'messages');
  }

  /** `POST /v1/messages/count_tokens` requests only. */
  get countTokensRequests(): readonly RecordedRequest[] {
    return this.http.requests.filter((r) => r.endpoint === 'count_tokens');
  }

  /** Main-script entries left. */
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

  private authorised(request: RecordedRequest): boolean {
    const key = this.options.apiKey;
    if (key === undefined) return true;
    return request.headers['x-api-key'] === key || request.headers.authorization === `Bearer ${key}`;
  }

  private requestId(request: RecordedRequest): string {
    return `req_fake_${request.index}`;
  }

  private sendError(
    res: ServerResponse,
    request: RecordedRequest,
    status: number,
    errorType?: string,
    message?: string,
    headers: Record<string, string> = {},
    rawBody?: string,
  ): void {
    const type =
      errorType ?? DEFAULT_ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    res.writeHead(status, {
      'content-type': 'application/json',
      'request-id': this.requestId(request),
      ...headers,
    });
    res.end(rawBody ?? errorBody(type, message ?? DEFAULT_MESSAGES[type] ?? type, this.requestId(request)));
  }

  private async handle(
    request: RecordedRequest,
    res: ServerResponse,
    next: () => Promise<{ reply: FakeReply; route?: string }>,
  ): Promise<void> {
    if (request.endpoint === 'other' || request.method !== 'POST') {
      this.sendError(
        res,
        request,
        404,
        'not_found_error',
        `fake: no endpoint ${request.method} ${request.path}`,
      );
      return;
    }
    if (!this.authorised(request)) {
      this.sendError(res, request, 401);
      return;
    }
    if (request.body === undefined) {
      this.sendError(res, request, 400, 'invalid_request_error', 'fake: the body is not JSON');
      return;
    }
    if (request.endpoint === 'count_tokens') {
      const tokens =
        this.options.countTokens?.(request) ??
        estimateTokens(anthropicCacheUnits(request.body).reduce((n, u) => n + u.key.length, 0));
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': this.requestId(request) });
      res.end(JSON.stringify({ input_tokens: tokens }));
      return;
    }
    const { reply, route } = await next();
    request.reply = reply;
    if (route !== undefined) request.route = route;
    switch (reply.type) {
      case 'http_error':
        this.sendError(
          res,
          request,
          reply.status,
          reply.errorType,
          reply.message,
          reply.headers,
          reply.rawBody,
        );
        return;
      case 'no_response':
        return;
      case 'malformed': {
        const start = this.messageStart(request, { type: 'message', content: [] }, 'msg_fake_malformed');
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'request-id': this.requestId(request),
        });
        res.write(`event: message_start\ndata: ${JSON.stringify(start)}\n\n`);
        res.end(
          `event: content_block_start\ndata: ${reply.raw ?? '{"type": "content_block_start", "index": 0,'}\n\n`,
        );
        return;
      }
      case 'message':
        await this.sendMessage(request, res, reply);
        return;
    }
  }

  private messageStart(request: RecordedRequest, reply: FakeMessageReply, id: string) {
    const cache = this.cache.explicit(String(request.body.model ?? ''), anthropicCacheUnits(request.body));
    const usage = {
      input_tokens: cache.input_tokens,
      cache_creation_input_tokens: cache.cache_creation_input_tokens,
      cache_read_input_tokens: cache.cache_read_input_tokens,
      output_tokens: 1,
      ...reply.usage,
    };
    return {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: reply.model ?? request.body.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
    };
  }

  private async sendMessage(
    request: RecordedRequest,
    res: ServerResponse,
    reply: FakeMessageReply,
  ): Promise<void> {
    const n = this.messageCount++;
    const id = reply.id ?? `msg_fake_${n}`;
    const start = this.messageStart(request, reply, id);
    const chunkChars = reply.chunkChars ?? 16;
    const blocks = reply.content.map((b, j) =>
      b.type === 'tool_use' && !b.id ? { ...b, id: `toolu_fake_${n}_${j}` } : b,
    );
    const outputTokens =
      reply.usage?.output_tokens ?? estimateTokens(blocks.reduce((sum, b) => sum + blockOutputChars(b), 0));
    const stopReason =
      reply.stopReason ?? (blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
    const finalUsage = { ...start.message.usage, output_tokens: outputTokens };
    request.usage = finalUsage;

    if (request.body.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': this.requestId(request) });
      res.end(
        JSON.stringify({
          ...start.message,
          content: blocks.map((b) => wholeBlock(b, n)),
          stop_reason: stopReason,
          usage: finalUsage,
        }),
      );
      return;
    }

    const events: SseEvent[] = [];
    const push = (data: Record<string, unknown>) =>
      events.push({ event: String(data.type), data: JSON.stringify(data) });
    push(start);
    push({ type: 'ping' });
    blocks.forEach((block, index) => {
      switch (block.type) {
        case 'text':
          push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
          for (const piece of chunks(block.text, chunkChars)) {
            push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
          }
          break;
        case 'thinking':
          push({
            type: 'content_block_start',
            index,
            content_block: { type: 'thinking', thinking: '', signature: '' },
          });
          for (const piece of chunks(block.thinking, chunkChars)) {
            push({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } });
          }
          push({
            type: 'content_block_delta',
            index,
            delta: { type: 'signature_delta', signature: block.signature ?? fakeSignature(block.thinking) },
          });
          break;
        case 'redacted_thinking':
          push({
            type: 'content_block_start',
            index,
            content_block: { type: 'redacted_thinking', data: block.data },
          });
          break;
        case 'tool_use':
          push({
            type: 'content_block_start',
            index,
            content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
          });
          for (const piece of chunks(block.rawJson ?? JSON.stringify(block.input), chunkChars)) {
            push({
              type: 'content_block_delta',
              index,
              delta: { type: 'input_json_delta', partial_json: piece },
            });
          }
          break;
      }
      push({ type: 'content_block_stop', index });
    });
    push({
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: finalUsage,
    });
    push({ type: 'message_stop' });
    await writeSse(
      res,
      events,
      reply,
      (errorType, message) => ({
        event: 'error',
        data: JSON.stringify({ type: 'error', error: { type: errorType, message } }),
      }),
      { 'request-id': this.requestId(request) },
    );
  }
}

/** A deterministic stand-in for a thinking signature (the fake does not verify signatures). */
export function fakeSignature(thinkingText: string): string {
  return `sig_fake_${Buffer.from(canonicalJson(thinkingText)).toString('base64url').slice(0, 24)}`;
}

function wholeBlock(block: FakeBlock, n: number): Record<string, unknown> {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'thinking':
      return {
        type: 'thinking',
        thinking: block.thinking,
        signature: block.signature ?? fakeSignature(block.thinking),
      };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    case 'tool_use':
      return { type: 'tool_use', id: block.id ?? `toolu_fake_${n}`, name: block.name, input: block.input };
  }
}

/** Starts a fake on 127.0.0.1 with an ephemeral port. */
export function startFakeAnthropicServer(options: FakeAnthropicOptions = {}): Promise<FakeAnthropicServer> {
  return new FakeAnthropicServer(options).start();
}
