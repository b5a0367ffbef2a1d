/**
 * The events `query()` yields (one JSON line each in stream-json) and its result, re-exported by
 * loop/types.ts.
 */
import type { ToolResultBlock } from '../core/content.js';
import type { AssistantContentBlock, Message, StopReason, UserContentBlock } from '../core/messages.js';
import type { PermissionMode } from '../core/permission-types.js';
import type { ModelUsageEntry, ResultUsage } from '../model/cost.js';
import type { UserInputMessage } from './types.js';

// ─────────────────────────────────────────────────────────────────────────────────────────────
// Events (one JSON line each in stream-json)
// ─────────────────────────────────────────────────────────────────────────────────────────────

/** Fields shared by every event. */
interface EventBase {
  session_id: string;
  uuid: string;
}

/** Labels a sub-agent's events carry. */
interface AgentLabels {
  /** The spawning Agent call's tool_use id; `null` for the main session. */
  parent_tool_use_id: string | null;
  agent_id?: string;
  subagent_type?: string;
}

/** `system/init`: first event of every prompt's turn. */
export interface InitEvent extends EventBase {
  type: 'system';
  subtype: 'init';
  cwd: string;
  /** Tool names as the session has them. */
  tools: string[];
  mcp_servers: { name: string; status: string; source?: string }[];
  model: string;
  permissionMode: PermissionMode;
  slash_commands: string[];
  apiKeySource: string;
  claude_code_version: string;
  output_style: string;
  agents: string[];
  skills: string[];
  plugins: { name: string; path: string; source?: string }[];
  [extra: string]: unknown;
}

/** One content block of a model response; every event of one response shares `message.id`. */
export interface AssistantEvent extends EventBase, AgentLabels {
  type: 'assistant';
  message: {
    id: string;
    type: 'message';
    role: 'assistant';
    model: string;
    /** Exactly one block. */
    content: [AssistantContentBlock];
    stop_reason: StopReason | null;
    stop_sequence: null;
    usage: {
      input_tokens: number;
      output_tokens: number;
      cache_creation_input_tokens: number;
      cache_read_input_tokens: number;
    };
    context_management: null;
  };
  timestamp: string;
  /** Set when the response failed (the event carries what arrived before the error). */
  error?: string;
}

/** Per-call permission facts a `user` tool-result event carries (Claude Code's `tool_result_meta`). */
export interface ToolResultMeta {
  id: string;
  permission_decision?: { decision: 'accept' | 'reject'; source: string; reason_type?: string };
  non_execution_kind?: 'user-rejected' | 'refused' | 'not-started';
}

/**
 * A user message: one `tool_result` (with `tool_use_result`, the tool's structured output or the
 * error string), a prompt echo, or a text the loop added (`isSynthetic`: a Stop hook's reason, an
 * interruption note, a prompt folded into a turn).
 */
export interface UserEvent extends EventBase, AgentLabels {
  type: 'user';
  message: { role: 'user'; content: string | UserContentBlock[] };
  timestamp: string;
  tool_use_result?: unknown;
  tool_result_meta?: ToolResultMeta[];
  isSynthetic?: boolean;
}

/** A raw streaming event of the model response (only with `includePartialMessages`). */
export interface StreamEvent extends EventBase, AgentLabels {
  type: 'stream_event';
  /** Anthropic Messages streaming event shape (`message_start`, `content_block_delta`, …). */
  event: Record<string, unknown> & { type: string };
}

/** A failed model request will be retried. */
export interface ApiRetryEvent extends EventBase {
  type: 'system';
  subtype: 'api_retry';
  attempt: number;
  max_retries: number;
  retry_delay_ms: number;
  error_status: number | null;
  /** Failure category (`overloaded`, `rate_limit`, `server`, `connection`, …). */
  error: string;
  message: string;
}

/** The conversation was compacted; everything before the boundary is replaced by a summary. */
export interface CompactBoundaryEvent extends EventBase {
  type: 'system';
  subtype: 'compact_boundary';
  compact_metadata: { trigger: 'manual' | 'auto'; pre_tokens: number; post_tokens: number };
}

/** A tool call was denied (by a rule, a hook, the classifier, the host, or because nobody could be asked). */
export interface PermissionDeniedEvent extends EventBase {
  type: 'system';
  subtype: 'permission_denied';
  tool_name: string;
  tool_use_id: string;
  message: string;
  decision_reason_type?: string;
  agent_id?: string;
  /** The denied call's input (set on a sub-agent's denials forwarded to its parent). */
  tool_input?: Record<string, unknown>;
}

/** A notice for the person: a hook's `systemMessage`, a block reason, a breaker firing. */
export interface InformationalEvent extends EventBase {
  type: 'system';
  subtype: 'informational';
  content: string;
  level: 'info' | 'warning';
}

/** Background-task lifecycle (emitted by the agents room through the session; defined here for the faces). */
export interface TaskStartedEvent extends EventBase {
  type: 'system';
  subtype: 'task_started';
  task_id: string;
  tool_use_id: string;
  description: string;
  subagent_type?: string;
  is_backgrounded: boolean;
  task_type: string;
  prompt?: string;
}
export interface TaskProgressEvent extends EventBase {
  type: 'system';
  subtype: 'task_progress';
  task_id: string;
  tool_use_id: string;
  description: string;
  usage: { total_tokens: number; tool_uses: number; duration_ms: number };
  last_tool_name?: string;
}
export interface TaskUpdatedEvent extends EventBase {
  type: 'system';
  subtype: 'task_updated';
  task_id: string;
  patch: { status: string; end_time?: number };
}
export interface TaskNotificationEvent extends EventBase {
  type: 'system';
  subtype: 'task_notification';
  task_id: string;
  tool_use_id: string;
  status: string;
  output_file?: string;
  summary: string;
  usage?: { total_tokens: number; tool_uses: number; duration_ms: number };
}

