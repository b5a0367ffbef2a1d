/**
 * Runtime vocabulary: what a host passes in (`CanUseTool`), what it gets back (`ToolRuntimeUpdate`,
 * `TurnResult`), and the per-call records the phases hand to each other.
 */
import type {
  AnyTool,
  HostPermissionAnswer,
  Message,
  PermissionDecision,
  ToolProgressEvent,
  ToolResultBlock,
  ToolResultContent,
  ToolUseBlock,
  ToolUseContext,
} from '../core/index.js';

/** An `ask` decision, as handed to the host. */
export type AskDecision = Extract<PermissionDecision, { behavior: 'ask' }>;

/**
 * The host's answer to an `ask` (the Agent SDK's `canUseTool`). Called at most once
 * per call, only when the decider said `ask`. `input` is the parsed input; an `allow` may carry an
 * `updatedInput`, which is parsed and validated again before the call runs. Throwing counts as deny.
 */
export type CanUseTool = (
  tool: AnyTool,
  input: Record<string, unknown>,
  decision: AskDecision,
  context: ToolUseContext,
) => Promise<HostPermissionAnswer>;

/** How the permission step ended for a call: the behavior and what decided it. */
export interface ToolDecisionRecord {
  behavior: 'allow' | 'deny';
  /**
   * What decided: the decider's reason type (`rule`, `mode`, `read-only`, `tool`, …), `host` when
   * the host answered an `ask`, `no-host` when an `ask` had nobody to answer it.
   */
  source: string;
}

/** How a call ended. `not-started` = the turn was aborted before it began. */
export type CallStatus = 'ok' | 'error' | 'aborted' | 'not-started';

/**
 * One call of a finished turn, as a host stores it: the structured output (`data`, Claude Code's
 * `toolUseResult`), the permission decision, timing. `block` is what the model gets.
 */
export interface CallRecord {
  toolUseId: string;
  toolName: string;
  /** The sub-agent whose call this was; absent for the main session. */
  agentId?: string;
  status: CallStatus;
  isError: boolean;
  /**
   * The tool's structured output (Claude Code's `toolUseResult`): `ToolResult.data` when `status`
   * is `ok`; for a failed call, the `data` its error carried (e.g. Bash's output of a command that
   * exited non-zero), else absent.
   */
  data?: unknown;
  /** The input the call ran with (parsed, after any update); absent when it never parsed. */
  input?: Record<string, unknown>;
  /** Absent when the call ended before the permission step decided. */
  decision?: ToolDecisionRecord;
  /** Set when the post-call hook threw (the result itself stands). */
  postCallError?: string;
  durationMs: number;
  newMessages: Message[];
}

/** What the runtime streams to the host while a turn runs. */
export type ToolRuntimeUpdate =
  /** A progress event yielded by a running call (live, in the order the calls emit them). */
  | { type: 'progress'; event: ToolProgressEvent }
  /**
   * A call ended (live, completion order); calls that never started emit none. Its result follows
   * in a `result` update.
   */
  | {
      type: 'tool-call-end';
      toolUseId: string;
      toolName: string;
      agentId?: string;
      isError: boolean;
      durationMs: number;
    }
  /**
   * A final `tool_result` block, after the turn's budget was applied, with the call's record
   * (structured `data`, decision). Emitted once per `tool_use`, in the model's call order, when
   * every call of the turn has finished.
   */
  | {
      type: 'result';
      block: ToolResultBlock;
      toolName: string;
      agentId?: string;
      newMessages: Message[];
      call: CallRecord;
    };

/** Everything a turn produced: one block per `tool_use`, in call order. */
export interface TurnResult {
  results: ToolResultBlock[];
  /** `newMessages` of every call, in call order. */
  newMessages: Message[];
  /** One record per `tool_use`, in call order (same order as `results`). */
  calls: CallRecord[];
  /**
   * The context after the turn's context modifiers. For a turn run with an explicit
   * `TurnRunOptions.context` (a sub-agent's), pass it to the agent's next turn.
   */
  context: ToolUseContext;
}

/** What the post-call hook is told after each call that started. */
export interface PostCallEvent {
  toolName: string;
  toolUseId: string;
  agentId?: string;
  /** The input the call ran with; undefined when it never parsed (the failure was the schema). */
  input: Record<string, unknown> | undefined;
  /** The input as hooks see it, when the tool adds fields (`Tool.observableInput`). */
  hookInput?: Record<string, unknown>;
  /** `ok` (Claude Code's PostToolUse) or a failure (PostToolUseFailure). */
  status: 'ok' | 'error' | 'aborted';
  /** True when the tool's `call` was entered (false: it failed at lookup, schema, validation or permission). */
  ran: boolean;
  /** The structured output (`tool_response`): present when `status` is `ok`, or when the failure carried one. */
  data?: unknown;
  /** What the model gets for this call (before the turn budget): the mapped output, or the error text. */
  content: ToolResultContent;
  /** The permission decision, when the permission step decided. */
  decision?: ToolDecisionRecord;
  context: ToolUseContext;
  /** The turn's signal; a hook that waits should honour it. */
  signal: AbortSignal;
}

/** A post-call hook may add messages after the call's result (e.g. a hook's additional context). */
export interface PostCallAnswer {
  newMessages?: Message[];
}

/**
 * Runs after each call that started (not for calls an abort kept from starting), before the turn
 * budget, while the call still holds its place in the admission gate. Awaited for `ok` and `error`;
 * for an aborted call it is started but not awaited (the call has already settled). A hook that
 * throws leaves the result as it was and is reported in the call's `postCallError`.
 */
export type PostCallHook = (
  event: PostCallEvent,
) => Promise<PostCallAnswer | undefined | void> | PostCallAnswer | undefined | void;

/** A `tool_use` looked up and parsed once, before scheduling (the parse decides concurrency safety). */
export interface PreparedCall {
  /** Position in the model's call order within the turn. */
  index: number;
  toolUse: ToolUseBlock;
  /** Undefined when no tool has this name or alias. */
  tool: AnyTool | undefined;
  /** The schema's parse of `toolUse.input`; undefined when the tool is unknown. */
  parsed: { success: true; data: Record<string, unknown> } | { success: false; error: unknown } | undefined;
  /**
   * `tool.isConcurrencySafe(parsed, context)`, asked once with the context the turn runs in; false
   * when the tool is unknown, the input unparsable, or the predicate throws.
   */
  isConcurrencySafe: boolean;
}

/** One call's result before the turn budget, with what the scheduler still has to apply. */
export interface CallOutcome {
  index: number;
  toolUseId: string;
  toolName: string;
  status: CallStatus;
  content: ToolResultContent;
  isError: boolean;
  /** Inline cap after clamping (`Infinity` = never spilled). Errors are never spilled. */
  maxResultSizeChars: number;
  /** True once the content was replaced by a `<persisted-output>` block. */
  persisted: boolean;
  newMessages: Message[];
  contextModifier?: (context: ToolUseContext) => ToolUseContext;
  durationMs: number;
  /** The structured output: `ToolResult.data` when `ok`, or the `data` a failure's error carried. */
  data?: unknown;
  /** The input the call ran with, once it parsed. */
  input?: Record<string, unknown>;
  decision?: ToolDecisionRecord;
  postCallError?: string;
}
