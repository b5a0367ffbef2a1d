/**
 * ToolUseContext: everything a tool may use while it runs, and nothing more. The runtime builds one
 * per session (`createToolRuntime`), copies it per call (setting `toolUseId`), and derives one per
 * sub-agent (`createChildContext`). docs/runtime.md describes how the pieces fit.
 */
import type { Message } from './messages.js';
import type { CallDescription, PermissionMode } from './permission-types.js';
import type { ReadFileState } from './read-file-state.js';
import type { SessionServices } from './services.js';
import type { AnyTool } from './tool.js';

/** A progress event from a running call, as delivered to the host. */
export interface ToolProgressEvent<P = unknown> {
  toolUseId: string;
  toolName: string;
  /** The sub-agent whose call this is; absent for the main session's own calls. */
  agentId?: string;
  data: P;
}

/** A background task (a `run_in_background` Bash command, a background agent). */
export interface BackgroundTaskInfo {
  id: string;
  kind: 'bash' | 'agent' | 'monitor';
  description: string;
  status: 'running' | 'completed' | 'failed' | 'killed';
  /** File that receives the task's output. */
  outputFile: string;
  startedAtMs: number;
  endedAtMs?: number;
  exitCode?: number | null;
  /**
   * Bash tasks, while `running`: the command's shell has exited with this code (null: unknown) but
   * processes it started still run; the task ends when they do, or when it is stopped.
   */
  leaderExitCode?: number | null;
  /** Bash tasks with `leaderExitCode`: how many of those processes were running when last counted. */
  processesLeft?: number;
}

/** One entry of an agent's todo list, in the shape of Claude Code's `TodoWrite` input. */
export interface TodoItem {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  /** The present-continuous form shown while the item is in progress ("Running the tests"). */
  activeForm: string;
}

/** A git worktree a session (or a sub-agent) works in instead of the project checkout. */
export interface WorktreeInfo {
  /** Absolute path of the worktree. */
  path: string;
  /** Branch checked out in the worktree, when it has one. */
  branch?: string;
  /** The working directory to return to when the worktree is left. Absolute. */
  originalCwd: string;
  /** Root of the repository the worktree belongs to (its main checkout). Absolute. */
  repoRoot?: string;
  /** The commit it started from (for counting its own commits). */
  base?: string;
  /** How it came to be: made by this session (`git`, or a WorktreeCreate `hook`), or an existing one entered by path. */
  origin?: 'git' | 'hook' | 'entered';
  /** A working directory the session added for it (a worktree outside the project), dropped on exit. */
  addedDirectory?: string;
}

/**
 * Session-wide state that tools read and change. The host owns it; tools change it only through
 * `setAppState` (or `setAppStateForTasks` for state that belongs to the whole session).
 *
 * Each optional slot names the tool that owns it: only that tool writes it; anyone may read it.
 */
export interface AppState {
  sessionId: string;
  /** Project root: the first working directory, where Bash resets to when a `cd` leaves the allowed directories. */
  projectRoot: string;
  /** Current working directory of the session's shell (persists across Bash calls). Absolute. */
  cwd: string;
  /** Additional working directories (`--add-dir`). Absolute. */
  additionalDirectories: string[];
  permissionMode: PermissionMode;
  /** Directory for this session's spilled results and background task output. Absolute; created on demand. */
  sessionDir: string;
  /** Background tasks by id. Written through `setAppStateForTasks` (root-owned: a sub-agent sees the session's). */
  tasks: Record<string, BackgroundTaskInfo>;
  /**
   * Todo lists by agent id (the main session's list under its `sessionId`). Owner: the TodoWrite
   * tool, which writes it through `setAppStateForTasks`, so the host sees every agent's list.
   * Root-owned, like `tasks`.
   */
  todos?: Readonly<Record<string, readonly TodoItem[]>>;
  /**
   * Path of the session's plan file (absolute, under the plans directory). Owner: the
   * EnterPlanMode / ExitPlanMode tools. In plan mode, writing exactly this file is the one change
   * the permission engine lets through (docs/session-tools.md "Plan mode").
   */
  planFilePath?: string;
  /**
   * The permission mode the session had when EnterPlanMode switched it to `plan`; ExitPlanMode
   * goes back to it once the plan is approved (unless the host chose another mode). Owner: the
   * plan-mode tools.
   */
  prePlanPermissionMode?: PermissionMode;
  /** The worktree this context works in. Owner: the EnterWorktree / ExitWorktree tools. */
  worktree?: WorktreeInfo;
  /**
   * Names of deferred tools loaded in this context (their full definitions are sent from then on).
   * Owner: the ToolSearch tool. Per agent: a sub-agent's loads do not change its parent's list.
   */
  discoveredToolNames?: readonly string[];
}