/** A tool is still running (about once a second while it reports progress). */
export interface ToolProgressMessage extends EventBase {
  type: 'tool_progress';
  tool_use_id: string;
  tool_name: string;
  parent_tool_use_id: string | null;
  elapsed_time_seconds: number;
  /** The tool's own progress payload, when it sent one (Gantry extension). */
  data?: unknown;
}

/**
 * Progress a tool yields to put an event into the session's stream unchanged, instead of a
 * `tool_progress`: how the Agent tool forwards its sub-agent's events (with `parent_tool_use_id`
 * set) and the `system/task_*` lifecycle. The loop yields `event` as it is, unthrottled.
 */
export interface ForwardedEventProgress {
  kind: 'query-event';
  event: QueryEvent;
}

/** A call that was denied, as listed in `result.permission_denials`. */
export interface PermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: Record<string, unknown>;
  /** The sub-agent whose call was denied (absent for the session's own calls). */
  agent_id?: string;
}

/** Why the turn ended. */
export type TerminalReason =
  | 'completed'
  | 'max_turns'
  | 'max_budget_usd'
  | 'tool_call_budget'
  | 'aborted_streaming'
  | 'aborted_tools'
  | 'api_error'
  | 'prompt_too_long'
  | 'prompt_blocked'
  | 'hook_stopped'
  | 'internal_error';

export type ResultSubtype =
  | 'success'
  | 'error_max_turns'
  | 'error_max_budget_usd'
  | 'error_during_execution'
  /** A face asked for structured output and the model never gave a valid one (`gantry -p --json-schema`). */
  | 'error_max_structured_output_retries';

/**
 * The end of one prompt's turn. Exactly one per prompt. Model errors keep Claude Code's shape:
 * `subtype: "success"`, `is_error: true`, `result: "API Error: <status> <message>"`,
 * `terminal_reason: "api_error"`.
 */
export interface ResultEvent extends EventBase {
  type: 'result';
  subtype: ResultSubtype;
  is_error: boolean;
  /** The final assistant text (absent for the error subtypes). */
  result?: string;
  errors?: string[];
  /** Model requests made for this prompt. */
  num_turns: number;
  duration_ms: number;
  duration_api_ms: number;
  stop_reason: StopReason | null;
  total_cost_usd: number;
  usage: ResultUsage;
  modelUsage: Record<string, ModelUsageEntry>;
  permission_denials: PermissionDenial[];
  terminal_reason: TerminalReason;
  api_error_status?: number;
  /** Index of this result in the session (0 for the first prompt). */
  result_index: number;
  /** The answer as structured data, when the face asked for it (`--json-schema`; set by the face). */
  structured_output?: unknown;
}

export type SystemEvent =
  | InitEvent
  | ApiRetryEvent
  | CompactBoundaryEvent
  | PermissionDeniedEvent
  | InformationalEvent
  | TaskStartedEvent
  | TaskProgressEvent
  | TaskUpdatedEvent
  | TaskNotificationEvent;

/** Every event `query` yields. */
export type QueryEvent =
  | SystemEvent
  | AssistantEvent
  | UserEvent
  | StreamEvent
  | ToolProgressMessage
  | ResultEvent;

/** What the generator returns when the session is over. */
export interface QueryResult {
  /** The last prompt's result (also yielded as an event). */
  result: ResultEvent | undefined;
  /** Every result of the session, in order. */
  results: ResultEvent[];
  /** The conversation as it would be sent next. */
  messages: Message[];
  sessionId: string;
  /** Where the transcript was written (absent when not persisted). */
  transcriptPath?: string;
}

/**
 * The running session: an async generator of events (consume it with `for await`), plus the
 * controls a face needs while it runs (the Agent SDK's `Query`).
 */
export interface Query extends AsyncGenerator<QueryEvent, QueryResult, void> {
  readonly sessionId: string;
  /** Ends the running turn (every tool_use still gets its result); the session goes on with queued input. */
  interrupt(): Promise<void>;
  /** Changes the permission mode for later calls. */
  setPermissionMode(mode: PermissionMode): Promise<void>;
  /** Changes the model for later requests (undefined: back to the session's model). */
  setModel(model?: string): Promise<void>;
  /**
   * Feeds another user message. While a turn runs it is queued: delivered inside the turn's next
   * tool-result message when the turn goes on, else as the next prompt. Throws once input ended.
   */
  pushInput(message: UserInputMessage | string): void;
  /**
   * Hands `text` to the model as the loop's own (synthetic) message, as `services.inbox` does: in
   * the running turn's next tool-result message, or as a new turn when the loop is idle, even after
   * the input ended. False when the session no longer runs (nothing was delivered).
   */
  deliver(text: string): boolean;
  /** No more input: the session ends after the queued prompts. */
  endInput(): void;
  /** Aborts everything now (like `abortSignal`). */
  close(): void;
}

/** The tool results one model response produced, as the loop records them (for transcripts and hooks). */
export interface RecordedToolResult {
  block: ToolResultBlock;
  toolName: string;
  input: Record<string, unknown> | undefined;
  /** The tool's structured output, or the error text for failed calls (`toolUseResult`). */
  toolUseResult: unknown;
  meta: ToolResultMeta;
}
