/**
 * What tools get from their session besides the context's state: the background task registry and
 * the model client. The runtime implements it (`createSessionServices` in `runtime/`); tools see
 * only these interfaces, through `context.services`. See docs/runtime.md "Session services".
 */
import type { BackgroundTaskInfo, ToolUseContext } from './context.js';
import type { ModelClient } from './model-client.js';

/** Who stops a background task: the model (TaskStop) or the person / host (everything else). */
export type TaskStopper = 'model' | 'user';

/** What the task registry needs from a running task. */
export interface TaskHandle {
  /**
   * Stops the task; resolves once it has ended. Must be idempotent. `by`: who asked — `model`
   * (the TaskStop tool) or `user` (the person or the host: the default). A background agent stopped
   * by the model may be resumed with SendMessage; one stopped by the user may not.
   */
  stop(by?: TaskStopper): Promise<void>;
  /** Settles when the task has ended, however it ended (after `AppState.tasks` was updated). */
  ended: Promise<void>;
  /** Synchronous last-resort kill, used when the host process exits. */
  killNow?: () => void;
  /** The command line (bash tasks), for TaskStop's answer. */
  command?: string;
}

/**
 * The session's running background tasks (`run_in_background` Bash commands, background agents).
 * The serialisable facts of a task live in `AppState.tasks`; the registry holds what cannot be
 * serialised: how to stop it, when it ends, how much of its output readers have seen.
 */
