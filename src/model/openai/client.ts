/**
 * The OpenAI-compatible provider: `ModelClient` over the official `openai` SDK, for OpenAI itself
 * and any endpoint that speaks its API (llama.cpp's server, vLLM, Ollama, LM Studio, gateways).
 * See docs/agent-wire.md ("OpenAI-compatible mapping").
 *
 * - `api: 'chat'` (default): `POST <base>/chat/completions` with `stream: true`;
 *   `api: 'responses'`: `POST <base>/responses` (where the endpoint has it).
 * - Authentication: `apiKey` as `Authorization: Bearer`. A local endpoint (`baseURL` given) may
 *   run without a key; then no Authorization header is sent. Without a key and without a base URL
 *   the constructor throws.
 * - `max_tokens` is sent as `max_completion_tokens` when talking to OpenAI itself (no base URL),
 *   as `max_tokens` elsewhere (what local servers read); `maxTokensField` overrides.
 * - Retries, idle watchdog and abort as in the Anthropic provider (SDK retries off).
 * - `countTokens` is an estimate (chars/4): these endpoints have no count.
 */
import OpenAI from 'openai';
import {
  type ModelCallOptions,
  ModelError,
  type ModelClient,
  type ModelErrorKind,
  type ModelRequest,
  type ModelStreamEvent,
} from '../../core/model-client.js';
import { abortedError, type ClassifiedFailure, classifyHttpFailure, malformed } from '../errors.js';
import { estimateRequestTokens } from '../estimate.js';
import { type ResolvedRetryOptions, type RetryOptions, resolveRetryOptions } from '../retry.js';
import { nodeFetch } from '../node-fetch.js';
import { streamWithRetries } from '../retrying-stream.js';
import { IdleTimeoutError, withIdleTimeout } from '../stream-idle.js';

const isMessageStop = (e: ModelStreamEvent) => e.type === 'message_stop';
import { buildChatRequest } from './chat-request.js';
import { assembleChatStream } from './chat-stream.js';
import { buildResponsesRequest } from './responses-request.js';
import { assembleResponsesStream, InStreamApiError } from './responses-stream.js';

