/**
 * The model seam: what `loop/`, the Agent tool, WebFetch's prompt step and the auto-mode classifier
 * use to talk to a language model. Providers live in `model/` (Anthropic Messages, OpenAI-compatible)
 * and implement this interface; nothing above `model/` imports a provider SDK.
 *
 * Contract:
 * - `stream` yields events in order and ends with exactly one `message_stop` carrying the complete
 *   assistant message, or throws a `ModelError`. It honours `signal` (abort ends the stream with a
 *   `ModelError` of kind `aborted`).
 * - Retries (429/529/5xx/connection) happen inside the provider and are reported as `retry` events
 *   before the attempt that follows; the events of a failed attempt are never yielded.
 * - A `tool_use` block is reported complete (`content_block_stop` with the parsed input) as soon as
 *   the provider has its whole input, so the loop can start the tool before the message ends.
 */
import type {
  AssistantContentBlock,
  AssistantMessage,
  Message,
  ServerToolContentBlock,
  StopReason,
  SystemBlock,
  Usage,
} from './messages.js';
import type { JSONSchemaObject } from './tool.js';

/** One entry of the request's `tools` array, as the model sees it. */
export interface ModelToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly input_schema: Readonly<JSONSchemaObject>;
  /** Listed by name only until loaded by ToolSearch (Anthropic `defer_loading`). */
  readonly defer_loading?: boolean;
}

/** Extended thinking requested from the model. */
export type ThinkingRequest =
  | { type: 'disabled' }
  | { type: 'enabled'; budgetTokens: number }
  | { type: 'adaptive' };

export interface ModelRequest {
  /** Provider model id, e.g. `claude-sonnet-4-5` or an OpenAI-compatible model name. */
  model: string;
  system: readonly SystemBlock[];
  messages: readonly Message[];
  tools: readonly ModelToolDefinition[];
  maxTokens: number;
  thinking?: ThinkingRequest;
  /**
   * The end of a prefix that other requests share: `messages[message].content[block]` (a fork's
   * context before its directive, which its sibling forks send too). Providers with explicit
   * prompt caching keep a breakpoint there besides the moving one; others ignore it. Indexes that
   * do not exist are ignored.
   */
  sharedPrefixEnd?: { readonly message: number; readonly block: number };
  /** Provider-specific extras passed through unchanged (e.g. Anthropic `metadata`, beta headers). */
  extra?: Readonly<Record<string, unknown>>;
}

export interface ModelCallOptions {
  signal?: AbortSignal;
  /** Extra HTTP headers for this request (e.g. an agent id). */
  headers?: Readonly<Record<string, string>>;
}

/** Events of one streamed model response. */
export type ModelStreamEvent =
  | { type: 'message_start'; id: string; model: string; usage: Usage }
  | {
      type: 'content_block_start';
      index: number;
      blockType: AssistantContentBlock['type'];
      /** For `tool_use` blocks: the call's id and tool name, known from the start. */
      toolUse?: { id: string; name: string };
    }
  | { type: 'text_delta'; index: number; text: string }
  | { type: 'thinking_delta'; index: number; thinking: string }
  /** Raw JSON fragments of a tool_use input as they stream (for progress display only). */
  | { type: 'input_json_delta'; index: number; partialJson: string }
  /**
   * A block is complete; for `tool_use` its `input` is parsed. When the streamed input JSON did not
   * parse, `input` is the raw text (never a valid tool input, so validation fails closed) and
   * `inputError` says why; the loop answers that call with an error result.
   */
  | { type: 'content_block_stop'; index: number; block: AssistantContentBlock; inputError?: string }
  | { type: 'message_delta'; stopReason: StopReason | null; usage: Partial<Usage> }
  | {
      type: 'message_stop';
      id: string;
      /** The assistant message, without server-tool blocks (what the conversation keeps). */
      message: AssistantMessage;
      stopReason: StopReason | null;
      usage: Usage;
      /**
       * Present only when the response held server-tool blocks (Anthropic `server_tool_use`,
       * `web_search_tool_result`): every block of the response in order, those included. A caller
       * that asked for a server tool (WebSearch) reads this; everyone else ignores it.
       */
      responseContent?: readonly (AssistantContentBlock | ServerToolContentBlock)[];
    }
  /** A failed attempt will be retried after `delayMs`; `kind` classifies the failure (for `api_retry` reports). */
  | {
      type: 'retry';
      attempt: number;
      maxRetries: number;
      delayMs: number;
      status?: number;
      kind?: ModelErrorKind;
      message: string;
    };

export type ModelErrorKind =
  | 'aborted'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'invalid_request'
  | 'prompt_too_long'
  | 'rate_limit'
  | 'overloaded'
  | 'server'
  | 'connection'
  | 'malformed_response';

/** A model call that failed for good (after retries), with the HTTP status when there was one. */
export class ModelError extends Error {
  override readonly name = 'ModelError';
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface ModelClient {
  /** `anthropic`, `openai`, … (for cost accounting and reports). */
  readonly provider: string;
  /** Streams one response. See the module contract. */
  stream(request: ModelRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamEvent>;
  /** Input tokens `request` would use (the provider's count endpoint, or an estimate where it has none). */
  countTokens(request: ModelRequest, options?: ModelCallOptions): Promise<number>;
}
