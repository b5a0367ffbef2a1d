/**
 * ToolUseContext: everything a tool may use while it runs, and nothing more (seed 000 §1.3).
 * Field by field documentation below; the runtime builds one per session and hands it to every call.
 */
import type { ToolResultBlock } from './content.js';
import type { CallDescription, PermissionMode } from './permission-types.js';
import type { ReadFileState } from './read-file-state.js';
import type { AnyTool } from './tool.js';

/** A progress event from a running call, as delivered to the host. */
export interface ToolProgressEvent<P = unknown> {
  toolUseId: string;
  toolName: string;
  data: P;
}

/** A background task (a `run_in_background` Bash command, a background agent). */
export interface BackgroundTaskInfo {
  id: string;
  kind: 'bash' | 'agent';
  description: string;
  status: 'running' | 'completed' | 'failed' | 'killed';
  /** File that receives the task's output. */
  outputFile: string;
  startedAtMs: number;
  endedAtMs?: number;
  exitCode?: number | null;
}

/**
 * Session-wide state that tools read and change. The host owns it; tools change it only
 * through `setAppState` (or `setAppStateForTasks` for session infrastructure).
 */
export interface AppState {
  sessionId: string;
  /** Project root: the first working directory, where Bash resets to when a `cd` leaves the allowed directories. */
  projectRoot: string;
  /** Current working directory of the session's shell (persists across Bash calls; spec §2.7). Absolute. */
  cwd: string;
  /** Additional working directories (`--add-dir`, spec §3.9). Absolute. */
  additionalDirectories: string[];
  permissionMode: PermissionMode;
  /** Directory for this session's spilled results and background task output. Absolute; created on demand. */
  sessionDir: string;
  /** Background tasks by id. */
  tasks: Record<string, BackgroundTaskInfo>;
}

/** MCP client connection visible to tools (filled by the MCP layer). */
export interface McpClientInfo {
  name: string;
  type: 'connected' | 'failed' | 'pending' | 'disabled';
}

/** Extended-thinking configuration passed through to tools that start model calls (Agent). */
export interface ThinkingConfig {
  type: 'enabled' | 'disabled';
  budgetTokens?: number;
}

export interface ToolUseContextOptions {
  /** The tools available in this context (after filtering; what the model sees). */
  tools: readonly AnyTool[];
  /** Main-loop model name, e.g. `claude-sonnet-4-5`. */
  mainLoopModel: string;
  mcpClients: readonly McpClientInfo[];
  thinkingConfig: ThinkingConfig;
  /** Version-sensitive behaviour switches (spec §0.2), e.g. `{ readLineCap: 2000 }`. */
  compat?: Record<string, unknown>;
}

export interface ToolUseContext {
  /** Aborts every call of the turn; tools must honour `abortController.signal`. */
  abortController: AbortController;
  options: ToolUseContextOptions;
  getAppState(): AppState;
  /** Replace the app state through an updater (pure function of the previous state). */
  setAppState(updater: (prev: AppState) => AppState): void;
  /**
   * Always writes the root session's state, even from a nested sub-agent context whose own
   * `setAppState` is scoped. For session infrastructure: background tasks, hooks.
   */
  setAppStateForTasks(updater: (prev: AppState) => AppState): void;
  /** What files were read in this session (Write/Edit staleness checks). */
  readFileState: ReadFileState;
  /** The conversation so far (as the host keeps it); tools read it, never write it. */
  messages: readonly unknown[];
  /** Per-session permission decisions by tool_use id (for transcripts and hooks). */
  toolDecisions: Map<string, { behavior: 'allow' | 'ask' | 'deny'; source: string }>;
  /** Progress sink: the runtime wires `call`'s yielded progress here. */
  onProgress?: (event: ToolProgressEvent) => void;
  /** Tell the host something happened outside a call (a background task ended). */
  notify?: (message: { type: 'task-notification'; task: BackgroundTaskInfo; summary: string }) => void;
  /** The tool_use id of the call this context was handed to (set by the runtime per call). */
  toolUseId?: string;
  /**
   * The description the permission decision for this call was made on (set by the runtime just
   * before `call`). A tool that acts on paths acts on the paths it names and refuses when they now
   * resolve elsewhere (a symlink swapped since the check; docs/reliability.md "File operations").
   * Absent when `call` runs without the runtime's permission phase (a test driving a tool directly).
   */
  permittedCall?: CallDescription;
  /** Results produced so far in this turn (read-only; for tools that inspect siblings). */
  turnResults?: readonly ToolResultBlock[];
}