export interface OpenAIClientOptions {
  /** `OPENAI_API_KEY`; optional when `baseURL` names a local server that needs none. */
  apiKey?: string;
  /** `OPENAI_BASE_URL`, e.g. `http://127.0.0.1:8080/v1`; default OpenAI's API. */
  baseURL?: string;
  /** Model used for reports and as the default (`gpt-4.1`, `qwen2.5-coder`, …). */
  model?: string;
  api?: 'chat' | 'responses';
  organization?: string;
  project?: string;
  headers?: Readonly<Record<string, string>>;
  retry?: RetryOptions;
  /** Wait for the response headers, in ms (default 600,000). */
  timeoutMs?: number;
  /** Longest silence between two stream events, in ms (default 300,000). */
  streamIdleTimeoutMs?: number;
  /** Longest wait for the response to end after the complete message, in ms (default 2,000). */
  streamDrainMs?: number;
  /** Role of the system prompt message (Chat Completions; default `system`). */
  systemRole?: 'system' | 'developer';
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

function hintFor(kind: ModelErrorKind, model: string): string | undefined {
  switch (kind) {
    case 'authentication':
      return 'Check OPENAI_API_KEY.';
    case 'permission':
      return `Check that the key may use ${model}.`;
    case 'not_found':
      return `Model: ${model}; check --model and OPENAI_BASE_URL.`;
    case 'connection':
      return 'Check OPENAI_BASE_URL and that the server is running.';
    default:
      return undefined;
  }
}

/** Classifies anything the SDK or the assemblers threw (model/errors.ts has the table). */
export function classifyOpenAIError(error: unknown, model: string): ClassifiedFailure {
  const hint = (k: ModelErrorKind) => hintFor(k, model);
  if (error instanceof ModelError) return { error, retryable: error.kind === 'connection' };
  if (error instanceof IdleTimeoutError) {
    return {
      error: new ModelError(
        'connection',
        `Could not reach the API: ${error.message} ${hint('connection')}`,
        undefined,
        {
          cause: error,
        },
      ),
      retryable: true,
    };
  }
  if (error instanceof OpenAI.APIUserAbortError) return { error: abortedError(error), retryable: false };
  if (error instanceof OpenAI.APIConnectionError) {
    return classifyHttpFailure(
      { status: undefined, headers: undefined, errorType: undefined, message: error.message, cause: error },
      hint,
    );
  }
  if (error instanceof InStreamApiError) {
    return classifyHttpFailure(
      {
        status: undefined,
        headers: undefined,
        errorType: error.errorType,
        message: error.message,
        cause: error,
        inStream: true,
      },
      hint,
    );
  }
  if (error instanceof OpenAI.APIError) {
    const inner = (error.error ?? {}) as { message?: unknown };
    const message = typeof inner.message === 'string' ? inner.message : error.message;
    const errorType = (typeof error.code === 'string' ? error.code : undefined) ?? error.type;
    return classifyHttpFailure(
      {
        status: error.status,
        headers: error.headers,
        errorType,
        message,
        cause: error,
        inStream: error.status === undefined,
      },
      hint,
    );
  }
  if (error instanceof SyntaxError) {
    return {
      error: malformed(`a stream chunk is not valid JSON (${error.message})`, error),
      retryable: false,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return classifyHttpFailure(
    { status: undefined, headers: undefined, errorType: undefined, message, cause: error },
    hint,
  );
}

export class OpenAIModelClient implements ModelClient {
  readonly provider = 'openai';
  readonly model: string;
  readonly api: 'chat' | 'responses';
  private readonly sdk: OpenAI;
  private readonly retry: ResolvedRetryOptions;
  private readonly drain: { drainMs?: number };
  private readonly idleMs: number;
  private readonly maxTokensField: 'max_tokens' | 'max_completion_tokens';

  constructor(private readonly options: OpenAIClientOptions) {
    const apiKey = options.apiKey?.trim() || undefined;
    const baseURL = options.baseURL?.trim() || undefined;
    if (!apiKey && !baseURL) {
      throw new TypeError('OpenAIModelClient needs an apiKey, or a baseURL for a local server without one');
    }
    this.model = options.model ?? 'gpt-4.1';
    this.api = options.api ?? 'chat';
    this.retry = resolveRetryOptions(options.retry);
    this.drain = options.streamDrainMs === undefined ? {} : { drainMs: options.streamDrainMs };
    this.idleMs = options.streamIdleTimeoutMs ?? 300_000;
    this.maxTokensField = options.maxTokensField ?? (baseURL ? 'max_tokens' : 'max_completion_tokens');
    const logLevel = (process.env.OPENAI_LOG as 'debug' | 'info' | 'warn' | 'error' | undefined) ?? 'off';
    this.sdk = new OpenAI({
      // The SDK insists on a key; without one, the Authorization header is removed below.
      apiKey: apiKey ?? 'unused',
      baseURL: baseURL ?? null,
      organization: options.organization ?? null,
      project: options.project ?? null,
      maxRetries: 0,
      timeout: options.timeoutMs ?? 600_000,
      defaultHeaders: { ...(apiKey ? {} : { Authorization: null }), ...options.headers },
      logLevel,
      // node:http rather than Node's fetch (../node-fetch.ts), as the Anthropic client
      fetch: nodeFetch,
    });
  }

  stream(request: ModelRequest, callOptions: ModelCallOptions = {}): AsyncIterable<ModelStreamEvent> {
    const { signal, headers } = callOptions;
    const context = { model: request.model, estimatedInputTokens: estimateRequestTokens(request) };
    const requestOptions = (inner: AbortSignal) => ({
      signal: inner,
      maxRetries: 0,
      ...(headers ? { headers: { ...headers } } : {}),
    });
    const attempt =
      this.api === 'responses'
        ? () => {
            const body = buildResponsesRequest(request);
            return withIdleTimeout(
              this.idleMs,
              signal,
              async (inner) => {
                const stream = await this.sdk.responses.create(
                  body as unknown as OpenAI.Responses.ResponseCreateParamsStreaming,
                  requestOptions(inner),
                );
                return assembleResponsesStream(stream, context);
              },
              { isFinal: isMessageStop, ...this.drain },
            );
          }
        : () => {
            const body = buildChatRequest(request, {
              maxTokensField: this.maxTokensField,
              ...(this.options.systemRole ? { systemRole: this.options.systemRole } : {}),
            });
            return withIdleTimeout(
              this.idleMs,
              signal,
              async (inner) => {
                const stream = await this.sdk.chat.completions.create(
                  body as unknown as OpenAI.Chat.ChatCompletionCreateParamsStreaming,
                  requestOptions(inner),
                );
                return assembleChatStream(stream, context);
              },
              { isFinal: isMessageStop, ...this.drain },
            );
          };
    return streamWithRetries(attempt, (e) => classifyOpenAIError(e, request.model), {
      retry: this.retry,
      signal,
    });
  }

  /** An estimate (chars/4): OpenAI-compatible endpoints have no count. */
  async countTokens(request: ModelRequest): Promise<number> {
    return estimateRequestTokens(request);
  }
}
