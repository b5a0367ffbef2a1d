/**
 * The loop's public contract: `query(options)` and everything a host (the `gantry -p` face, the
 * interactive TUI, a TypeScript embedder through `createAgent`) passes in and gets out.
 *
 * Events are shaped like the messages of the Claude Agent SDK, which are also the lines of
 * `claude -p --output-format stream-json --verbose` (Claude Code documentation, "Agent SDK
 * reference — TypeScript", `SDKMessage`): a host serialises each event with `JSON.stringify` and
 * writes one per line, unchanged. Field names are therefore snake_case where the SDK's are, and
 * camelCase where the SDK's are (`permissionMode`, `modelUsage`). See docs/loop.md.
 *
 * Stability: this file is the contract other rooms and faces build on. Extend it (new optional
 * fields, new event subtypes); never rename or remove.
 */
import type { ToolResultBlock } from '../core/content.js';
import type { AssistantContentBlock, Message, StopReason, UserContentBlock } from '../core/messages.js';
import type { ModelClient, ModelToolDefinition, ThinkingRequest } from '../core/model-client.js';
import type { PermissionDecider, PermissionMode } from '../core/permission-types.js';
import type { AnyTool } from '../core/tool.js';
import type { CostState, ModelUsageEntry, ResultUsage } from '../model/cost.js';
import type { PermissionEngine } from '../permissions/engine.js';
import type { HookMatcherConfig } from '../permissions/settings/types.js';

export type { PermissionMode };

// ─────────────────────────────────────────────────────────────────────────────────────────────
// Input
// ─────────────────────────────────────────────────────────────────────────────────────────────

/**
 * A user message fed to a running session: the Agent SDK's `SDKUserMessage`, which is also one line
 * of `--input-format stream-json`. `session_id` and `uuid` are accepted and ignored (the session
 * assigns its own).
 */
export interface UserInputMessage {
  type: 'user';
  message: { role: 'user'; content: string | UserContentBlock[] };
  parent_tool_use_id?: string | null;
  session_id?: string;
  uuid?: string;
  /** The host composed this message itself (not typed by a person); recorded, not interpreted. */
  isSynthetic?: boolean;
}

/**
 * What `query` starts with: one prompt (a string or content blocks; the session ends after it), or
 * an async iterable of user messages (the session runs one turn per message and ends when the
 * iterable ends). An `InputQueue` (`createInputQueue()`) is such an iterable a host can push to.
 */
export type QueryPrompt = string | UserContentBlock[] | AsyncIterable<UserInputMessage>;

/**
 * A push-based source of user messages (the TUI's prompt line, the CLI's stdin reader).
 * `push` after `close` throws. Iterating yields pushed messages in order and ends after `close`.
 */
export interface InputQueue extends AsyncIterable<UserInputMessage> {
  push(message: UserInputMessage | string): void;
  close(): void;
  readonly closed: boolean;
  /** Messages pushed and not yet taken by the loop. */
  readonly pending: number;
}

// ─────────────────────────────────────────────────────────────────────────────────────────────
// Permissions seen by the host (the Agent SDK's `canUseTool`)
// ─────────────────────────────────────────────────────────────────────────────────────────────

/**
 * A permission update a host may return with an allow, or that the loop offers as a suggestion:
 * the Agent SDK's `PermissionUpdate` for rule additions and mode changes.
 */
export type PermissionUpdate =
  | {
      type: 'addRules';
      rules: { toolName: string; ruleContent?: string }[];
      behavior: 'allow' | 'deny' | 'ask';
      destination: 'userSettings' | 'projectSettings' | 'localSettings' | 'session';
    }
  | {
      type: 'setMode';
      mode: PermissionMode;
      destination: 'session';
    };

/** The host's answer to a permission ask (the Agent SDK's `PermissionResult`). */
export type PermissionResult =
  | {
      behavior: 'allow';
      /** Replaces the whole input; parsed and validated again before the call runs. */
      updatedInput?: Record<string, unknown>;
      /** Rules or a mode to apply from now on (`addRules` with `allow` is persisted per destination). */
      updatedPermissions?: PermissionUpdate[];
    }
  | {
      behavior: 'deny';
      /** Shown to the model as the reason. */
      message: string;
      /** Also stop the current turn (the session stays open for the next prompt). */
      interrupt?: boolean;
    };