export interface ToolUseContextOptions {
  /**
   * The tools that may be called in this context (already assembled and filtered; see
   * `assembleToolPool`). Which of them the model sees in full is the pool's `rendered` list.
   */
  tools: readonly AnyTool[];
  /** Version-sensitive behaviour switches, e.g. `{ readLineCap: 2000 }` (see docs/runtime.md). */
  compat?: Record<string, unknown>;
}

/**
 * The running call a context belongs to, as the runtime's admission gate knows it. A child context
 * inherits its parent's, so the gate can tell that a sub-agent's calls run on behalf of that call
 * (and must not wait for it). Opaque to tools.
 */
export interface RunningCallRef {
  readonly toolUseId: string;
}

export interface ToolUseContext {
  /** Aborts every call of the turn; tools must honour `abortController.signal`. */
  abortController: AbortController;
  options: ToolUseContextOptions;
  getAppState(): AppState;
  /** Replace the app state through an updater (pure function of the previous state). Scoped to this agent. */
  setAppState(updater: (prev: AppState) => AppState): void;
  /**
   * Always writes the root session's state, even from a sub-agent context whose own `setAppState`
   * is scoped. For session infrastructure: background tasks, todo lists, hooks.
   */
  setAppStateForTasks(updater: (prev: AppState) => AppState): void;
  /** What files were read in this context (Write/Edit staleness checks). A sub-agent starts from a copy. */
  readFileState: ReadFileState;
  /** The conversation so far (as the host keeps it); tools read it, never write it. */
  messages: readonly Message[];
  /** The session's services: background tasks, the model client, … (shared by every agent of the session). */
  services: SessionServices;
  /** The sub-agent this context belongs to; absent for the main session. */
  agentId?: string;
  /** Progress sink: the runtime wires `call`'s yielded progress here. */
  onProgress?: (event: ToolProgressEvent) => void;
  /** Tell the host something happened outside a call (a background task ended). */
  notify?: (message: { type: 'task-notification'; task: BackgroundTaskInfo; summary: string }) => void;
  /** The tool_use id of the call this context was handed to (set by the runtime per call). */
  toolUseId?: string;
  /** The running call this context was handed to, or that a child context descends from (set by the runtime). */
  runningCall?: RunningCallRef;
  /**
   * Runs one call of another tool of this context's tool list on behalf of the running call,
   * through the whole pipeline (schema, validation, PreToolUse hooks, the permission decision, the
   * host's answer to an ask, the result caps), as if the model had made it. Set by the runtime on
   * every call's context; absent when a tool is driven without the runtime. A skill's inline
   * `!` commands run through it (docs/runtime.md "Nested calls").
   */
  callTool?: (name: string, input: Record<string, unknown>) => Promise<NestedToolCallResult>;
  /**
   * The description the permission decision for this call was made on (set by the runtime just
   * before `call`). A tool that acts on paths acts on the paths it names and refuses when they now
   * resolve elsewhere (a symlink swapped since the check; docs/reliability.md "File operations").
   * Absent when `call` runs without the runtime's permission phase (a test driving a tool directly).
   */
  permittedCall?: CallDescription;
}

/** What a nested call (`ToolUseContext.callTool`) ended with. */
export interface NestedToolCallResult {
  /** True when the call ran and succeeded. */
  ok: boolean;
  /** The call was refused by the permission step (a rule, a hook, the mode, the host, or nobody to ask). */
  denied: boolean;
  /** What the model would have seen, as text (an error text when `ok` is false). */
  text: string;
  /** The tool's structured output, when it ran (also for a failure that carried data). */
  data?: unknown;
  /** The tool_use id the runtime gave the nested call (`<calling id>.<n>`). */
  toolUseId: string;
}
