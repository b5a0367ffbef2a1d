/**
 * The hook types of the loop (Claude Code's hook events, their input and output JSON), re-exported
 * by loop/types.ts.
 */
import type { PermissionMode } from '../core/permission-types.js';
import type { DeliverySource } from '../core/services.js';
import type { HookMatcherConfig } from '../permissions/settings/types.js';

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
  | 'SessionEnd'
  | 'TaskCreated'
  | 'TaskCompleted'
  | 'WorktreeCreate'
  | 'WorktreeRemove';

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
  /** Set when the prompt was not typed: `loop_wakeup` (a ScheduleWakeup), `schedule_wakeup` (a cron job). */
  source?: DeliverySource;
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
  /** SubagentStop: the sub-agent's own transcript. */
  agent_transcript_path?: string;
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

/** WorktreeCreate: a hook given for it creates the worktree itself and prints its absolute path. */
export interface WorktreeCreateHookInput extends BaseHookInput {
  hook_event_name: 'WorktreeCreate';
  /** The worktree's name (slash-separated segments of letters, digits, `.`, `_`, `-`). */
  name: string;
}
export interface WorktreeRemoveHookInput extends BaseHookInput {
  hook_event_name: 'WorktreeRemove';
  /** Absolute path of the worktree being removed. */
  worktree_path: string;
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
  | SessionEndHookInput
  | WorktreeCreateHookInput
  | WorktreeRemoveHookInput;

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
    /** WorktreeCreate: the absolute path of the worktree the hook created. */
    worktreePath?: string;
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