/** What the host is told with a permission ask. */
export interface CanUseToolOptions {
  /** Aborted when the turn is aborted; a host prompt should close then. */
  signal: AbortSignal;
  toolUseID: string;
  /** Rules that would stop this question from being asked again. */
  suggestions: PermissionUpdate[];
  /** Why the engine asks (the decision reason's sentence). */
  decisionReason: string;
  /** The decision reason's type (`rule`, `check`, `working-directory`, `classifier`, …). */
  decisionReasonType: string;
  /** The path outside the working directories that caused the ask, when that was the reason. */
  blockedPath?: string;
  /** The classifier rated the call HIGH: the host must confirm explicitly, never auto-accept. */
  forceConfirmation?: boolean;
  /** The sub-agent making the call; absent for the main session. */
  agentID?: string;
  /** That sub-agent's type label (`general-purpose`, `Explore`, a custom agent name). */
  agentType?: string;
}

/** The host callback answering permission asks. Throwing counts as a deny. */
export type CanUseTool = (
  toolName: string,
  input: Record<string, unknown>,
  options: CanUseToolOptions,
) => Promise<PermissionResult>;

// ─────────────────────────────────────────────────────────────────────────────────────────────
// Hooks (Claude Code's hook events, input and output JSON)
// ─────────────────────────────────────────────────────────────────────────────────────────────

/** Hook events the loop fires. `SubagentStart`/`SubagentStop` are fired by the agents room. */
export type HookEventName =
  | 'SessionStart'
  | 'UserPromptSubmit'
  | 'PreToolUse'
  | 'PostToolUse'
  | 'PostToolUseFailure'
  | 'Stop'
  | 'SubagentStart'
  | 'SubagentStop'
  | 'PreCompact'
  | 'PostCompact'
  | 'SessionEnd';

/** Fields every hook input carries (snake_case, as Claude Code sends them). */
export interface BaseHookInput {
  session_id: string;
  transcript_path: string;
  cwd: string;
  permission_mode: PermissionMode;
  hook_event_name: HookEventName;
  /** Id of the user prompt the event belongs to (absent for session-level events). */
  prompt_id?: string;
  agent_id?: string;
  agent_type?: string;
}

export interface SessionStartHookInput extends BaseHookInput {
  hook_event_name: 'SessionStart';
  source: 'startup' | 'resume' | 'clear' | 'compact';
  model?: string;
}
export interface UserPromptSubmitHookInput extends BaseHookInput {
  hook_event_name: 'UserPromptSubmit';
  prompt: string;
}
export interface PreToolUseHookInput extends BaseHookInput {
  hook_event_name: 'PreToolUse';
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_use_id: string;
}
export interface PostToolUseHookInput extends BaseHookInput {
  hook_event_name: 'PostToolUse';
  tool_name: string;
  tool_input: Record<string, unknown>;
  /** The tool's structured output (what the transcript keeps as `toolUseResult`). */
  tool_response: unknown;
  tool_use_id: string;
  duration_ms?: number;
}
export interface PostToolUseFailureHookInput extends BaseHookInput {
  hook_event_name: 'PostToolUseFailure';
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_use_id: string;
  /** The error text the model got (middle-truncated past 10,000 characters). */
  error: string;
  is_interrupt?: boolean;
  duration_ms?: number;
}
export interface StopHookInput extends BaseHookInput {
  hook_event_name: 'Stop' | 'SubagentStop';
  /** True when the session is already continuing because a Stop hook blocked. */
  stop_hook_active: boolean;
  last_assistant_message?: string;
}
export interface SubagentStartHookInput extends BaseHookInput {
  hook_event_name: 'SubagentStart';
  agent_id: string;
  agent_type: string;
}
export interface PreCompactHookInput extends BaseHookInput {
  hook_event_name: 'PreCompact';
  trigger: 'manual' | 'auto';
  custom_instructions: string | null;
}
export interface PostCompactHookInput extends BaseHookInput {
  hook_event_name: 'PostCompact';
  trigger: 'manual' | 'auto';
  compact_summary: string;
}
export interface SessionEndHookInput extends BaseHookInput {
  hook_event_name: 'SessionEnd';
  reason: 'clear' | 'resume' | 'logout' | 'prompt_input_exit' | 'other';
}

export type HookInput =
  | SessionStartHookInput
  | UserPromptSubmitHookInput
  | PreToolUseHookInput
  | PostToolUseHookInput
  | PostToolUseFailureHookInput
  | StopHookInput
  | SubagentStartHookInput
  | PreCompactHookInput
  | PostCompactHookInput
  | SessionEndHookInput;

/**
 * A hook's JSON answer (Claude Code's hook JSON output; the Agent SDK's `HookJSONOutput`). Command
 * hooks print it on stdout; callbacks return it.
 */
