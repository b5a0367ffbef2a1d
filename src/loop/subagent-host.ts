/**
 * What a running loop tells the tools that start sub-agents (the Agent tool in `src/agents/`):
 * the session's frozen request prefix (system blocks, tool definitions), its live conversation,
 * its options (decider, host callbacks, hooks), its task registry and its labels.
 *
 * Tools never import the loop; the agents room sits above it and looks the handle up from the
 * call's context (`loopHandleOf(context)`): every loop registers its handle under its runtime's
 * session services, which every context of that runtime (and every child context derived from
 * it) carries.
 */
import type { AnyTool, Message, SessionServices, ToolUseContext } from '../core/index.js';
import type { SystemBlock } from '../core/messages.js';
import type { ModelToolDefinition } from '../core/model-client.js';
import type { PermissionMode } from '../core/permission-types.js';
import type { BackgroundTaskManager } from '../runtime/index.js';
import type { QueryOptions } from './types.js';

export interface LoopHandle {
  readonly sessionId: string;
  /** The options the loop was started with (decider, engine, `canUseTool`, hooks, home …). */
  readonly options: QueryOptions;
  /** The model of the next request (after `setModel`). */
  model(): string;
  /** The system blocks every request of this session sends: rendered once, never re-rendered. */
  readonly system: readonly SystemBlock[];
  /** The tools the session may call, in request order. */
  readonly tools: readonly AnyTool[];
  /** The request's `tools` array, byte-stable for the session. */
  readonly toolDefinitions: readonly ModelToolDefinition[];
  /** The conversation as the loop holds it now (the assistant message being streamed is not in it yet). */
  messages(): readonly Message[];
  /** The main transcript file ('' when not persisted). */
  readonly transcriptPath: string;
  permissionMode(): PermissionMode;
  cwd(): string;
  /** The session's background-task registry (shared with sub-agents). */
  readonly tasks: BackgroundTaskManager;
  /** 0 for the main session, 1 for its sub-agents, … */
  readonly depth: number;
  /**
   * Delivers a text to the model: inside the next tool-result message when a turn is running, or
   * as a new turn when the loop is idle (a background agent's `<task-notification>`).
   */
  deliver(text: string): void;
  /**
   * Keeps the session open after its input ended until `until` settles (a background agent),
   * bounded by `QueryOptions.backgroundWaitMs`.
   */
  hold(until: Promise<unknown>): void;
  /**
   * Runs this session's `SubagentStart` / `SubagentStop` hooks (command hooks and callbacks,
   * matched on the agent type) for one of its sub-agents; resolves with the context texts they
   * returned.
   */
  runSubagentHook(
    event: 'SubagentStart' | 'SubagentStop',
    agent: {
      agentId: string;
      agentType: string;
      lastMessage?: string;
      /** SubagentStop: already continuing because a stop hook blocked. */
      stopHookActive?: boolean;
      /** SubagentStop: the sub-agent's own transcript (`agent_transcript_path`). */
      agentTranscriptPath?: string;
    },
    signal: AbortSignal,
  ): Promise<{ additionalContext: string[]; block?: { reason: string }; stop?: { reason: string } }>;
}

const handles = new WeakMap<SessionServices, LoopHandle>();

/** Registers the loop behind a runtime's services (called once per session by the loop). */
export function registerLoopHandle(services: SessionServices, handle: LoopHandle): void {
  handles.set(services, handle);
}

/** The loop whose runtime runs this context's call, when the call runs inside `query()`. */
export function loopHandleOf(context: ToolUseContext): LoopHandle | undefined {
  return handles.get(context.services);
}