export interface BackgroundTaskRegistry {
  /** A fresh id: `b` (bash), `a` (agent) or `m` (monitor) + 6 hex digits, unique in this registry. */
  newTaskId(kind: BackgroundTaskInfo['kind']): string;
  /** Registers a running task under `id` (the caller already put its info in `AppState.tasks`). */
  register(id: string, handle: TaskHandle): void;
  has(id: string): boolean;
  /** The command a task runs, when known. */
  command(id: string): string | undefined;
  /** True while a registered task has not ended. */
  isRunning(id: string): boolean;
  /** Stops a task (`by` default `user`). Resolves false when the id is not registered here. */
  stop(id: string, by?: TaskStopper): Promise<boolean>;
  /** Waits until the task ends, `timeoutMs` passes or `signal` aborts. True when it ended (or is unknown). */
  waitForEnd(id: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  /** Bytes of output already handed to TaskOutput readers. */
  readOffset(id: string): number;
  setReadOffset(id: string, offset: number): void;
  /** Ids of registered tasks that have not ended. */
  runningIds(): string[];
  /** Stops every running task. */
  stopAll(): Promise<void>;
}

/** A sub-agent run a tool asks for (Skill with `context: fork`, …). */
export interface SubagentRequest {
  /** The task (for `fork`: the directive). */
  prompt: string;
  /** A short label (3-5 words) for transcripts and events. */
  description: string;
  /** The agent type (default `general-purpose`; `fork` continues from the caller's conversation). */
  agentType?: string;
  /** A model alias or id (default: the agent type's, else the caller's). */
  model?: string;
  /** Tools the sub-agent may use (rule-syntax tool names); absent: the agent type's list. */
  tools?: readonly string[];
  /** Tools taken away from it (after `tools`). */
  disallowedTools?: readonly string[];
}

/** How a sub-agent run ended. */
export interface SubagentReport {
  agentId: string;
  agentType: string;
  status: 'completed' | 'failed' | 'killed';
  /** The agent's final report, or what went wrong. */
  text: string;
  totalTokens: number;
  toolUseCount: number;
}

/**
 * Runs a sub-agent to its end on behalf of the calling tool (`context` is the call's: the child's
 * permissions narrow the session's, its abort follows the call's). Rejects when the session has
 * no agent types (the host did not enable sub-agents) or the type is unknown.
 */
export type SubagentRunner = (request: SubagentRequest, context: ToolUseContext) => Promise<SubagentReport>;

/** Hook events a tool fires itself (Claude Code's task-list and worktree events). */
export type ToolHookEvent = 'TaskCreated' | 'TaskCompleted' | 'WorktreeCreate' | 'WorktreeRemove';

/** What the hooks of one tool event said. */
export interface ToolHookOutcome {
  /** A hook blocked (exit 2, or JSON `decision: "block"`): the tool undoes the action and tells the model why. */
  blocked?: { reason: string };
  /** Non-blocking problems (a hook that timed out or failed to start), for the person. */
  errors: string[];
  /** Plain-text stdout of the hooks that succeeded (a WorktreeCreate command prints the worktree's path). */
  texts?: string[];
  /** `hookSpecificOutput.worktreePath` of a JSON answer (a WorktreeCreate callback or HTTP hook). */
  worktreePath?: string;
}

/**
 * Runs the session's hooks for an event a tool fires (command hooks from settings as real
 * processes, the host's callbacks), with Claude Code's input and output rules. The host (the loop)
 * adds the common input fields (`session_id`, `transcript_path`, `cwd`, `permission_mode`,
 * `hook_event_name`, agent labels); the tool gives the event's own fields.
 */
export interface ToolHookRunner {
  /** True when the session has a hook for `event` (a WorktreeCreate hook replaces git's default). */
  has?(event: ToolHookEvent): boolean;
  run(
    event: ToolHookEvent,
    input: Record<string, unknown>,
    options: { signal: AbortSignal; toolUseId?: string; agentId?: string },
  ): Promise<ToolHookOutcome>;
}

/** Rules a tool asks to hold until the person's next message (a skill's `allowed-tools`). */
export interface TemporaryRulesRequest {
  /** Allow rules, in rule syntax (`Bash(npm test:*)`, `Read(./docs/**)`). */
  allow: readonly string[];
  /** Deny rules (a skill's `disallowed-tools`); always accepted, they only narrow. */
  deny: readonly string[];
  /** Who asks, for decision reasons (`skill deploy`). */
  label: string;
  /** Where the asking file came from: a project's files widen permissions only in a trusted folder. */
  origin: 'project' | 'user';
}

/** What became of a {@link TemporaryRulesRequest}: each rule granted, or refused with the reason. */
export interface TemporaryRulesResult {
  granted: string[];
  refused: { rule: string; reason: string }[];
}

/**
 * Controls whose effect lasts until the person's next message: temporary permission rules and a
 * model override. The loop implements them (with the permission engine) and clears them when the
 * next user prompt arrives.
 */
export interface UntilNextPromptControls {
  /** Adds the rules the policy accepts (deny rules always; allow rules within what may be granted). */
  addRules(request: TemporaryRulesRequest): TemporaryRulesResult;
  /** Uses `model` for the model requests until the next prompt. */
  overrideModel?(model: string): void;
}

/**
 * Where a delivered text comes from when it is a prompt of its own rather than a tool event: the
 * `source` the UserPromptSubmit hook sees (Claude Code's names). `loop_wakeup`: a ScheduleWakeup
 * that came due; `schedule_wakeup`: a cron job that fired. Neither is the person typing.
 */
export type DeliverySource = 'loop_wakeup' | 'schedule_wakeup';

/** How {@link SessionInbox.deliver} hands its text over. */
export interface DeliveryOptions {
  /**
   * Set for a scheduled prompt: the text becomes a turn of its own (a synthetic user message
   * with this source), never folded into a running turn; while a turn runs it waits for the turn
   * to end. Absent: a tool event, folded into the next tool-result message of a running turn.
   */
  source?: DeliverySource;
  /**
   * Called once when the delivered text has been put into a message for the model (never, when
   * the session ends first).
   */
  onTaken?: () => void;
}

/**
 * Hands text to the session's model later, outside the call that produced it (a Monitor event, a
 * fired cron prompt, a wake-up). The loop implements it; see docs/runtime.md "Session services".
 */
export interface SessionInbox {
  /**
   * Delivers `text` to the model: inside the next tool-result message while a turn runs, or as a
   * new (synthetic) user turn when the loop is idle; with `options.source` always as a turn of
   * its own (see {@link DeliveryOptions}). Throws when the session has ended.
   * `options.onTaken` is called once, when the loop puts the text into a message for the model
   * (never, when the session ends first): a source that produces faster than the model reads
   * holds back what follows until then and sends it as one batch (the Monitor tool).
   */
  deliver(text: string, options?: DeliveryOptions): void;
  /**
   * Keeps a session whose input has ended (`gantry -p`) open until `until` settles, bounded by the
   * host's background wait (`QueryOptions.backgroundWaitMs`). A sub-agent's loop is not held.
   */
  hold(until: Promise<unknown>): void;
  /**
   * Resolves as soon as something waits for the model (at once when something waits already):
   * `'message'` for a message the person sent or a delivery, which the running turn's next
   * request carries; `'scheduled'` for a scheduled prompt, which comes only once the turn ends.
   * Resolves `undefined` when `signal` aborts first or the session ends. A tool that waits (Sleep)
   * races its timer against it. Optional: a host without it has nothing to wake a waiting tool.
   */
  whenPending?(signal: AbortSignal): Promise<PendingKind | undefined>;
}

/** What {@link SessionInbox.whenPending} found waiting. */
export type PendingKind = 'message' | 'scheduled';

/** Something a session shuts down when it ends (timers, connections). */
export interface SessionDisposable {
  dispose(): void | Promise<void>;
}

/** Something the session shuts down with itself (a language server, a connection). */
export interface SessionResource {
  dispose(): void | Promise<void>;
}

/**
 * The session's long-lived resources by name (`lsp:typescript`): a tool that starts something
 * which outlives its call registers it here, so it is found again by later calls and disposed with
 * the session (in reverse order of registration).
 */
export interface SessionResources {
  /** Registers `resource` under `name`. Throws when the name is taken or the session has ended. */
  register(name: string, resource: SessionResource): void;
  /** The resource registered under `name`. */
  get(name: string): SessionResource | undefined;
}

/** What else changes with the working directory (see {@link SessionWorkingDirectory}). */
export interface WorkingDirectoryChange {
  /** Also make `dir` a working directory (permissions, Bash): a directory outside the project. */
  addDirectory?: boolean;
  /** A working directory an earlier change added, to drop now. */
  removeDirectory?: string;
}

/**
 * Moves the calling context's session to another working directory (EnterWorktree,
 * ExitWorktree). The runtime implements it: the app state's `cwd` (Bash's next command starts
 * there; describers and hooks see it), the working directories, and the read-file state, which is
 * emptied (files read in the old checkout must be read again before they are edited). The loop
 * adds what it owns (the directory hook processes start in).
 */
export interface SessionWorkingDirectory {
  change(context: ToolUseContext, dir: string, options?: WorkingDirectoryChange): void;
}

/** The per-session services a tool may use (shared by the main session and its sub-agents). */
export interface SessionServices {
  /** The session's background tasks. */
  readonly tasks: BackgroundTaskRegistry;
  /** The model the session talks to, when the host configured one (the Agent tool, WebFetch's summariser). */
  readonly modelClient?: ModelClient;
  /** Starts a sub-agent for a tool, when the host enabled sub-agents (the agents room provides it). */
  readonly runSubagent?: SubagentRunner;
  /** The session's hooks for events tools fire (TaskCreated, TaskCompleted); absent: no hooks run. */
  readonly hooks?: ToolHookRunner;
  /** Temporary rules and model override until the next prompt; absent: nothing can be granted. */
  readonly untilNextPrompt?: UntilNextPromptControls;
  /**
   * Directory for the session's own persistent state beside its transcript
   * (`<gantryHome>/projects/<slug>/<sessionId>`: the task list); absent: tools fall back to
   * `AppState.sessionDir`.
   */
  readonly sessionStateDir?: string;
  /** Delivers text to the model later (events, fired prompts); absent: the host runs no loop. */
  readonly inbox?: SessionInbox;
  /** Resources that live as long as the session (language servers); absent: the host keeps none. */
  readonly resources?: SessionResources;
  /** Moves the session to another working directory; absent: the host cannot move it. */
  readonly workingDirectory?: SessionWorkingDirectory;
  /**
   * Registers something to shut down with the session (a tool's timers) under a unique `name`;
   * throws when the name is taken or the session is already disposed. Absent: the host does not
   * dispose tool resources (the tool then keeps nothing beyond the call).
   */
  register?(name: string, resource: SessionDisposable): void;
}