export interface HookJSONOutput {
  /** `false` stops the agent after this hook (the turn ends; `stopReason` is shown to the user). */
  continue?: boolean;
  stopReason?: string;
  suppressOutput?: boolean;
  /** A warning for the user (emitted as a `system/informational` event). */
  systemMessage?: string;
  /** `block` on UserPromptSubmit, PostToolUse(Failure), Stop/SubagentStop, PreCompact; legacy `approve` on PreToolUse. */
  decision?: 'approve' | 'block';
  reason?: string;
  hookSpecificOutput?: {
    hookEventName: HookEventName;
    /** PreToolUse. */
    permissionDecision?: 'allow' | 'deny' | 'ask' | 'defer';
    permissionDecisionReason?: string;
    updatedInput?: Record<string, unknown>;
    /** Text delivered to the model next to the relevant message. */
    additionalContext?: string;
  };
  /** A callback that will not answer (the SDK's async hooks): treated as no output. */
  async?: true;
  asyncTimeout?: number;
}

/**
 * The callback form of a hook (the Agent SDK's `HookCallback`; the CLI maps the SDK's
 * `hook_callback` control requests onto it). `toolUseID` is set for tool events.
 */
export type HookCallback = (
  input: HookInput,
  toolUseID: string | undefined,
  options: { signal: AbortSignal },
) => Promise<HookJSONOutput>;

/** Callbacks for one event, filtered by a matcher (same matcher syntax as settings hooks). */
export interface HookCallbackMatcher {
  /** Tool name for tool events, `source`/`reason`/`trigger` for session events; absent = all. */
  matcher?: string;
  hooks: HookCallback[];
  /** Seconds (default 60). A callback that times out on PreToolUse or UserPromptSubmit blocks. */
  timeout?: number;
}

export type HookCallbacks = Partial<Record<HookEventName, HookCallbackMatcher[]>>;

/** Command hooks from settings, per event (the `hooks` object of settings files, loaded). */
export type HookCommandConfig = Partial<Record<HookEventName, HookMatcherConfig[]>>;

// ─────────────────────────────────────────────────────────────────────────────────────────────
// Options
// ─────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The system prompt: omitted or `preset` = Gantry's own prompt (identity, harness guidance,
 * security section, tool guidance, environment, memory files, `append`); a string = a custom
 * prompt that replaces all of that except the security section, which no option removes.
 */
export type SystemPromptOption = string | { type: 'preset'; append?: string };

/** Result-size thresholds (characters). Normally read once per session from managed settings. */
export interface ToolResultLimits {
  /** Global inline cap per result (default 50,000). */
  maxResultSizeChars?: number;
  /** Shared budget of one turn's results (default 200,000). */
  maxTurnResultsChars?: number;
  /** Per-tool inline caps by tool name (clamped to the global cap; `Infinity` is not accepted here). */
  perTool?: Readonly<Record<string, number>>;
}

export interface AutoCompactOptions {
  /** Default true. */
  enabled?: boolean;
  /** Compact when the estimated request reaches this share of the context window (default 0.8). */
  thresholdRatio?: number;
  /** Override the model's context window in tokens (tests, local models). */
  contextWindowTokens?: number;
  /** Number of most recent user prompts (with their turns) kept verbatim after a compaction (default 1). */
  keepRecentPrompts?: number;
}

export interface TranscriptOptions {
  /** Default true. False writes nothing (`--no-session-persistence`). */
  persist?: boolean;
  /** Gantry's home (default `$HOME/.gantry`); the file is `<dir>/projects/<cwd-slug>/<session>.jsonl`. */
  gantryHome?: string;
  /** Write exactly this file instead. */
  path?: string;
  /**
   * When lines are flushed to disk: `turn` (default; fsync after each model response's tool
   * results and after each result), `line` (after every line), `never` (leave it to the OS).
   */
  fsync?: 'line' | 'turn' | 'never';
}

/** A session restored from its transcript (`resumeSession(path)`), passed as `QueryOptions.resume`. */
export interface ResumedSession {
  sessionId: string;
  transcriptPath: string;
  /** The conversation exactly as it was last sent (after the last compaction, if any). */
  messages: Message[];
  /** The system blocks the session used (so the request prefix stays byte-identical). */
  systemBlocks?: { text: string; cached: boolean }[];
  /** The last line's uuid: the next line is parented to it. */
  lastUuid: string | null;
  cwd?: string;
  model?: string;
  permissionMode?: PermissionMode;
  /** Cost totals so far (Claude Code's `cost-state` figures). */
  costState?: CostState;
  numTurns?: number;
}

