/**
 * Conversation messages and content blocks in the shape of the Anthropic Messages API, which is
 * also the shape Claude Code writes to its transcripts. `model/` converts these to and from each
 * provider's wire format (OpenAI-compatible endpoints included); `loop/`, `agents/` and the runtime
 * speak only these types.
 *
 * Source: the Messages API reference (content block types `text`, `image`, `document`, `tool_use`,
 * `tool_result`, `thinking`, `redacted_thinking`, and `tool_reference` for tool search); see
 * docs/agent-wire.md for the structure Gantry keeps stable across turns.
 */
import type {
  DocumentBlock,
  ImageBlock,
  TextBlock,
  ToolReferenceBlock,
  ToolResultBlock,
  ToolUseBlock,
} from './content.js';

export type { ToolReferenceBlock };

/** A prompt-cache breakpoint marker (`cache_control` on a block). */
export interface CacheControl {
  type: 'ephemeral';
  /** Optional time to live, e.g. `'1h'`; absent means the provider default (5 minutes). */
  ttl?: '5m' | '1h';
}

/** Extended-thinking output. `signature` must be sent back unchanged on later requests. */
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

/** Thinking the provider returned encrypted; sent back unchanged. */
export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

/** Blocks a user message may carry. */
export type UserContentBlock = TextBlock | ImageBlock | DocumentBlock | ToolResultBlock;

/** Blocks an assistant message may carry. */
export type AssistantContentBlock = TextBlock | ToolUseBlock | ThinkingBlock | RedactedThinkingBlock;

/** Any content block of a conversation message. */
export type MessageContentBlock = UserContentBlock | AssistantContentBlock;

export interface UserMessage {
  role: 'user';
  content: string | UserContentBlock[];
}

export interface AssistantMessage {
  role: 'assistant';
  content: AssistantContentBlock[];
}

/** One conversation message as sent to the model. */
export type Message = UserMessage | AssistantMessage;

/** One block of the request's `system` array. */
export interface SystemBlock {
  type: 'text';
  text: string;
  cache_control?: CacheControl;
}

/** Token usage of one model response, in the Messages API's field names. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  /** Input tokens written to the prompt cache by this request. */
  cache_creation_input_tokens: number;
  /** Input tokens read from the prompt cache by this request. */
  cache_read_input_tokens: number;
}

/** Why the model stopped (Messages API `stop_reason`; OpenAI finish reasons are mapped onto these). */
export type StopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded';

/** A zero usage record. */
export function emptyUsage(): Usage {
  return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

/** Adds `b` into a copy of `a`. */
export function addUsage(a: Usage, b: Partial<Usage>): Usage {
  return {
    input_tokens: a.input_tokens + (b.input_tokens ?? 0),
    output_tokens: a.output_tokens + (b.output_tokens ?? 0),
    cache_creation_input_tokens: a.cache_creation_input_tokens + (b.cache_creation_input_tokens ?? 0),
    cache_read_input_tokens: a.cache_read_input_tokens + (b.cache_read_input_tokens ?? 0),
  };
}
