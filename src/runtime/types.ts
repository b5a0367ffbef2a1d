/**
 * Runtime vocabulary: what a host passes in (`CanUseTool`), what it gets back (`ToolRuntimeUpdate`,
 * `TurnResult`), and the per-call records the phases hand to each other.
 */
import type {
  AnyTool,
  HostPermissionAnswer,
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
 * The host's answer to an `ask` (design.md §2 step 6; spec §3.10 `canUseTool`). Called at most once
 * per call, only when the decider said `ask`. `input` is the parsed input; an `allow` may carry an
 * `updatedInput`, which is parsed and validated again before the call runs. Throwing counts as deny.
 */
export type CanUseTool = (
  tool: AnyTool,
  input: Record<string, unknown>,
  decision: AskDecision,
  context: ToolUseContext,
) => Promise<HostPermissionAnswer>;

/** What the runtime streams to the host while a turn runs. */
export type ToolRuntimeUpdate =
  /** A progress event yielded by a running call (live, in the order the calls emit them). */
  | { type: 'progress'; event: ToolProgressEvent }
  /**
   * A call ended (live, completion order); calls that never started emit none. Its result follows
   * in a `result` update.
   */
  | { type: 'tool-call-end'; toolUseId: string; toolName: string; isError: boolean; durationMs: number }
  /**
   * A final `tool_result` block, after the turn's budget was applied. Emitted once per `tool_use`,
   * in the model's call order, when every call of the turn has finished.
   */
  | { type: 'result'; block: ToolResultBlock; toolName: string; newMessages: unknown[] };

/** Everything a turn produced: one block per `tool_use`, in call order. */
export interface TurnResult {
  results: ToolResultBlock[];
  /** `newMessages` of every call, in call order. */
  newMessages: unknown[];
}

/** A `tool_use` looked up and parsed once, before scheduling (the parse decides concurrency safety). */
export interface PreparedCall {
  /** Position in the model's call order within the turn. */
  index: number;
  toolUse: ToolUseBlock;
  /** Undefined when no tool has this name or alias. */
  tool: AnyTool | undefined;
  /** zod's parse of `toolUse.input`; undefined when the tool is unknown. */
  parsed: { success: true; data: Record<string, unknown> } | { success: false; error: unknown } | undefined;
  /** `tool.isConcurrencySafe(parsed)`; false when unknown, unparsable, or the predicate throws. */
  isConcurrencySafe: boolean;
}

/** How a call ended. `not-started` = the turn was aborted before it began. */
export type CallStatus = 'ok' | 'error' | 'aborted' | 'not-started';

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
  newMessages: unknown[];
  contextModifier?: (context: ToolUseContext) => ToolUseContext;
  durationMs: number;
}