export interface QueryOptions {
  prompt: QueryPrompt;
  /** The provider client (`createModelClient`). */
  modelClient: ModelClient;
  /** Wire model id (or alias the provider resolves). */
  model: string;
  /**
   * The tools the model may call, in the order the request lists them. Give this or `toolPool`
   * (a pool decides which tools are rendered and which are deferred behind tool search).
   */
  tools?: readonly AnyTool[];
  /** An assembled tool pool (the runtime's `assembleToolPool`): `callable` runs, `definitions()` is sent. */
  toolPool?: ToolPoolLike;
  /** A pool built when the session starts (loading tools is asynchronous); used when `tools` and `toolPool` are absent. */
  loadToolPool?: () => Promise<ToolPoolLike>;
  /** Absolute working directory of the session. */
  cwd: string;
  /** Project root: the first working directory for permissions and hooks' CLAUDE_PROJECT_DIR (default `cwd`, as Claude Code takes the directory it was started in). */
  projectRoot?: string;
  additionalDirectories?: string[];
  /** Default: a new UUID (or the resumed session's). */
  sessionId?: string;
  /** Default `default`. */
  permissionMode?: PermissionMode;
  /** The permission engine (preferred: suggestions, session rules and the auto-mode breaker work through it). */
  permissionEngine?: PermissionEngine;
  /** A plain decider instead of an engine (tests, embedders with their own policy). Default: ask everything. */
  decide?: PermissionDecider;
  /** Answers asks; absent ⇒ an ask is denied and listed in `permission_denials`. */
  canUseTool?: CanUseTool;
  /** Callback hooks (the SDK's `hooks` option). */
  hooks?: HookCallbacks;
  /** Command hooks from settings (PreToolUse ones run inside the permission engine, not here). */
  settingsHooks?: HookCommandConfig;
  /** Model requests allowed per prompt (`--max-turns`); the next one ends with `error_max_turns`. */
  maxTurns?: number;
  /** Stop once the session's cost reaches this (`--max-budget-usd`): `error_max_budget_usd`. */
  maxBudgetUsd?: number;
  /** Tool calls allowed per session (default 2,000); calls beyond it are refused. */
  maxToolCalls?: number;
  /** The same call (tool + input) this many times in a row is refused (default 3; every mode). */
  repeatedCallLimit?: number;
  systemPrompt?: SystemPromptOption;
  /** `--append-system-prompt`: appended after everything else (kept with a custom prompt too). */
  appendSystemPrompt?: string;
  /** Load memory files (CLAUDE.md, AGENTS.md, .gantry/GANTRY.md …; default true). */
  memory?: boolean;
  /** `$HOME` for memory files and transcripts (default `os.homedir()`). */
  home?: string;
  /** Aborts the whole session: the running turn ends with every tool_use answered, then the generator returns. */
  abortSignal?: AbortSignal;
  /** Also emit `stream_event` messages (the SDK's `includePartialMessages`). */
  includePartialMessages?: boolean;
  /** `max_tokens` per request (default: the model's output cap, at most 32,000). */
  maxTokens?: number;
  thinking?: ThinkingRequest;
  /** Provider extras sent on every request (`ModelRequest.extra`). */
  requestExtra?: Readonly<Record<string, unknown>>;
  /** Result-size thresholds (from managed settings via `readManagedToolLimits`). */
  toolResultLimits?: ToolResultLimits;
  autoCompact?: AutoCompactOptions;
  transcript?: TranscriptOptions;
  /** Continue a session restored with `resumeSession`. */
  resume?: ResumedSession;
  /**
   * Where the session's spilled tool results and background output go (default:
   * `<home>/.gantry/sessions/<sessionId>/`, the runtime's session folder with its retention rules).
   */
  sessionDir?: string;
  /** Labels for a sub-agent's loop: carried on every event, hook input and permission ask. */
  agentId?: string;
  agentType?: string;
  /** The Agent tool call that runs this loop (sub-agents); `null` for the main session. */
  parentToolUseId?: string | null;
  /** Extra `system/init` fields the face knows better (`apiKeySource`, `mcp_servers`, `slash_commands` …). */
  initExtras?: Readonly<Record<string, unknown>>;
  /**
   * Objects that want the live conversation (the model-backed auto-mode classifier reads the
   * recent transcript through this).
   */
  transcriptConsumers?: readonly TranscriptConsumer[];
  /** Clock for the environment's date line and timestamps (tests). */
  now?: () => Date;
}

/** The part of an assembled tool pool the loop uses. */
export interface ToolPoolLike {
  /** Every tool the model may call (given to the runtime). */
  readonly callable: readonly AnyTool[];
  /** The definitions the request carries, byte-stable for the same pool. */
  definitions(): readonly ModelToolDefinition[];
}

/** Something that reads the session's conversation while it runs. */
export interface TranscriptConsumer {
  setTranscriptSource(source: () => readonly Message[]): void;
}

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

export type ResultSubtype = 'success' | 'error_max_turns' | 'error_max_budget_usd' | 'error_during_execution';

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
