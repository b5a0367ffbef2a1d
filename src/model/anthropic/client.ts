/**
 * The Anthropic Messages provider: `ModelClient` over the official `@anthropic-ai/sdk`
 * (docs/agent-wire.md).
 *
 * - Requests go to `POST /v1/messages?beta=true` with `stream: true` (the SDK's beta resource, so
 *   `betas` become the `anthropic-beta` header); token counts to
 *   `POST /v1/messages/count_tokens?beta=true`.
 * - Authentication: `apiKey` (sent by the SDK as `Authorization: Bearer`, and by Gantry also as
 *   `x-api-key`, the header gateways and proxies read) or `authToken` (bearer only). Exactly one
 *   must be given; the SDK's own credential lookup (environment, profile files) is never used.
 * - The SDK's retries are off (`maxRetries: 0`); `streamWithRetries` retries and reports them.
 * - Time limits: `timeoutMs` bounds the wait for the response headers (SDK timeout);
 *   `streamIdleTimeoutMs` bounds the silence between two stream events. Either failure is a
 *   `connection` error (retried when no event was yielded yet).
 * - Abort: the caller's signal cancels the HTTP request or the stream; the call ends with
 *   ModelError `aborted`.
 * - Transport: `nodeFetch` (../node-fetch.ts, node:http with fetch's semantics), not Node's fetch.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { ModelErrorKind } from '../../core/model-client.js';
import {
  type ModelCallOptions,
  ModelError,
  type ModelClient,
  type ModelRequest,
  type ModelStreamEvent,
} from '../../core/model-client.js';
import { abortedError, type ClassifiedFailure, classifyHttpFailure, malformed } from '../errors.js';
import { resolveModelAlias } from '../models.js';
import { nodeFetch } from '../node-fetch.js';
import { type ResolvedRetryOptions, type RetryOptions, resolveRetryOptions } from '../retry.js';
import { callWithRetries, streamWithRetries } from '../retrying-stream.js';
import { IdleTimeoutError, withIdleTimeout } from '../stream-idle.js';

const isMessageStop = (e: ModelStreamEvent) => e.type === 'message_stop';
import { buildAnthropicCountRequest, buildAnthropicRequest } from './request.js';
import { assembleAnthropicStream } from './stream.js';

export interface AnthropicClientOptions {
  /** API key (`ANTHROPIC_API_KEY`). Exactly one of `apiKey` and `authToken`. */
  apiKey?: string;
  /** Bearer token (`ANTHROPIC_AUTH_TOKEN`), e.g. for a gateway. */
  authToken?: string;
  /** Base URL (`ANTHROPIC_BASE_URL`); default the public API. */
  baseURL?: string;
  /** Model used when a request names an alias or for reports (`opus`, `claude-sonnet-5-5`, …). */
  model?: string;
  /** `anthropic-beta` values sent with every request. */
  betas?: readonly string[];
  /** Headers sent with every request. */
  headers?: Readonly<Record<string, string>>;
  retry?: RetryOptions;
  /** Wait for the response headers, in ms (default 600,000). */
  timeoutMs?: number;
  /** Longest silence between two stream events, in ms (default 300,000). */
  streamIdleTimeoutMs?: number;
  /** Longest wait for the response to end after the complete message, in ms (default 2,000). */
  streamDrainMs?: number;
  /** Place `cache_control` breakpoints (default true). */
  promptCaching?: boolean;
}

const DEFAULT_TIMEOUT_MS = 600_000;
/** `?beta=true`, as Claude Code addresses the beta Messages endpoints (proxies built for it route on it). */
const BETA_QUERY = Object.freeze({ beta: 'true' });
const DEFAULT_IDLE_MS = 300_000;

function hintFor(kind: ModelErrorKind, model: string): string | undefined {
  switch (kind) {
    case 'authentication':
      return 'Check ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN).';
    case 'permission':
      return `Check that the key may use ${model}.`;
    case 'not_found':
      return `Model: ${model}; check --model and ANTHROPIC_BASE_URL.`;
    case 'connection':
      return 'Check ANTHROPIC_BASE_URL and the network.';
    default:
      return undefined;
  }
}

