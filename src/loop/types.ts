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
 * The hook types live in hook-types.ts and the events in event-types.ts; both are re-exported
 * here, so hosts import everything from this file (or the loop's barrel).
 *
 * Stability: this file is the contract other rooms and faces build on. Extend it (new optional
 * fields, new event subtypes); never rename or remove.
 */
import type { Message, UserContentBlock } from '../core/messages.js';
import type { ModelClient, ModelToolDefinition, ThinkingRequest } from '../core/model-client.js';
import type { PermissionDecider, PermissionMode } from '../core/permission-types.js';
import type { DeliverySource, SubagentRunner } from '../core/services.js';
import type { AnyTool } from '../core/tool.js';
import type { CostState } from '../model/cost.js';
import type { PermissionEngine } from '../permissions/engine.js';
import type { BackgroundTaskManager } from '../runtime/index.js';
import type { HookCallbacks, HookCommandConfig } from './hook-types.js';

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
  /**
   * A scheduled prompt's origin (a wake-up, a cron job; core/services.ts `DeliverySource`): the
   * UserPromptSubmit hook gets it as `source`. Absent: the person (or the SDK host) sent it.
   */
  source?: DeliverySource;
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
  /**
   * The restored messages end a prefix that sibling requests share (a fork's context before its
   * directive): requests keep a cache breakpoint on their last block until a compaction replaces them.
   */
  sharedPrefix?: boolean;
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
  /**
   * A pool built when the session starts (loading tools is asynchronous); used when `tools` and
   * `toolPool` are absent. It gets the session's id and directory (for what it opens per session,
   * such as MCP servers and their logs); a pool with `dispose` is disposed when the session ends.
   */
  loadToolPool?: (session: { sessionId: string; sessionDir: string }) => Promise<ToolPoolLike>;
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
  /** Nesting depth of this loop: 0 for the main session (default), 1 for its sub-agents, … */
  agentDepth?: number;
  /** The parent session's task registry, shared by a sub-agent's loop (not disposed with it). */
  taskRegistry?: BackgroundTaskManager;
  /** How long the session waits for background agents after its input ended (ms, default 10 minutes). */
  backgroundWaitMs?: number;
  /**
   * A sub-agent's `SubagentStop` hooks (the agents room runs them: its parent's and its own
   * definition's), asked each time the model stops without calling tools, after the loop's own
   * Stop hooks. `block` sends it back to work with the reason as feedback, bounded like a Stop
   * hook's block (`MAX_STOP_HOOK_BLOCKS` in a row, counted together); `stop` ends the session.
   */
  subagentStop?: (facts: {
    /** True when it is already continuing because a stop hook blocked. */
    stopHookActive: boolean;
    lastAssistantMessage: string;
    signal: AbortSignal;
  }) => Promise<{ block?: { reason: string }; stop?: { reason: string } }>;
  /** How tools start sub-agents (`context.services.runSubagent`; the agents room's `createSubagentRunner`). */
  runSubagent?: SubagentRunner;
  /**
   * The session's plan file for a session id (the plan-mode tools write and read it; the permission
   * engine's `planFile` should name the same file). Absent → `~/.gantry/plans/<session>.md`.
   */
  planFile?: (sessionId: string) => string;
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
  /**
   * Deferred loading (docs/mcp-client.md): the definitions of the next request, given the tools
   * ToolSearch has loaded so far (`AppState.discoveredToolNames`). Absent: `definitions()` every time.
   */
  definitionsFor?(discoveredToolNames: readonly string[]): readonly ModelToolDefinition[];
  /** The deferred tools' names for the session context block (`''` when none). */
  deferredToolsSection?(): string;
  /**
   * A note for deferred tools that appeared or went away since the last call (a server's
   * `list_changed`), `''` when nothing changed. The loop asks before each request and adds a
   * non-empty note as a meta user message.
   */
  deferredToolsDelta?(discoveredToolNames: readonly string[]): string;
  /**
   * `anthropic-beta` values the pool's definitions need (deferred loading on Anthropic:
   * `defer_loading` and `tool_reference` blocks). Merged into `extra.betas` of every request.
   */
  requestBetas?(): readonly string[];
  /** The pool's MCP servers for `system/init.mcp_servers` (a face's `initExtras` take precedence). */
  mcpServers?(): { name: string; status: string; source: string }[];
  /** Closes what the pool opened for one session (MCP servers); called when a session that loaded it ends. */
  dispose?(): Promise<void>;
}

/** Something that reads the session's conversation while it runs. */
export interface TranscriptConsumer {
  setTranscriptSource(source: () => readonly Message[]): void;
}

export type {
  HookEventName,
  BaseHookInput,
  SessionStartHookInput,
  UserPromptSubmitHookInput,
  PreToolUseHookInput,
  PostToolUseHookInput,
  PostToolUseFailureHookInput,
  StopHookInput,
  SubagentStartHookInput,
  PreCompactHookInput,
  PostCompactHookInput,
  SessionEndHookInput,
  HookInput,
  HookJSONOutput,
  HookCallback,
  HookCallbackMatcher,
  HookCallbacks,
  HookCommandConfig,
} from './hook-types.js';
export type {
  InitEvent,
  AssistantEvent,
  ToolResultMeta,
  UserEvent,
  StreamEvent,
  ApiRetryEvent,
  CompactBoundaryEvent,
  PermissionDeniedEvent,
  InformationalEvent,
  TaskStartedEvent,
  TaskProgressEvent,
  TaskUpdatedEvent,
  TaskNotificationEvent,
  ToolProgressMessage,
  ForwardedEventProgress,
  PermissionDenial,
  TerminalReason,
  ResultSubtype,
  ResultEvent,
  SystemEvent,
  QueryEvent,
  QueryResult,
  Query,
  RecordedToolResult,
} from './event-types.js';