/** Classifies anything the SDK or the assembler threw (see model/errors.ts for the table). */
export function classifyAnthropicError(error: unknown, model: string): ClassifiedFailure {
  if (error instanceof ModelError) {
    return { error, retryable: error.kind === 'connection' };
  }
  if (error instanceof IdleTimeoutError) {
    return {
      error: new ModelError(
        'connection',
        `Could not reach the API: ${error.message} ${hintFor('connection', model)}`,
        undefined,
        {
          cause: error,
        },
      ),
      retryable: true,
    };
  }
  if (error instanceof Anthropic.APIUserAbortError) return { error: abortedError(error), retryable: false };
  if (error instanceof Anthropic.APIConnectionError) {
    return classifyHttpFailure(
      { status: undefined, headers: undefined, errorType: undefined, message: error.message, cause: error },
      (k) => hintFor(k, model),
    );
  }
  if (error instanceof Anthropic.APIError) {
    const body = (error.error ?? {}) as { error?: { type?: unknown; message?: unknown }; type?: unknown };
    const inner = body.error ?? {};
    const errorType = typeof inner.type === 'string' ? inner.type : undefined;
    const message = typeof inner.message === 'string' ? inner.message : error.message;
    return classifyHttpFailure(
      {
        status: error.status,
        headers: error.headers,
        errorType,
        message,
        cause: error,
        inStream: error.status === undefined,
      },
      (k) => hintFor(k, model),
    );
  }
  if (error instanceof SyntaxError) {
    return {
      error: malformed(`a stream event is not valid JSON (${error.message})`, error),
      retryable: false,
    };
  }
  // Body read failures (socket reset mid-stream) surface as plain errors from fetch.
  const message = error instanceof Error ? error.message : String(error);
  return classifyHttpFailure(
    { status: undefined, headers: undefined, errorType: undefined, message, cause: error },
    (k) => hintFor(k, model),
  );
}

export class AnthropicModelClient implements ModelClient {
  readonly provider = 'anthropic';
  /** The configured model's wire id. */
  readonly model: string;
  private readonly sdk: Anthropic;
  private readonly retry: ResolvedRetryOptions;
  private readonly drain: { drainMs?: number };
  private readonly idleMs: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: AnthropicClientOptions) {
    const apiKey = options.apiKey?.trim() || undefined;
    const authToken = options.authToken?.trim() || undefined;
    if ((apiKey ? 1 : 0) + (authToken ? 1 : 0) !== 1) {
      throw new TypeError('AnthropicModelClient needs exactly one of apiKey and authToken');
    }
    this.model = resolveModelAlias('anthropic', options.model ?? 'opus');
    this.retry = resolveRetryOptions(options.retry);
    this.drain = options.streamDrainMs === undefined ? {} : { drainMs: options.streamDrainMs };
    this.idleMs = options.streamIdleTimeoutMs ?? DEFAULT_IDLE_MS;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const logLevel = (process.env.ANTHROPIC_LOG as 'debug' | 'info' | 'warn' | 'error' | undefined) ?? 'off';
    this.sdk = new Anthropic({
      ...(apiKey ? { apiKey } : { authToken: authToken! }),
      baseURL: options.baseURL?.trim() || null,
      maxRetries: 0,
      timeout: this.timeoutMs,
      defaultHeaders: { ...(apiKey ? { 'x-api-key': apiKey } : {}), ...options.headers },
      logLevel,
      openTelemetry: false,
      // node:http rather than Node's fetch: cheaper at the first request and at every one after
      fetch: nodeFetch,
    });
  }

  stream(request: ModelRequest, callOptions: ModelCallOptions = {}): AsyncIterable<ModelStreamEvent> {
    const wire = buildAnthropicRequest(request, {
      ...(this.options.betas ? { betas: this.options.betas } : {}),
      promptCaching: this.options.promptCaching ?? true,
    });
    const model = wire.body.model as string;
    const { signal, headers } = callOptions;
    const attempt = (): AsyncIterable<ModelStreamEvent> =>
      withIdleTimeout(
        this.idleMs,
        signal,
        async (innerSignal) => {
          const params = { ...wire.body, ...(wire.betas.length > 0 ? { betas: wire.betas } : {}) };
          const stream = await this.sdk.beta.messages.create(
            params as unknown as Anthropic.Beta.MessageCreateParamsStreaming,
            {
              signal: innerSignal,
              maxRetries: 0,
              query: BETA_QUERY,
              ...(headers ? { headers: { ...headers } } : {}),
            },
          );
          return assembleAnthropicStream(stream);
        },
        { isFinal: isMessageStop, ...this.drain },
      );
    return streamWithRetries(attempt, (e) => classifyAnthropicError(e, model), {
      retry: this.retry,
      signal,
    });
  }

  async countTokens(request: ModelRequest, callOptions: ModelCallOptions = {}): Promise<number> {
    const { body, betas } = buildAnthropicCountRequest(request, {
      ...(this.options.betas ? { betas: this.options.betas } : {}),
    });
    const model = body.model as string;
    const { signal, headers } = callOptions;
    const result = await callWithRetries(
      () =>
        this.sdk.beta.messages.countTokens(
          {
            ...body,
            ...(betas.length > 0 ? { betas } : {}),
          } as unknown as Anthropic.Beta.MessageCountTokensParams,
          {
            ...(signal ? { signal } : {}),
            maxRetries: 0,
            query: BETA_QUERY,
            ...(headers ? { headers: { ...headers } } : {}),
          },
        ),
      (e) => classifyAnthropicError(e, model),
      { retry: this.retry, signal },
    );
    const tokens = (result as { input_tokens?: unknown }).input_tokens;
    if (typeof tokens !== 'number' || !Number.isFinite(tokens)) {
      throw malformed('count_tokens returned no input_tokens');
    }
    return tokens;
  }
}
