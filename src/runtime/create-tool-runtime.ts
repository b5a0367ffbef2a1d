/**
 * `createToolRuntime`: the library's entry point for running tool calls. It owns the session's
 * ToolUseContext (app state, read-file state), its services (background tasks, sandbox, model
 * client) and its admission gate, and runs turns: `runTools` / `runToolsToCompletion` for a turn
 * whose calls are all known, or a streaming executor for calls that arrive while the model streams.
 * Several turns may run at once (a parent and its sub-agents, concurrent MCP requests); the gate
 * applies the concurrency rule across all of them.
 *
 * Sequence of a turn: prepare (look up + parse each call, ask its concurrency safety) → the gate
 * admits it → its pipeline (run-tool-call.ts) → context modifiers → per-turn budget → `result`
 * updates in call order. docs/runtime.md is the reference.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import path from 'node:path';
import {
  type AnyTool,
  type AppState,
  type Message,
  type ModelClient,
  type PermissionDecider,
  type PermissionMode,
  ReadFileState,
  type SubagentRunner,
  type ToolProgressEvent,
  type ToolUseBlock,
  type ToolUseContext,
} from '../core/index.js';
import { sessionDirFor } from '../tools/file-io/session-files.js';
import { AdmissionGate } from './admission-gate.js';
import { askAllDecider } from './deciders.js';
import {
  GLOBAL_MAX_RESULT_SIZE_CHARS,
  MAX_TURN_RESULTS_CHARS,
  resolveMaxToolUseConcurrency,
} from './limits.js';
import { createSessionServices, type SessionServicesHandle } from './session-services.js';
import { runSingleCallTurn } from './single-call-turn.js';
import { StreamingToolExecutor } from './streaming-executor.js';
import { AbortFanout } from './turn-controller.js';
import { Turn } from './turn.js';
import type { CanUseTool, PostCallHook, ToolRuntimeUpdate, TurnResult } from './types.js';

export interface ToolRuntimeOptions {
  /** The tools the model may call (the pool's `callable` list: `assembleToolPool`). */
  tools: readonly AnyTool[];
  /** Absolute working directory of the session. */
  cwd: string;
  /** Project root (default: `cwd`). */
  projectRoot?: string;
  additionalDirectories?: string[];
  /** Default: a random UUID. */
  sessionId?: string;
  /**
   * Where spilled results and task output go (default: `~/.gantry/sessions/<sessionId>`; created on
   * demand, pruned by `pruneSessionDirs` after the retention time).
   */
  sessionDir?: string;
  /** The session's plan file (`AppState.planFilePath` at start; the plan-mode tools use it). */
  planFilePath?: string;
  /** Default `default`. */
  permissionMode?: PermissionMode;
  /**
   * The permission decider (default: `askAllDecider`, so with no `canUseTool` every call is denied).
   * The real engine from `src/permissions` plugs in here.
   */
  decide?: PermissionDecider;
  /** The host's answer to `ask` decisions; absent ⇒ `ask` becomes deny. */
  canUseTool?: CanUseTool;
  /** Told after each call that started (Claude Code's PostToolUse / PostToolUseFailure seam). */
  postCall?: PostCallHook;
  /** Host progress sink (becomes `context.onProgress`); progress is also yielded as updates. */
  onProgress?: (event: ToolProgressEvent) => void;
  /** Host notifications outside a call (`context.notify`). */
  notify?: ToolUseContext['notify'];
  /**
   * The session's services (default: new ones, owned by this runtime: `runtime.services.dispose()`
   * ends them). Pass the same handle to share background tasks and clients between runtimes.
   */
  services?: SessionServicesHandle;
  /** The model client for new services (ignored when `services` is given). */
  modelClient?: ModelClient;
  /** How tools start sub-agents, for new services (ignored when `services` is given). */
  runSubagent?: SubagentRunner;
  /** At most this many concurrency-safe calls at once (default: env `GANTRY_MAX_TOOL_USE_CONCURRENCY`, else 10). */
  maxConcurrency?: number;
  /** Global inline cap per result in characters (default 50,000). */
  maxResultSizeChars?: number;
  /** Shared budget of one turn's results in characters (default 200,000). */
  maxTurnResultsChars?: number;
  compat?: Record<string, unknown>;
  /** Read-file state to start from (default: empty). */
  readFileState?: ReadFileState;
  /** Environment read for `GANTRY_MAX_TOOL_USE_CONCURRENCY` (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** The sub-agent this runtime runs for (`ToolUseContext.agentId`); absent for the main session. */
  agentId?: string;
}

/** Options of one turn. */
export interface TurnRunOptions {
  /** Aborting it aborts the turn: every call ends with exactly one result. */
  signal?: AbortSignal;
  /** The conversation as the host keeps it (becomes `context.messages` for this turn's calls). */
  messages?: readonly Message[];
  /**
   * Run the turn in this context instead of the session's: a sub-agent's (`createChildContext`),
   * with its own tools, state scope and abort signal. Its context modifiers stay in that context
   * (`TurnResult.context`); the session context is not changed.
   */
  context?: ToolUseContext;
}

export interface ToolRuntime {
  /** The session context as it stands between turns (context modifiers of past turns applied). */
  readonly context: ToolUseContext;
  getAppState(): AppState;
  /** The concurrency cap in force. */
  readonly maxConcurrency: number;
  /** The session's admission gate (shared by every turn of this runtime). */
  readonly gate: AdmissionGate;
  /** The session's services (background tasks, sandbox, clients); `dispose()` them when the session ends. */
  readonly services: SessionServicesHandle;
  /**
   * Runs a turn's `tool_use` blocks. Yields progress and `tool-call-end` live, then one `result`
   * per `tool_use` in call order; returns the TurnResult. Throws only FatalError. Leaving the loop
   * early aborts the turn. Other turns may run at the same time.
   */
  runTools(
    toolUses: readonly ToolUseBlock[],
    options?: TurnRunOptions,
  ): AsyncGenerator<ToolRuntimeUpdate, TurnResult, void>;
  /** `runTools` consumed to the end. */
  runToolsToCompletion(toolUses: readonly ToolUseBlock[], options?: TurnRunOptions): Promise<TurnResult>;
  /**
   * Starts a turn whose calls arrive while the model streams (see StreamingToolExecutor). The host
   * must call `finish()` when the model's stream ends (also after an abort).
   */
  createStreamingExecutor(options?: TurnRunOptions): StreamingToolExecutor;
}

/** Builds the session's ToolUseContext and the runtime around it. Throws RangeError on a bad `maxConcurrency`. */
export function createToolRuntime(options: ToolRuntimeOptions): ToolRuntime {
  const sessionId = options.sessionId ?? randomUUID();
  const cwd = path.resolve(options.cwd);
  let appState: AppState = {
    sessionId,
    projectRoot: path.resolve(options.projectRoot ?? cwd),
    cwd,
    additionalDirectories: (options.additionalDirectories ?? []).map((d) => path.resolve(d)),
    permissionMode: options.permissionMode ?? 'default',
    sessionDir: path.resolve(options.sessionDir ?? sessionDirFor(sessionId)),
    tasks: {},
    ...(options.planFilePath ? { planFilePath: path.resolve(options.planFilePath) } : {}),
  };
  const setAppState = (updater: (prev: AppState) => AppState): void => {
    appState = updater(appState);
  };
  const services =
    options.services ??
    createSessionServices({
      ...(options.modelClient ? { modelClient: options.modelClient } : {}),
      ...(options.runSubagent ? { runSubagent: options.runSubagent } : {}),
    });
  let context: ToolUseContext = {
    abortController: new AbortController(),
    options: {
      tools: options.tools,
      ...(options.compat ? { compat: options.compat } : {}),
    },
    getAppState: () => appState,
    setAppState,
    setAppStateForTasks: setAppState,
    readFileState: options.readFileState ?? new ReadFileState(),
    messages: [],
    services,
    ...(options.agentId ? { agentId: options.agentId } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.notify ? { notify: options.notify } : {}),
  };
  const sessionController = context.abortController;
  // Turns of the session context join `sessionAbort` (one listener); others (sub-agents' child
  // contexts, tools) may listen to the session's signal too and remove their listener when they
  // end, so there is no count to warn about.
  setMaxListeners(0, sessionController.signal);
  // Session turns join this one listener instead of each adding its own.
  const sessionAbort = new AbortFanout(sessionController.signal);
  const maxConcurrency = resolveMaxToolUseConcurrency(options.maxConcurrency, options.env);
  const gate = new AdmissionGate(maxConcurrency);

  const beginTurn = (turnOptions: TurnRunOptions = {}, streamUpdates = true): Turn => {
    const base = turnOptions.context ?? context;
    return new Turn({
      context: turnOptions.messages ? { ...base, messages: turnOptions.messages } : base,
      signal: turnOptions.signal,
      decide: options.decide ?? askAllDecider,
      canUseTool: options.canUseTool,
      gate,
      postCall: options.postCall,
      globalMaxResultSizeChars: options.maxResultSizeChars ?? GLOBAL_MAX_RESULT_SIZE_CHARS,
      maxTurnResultsChars: options.maxTurnResultsChars ?? MAX_TURN_RESULTS_CHARS,
      streamUpdates,
      contextAbort: base.abortController === sessionController ? sessionAbort : undefined,
    });
  };
  const startTurn = (turn: Turn, sessionBase: ToolUseContext | undefined): StreamingToolExecutor =>
    new StreamingToolExecutor(turn, () => endTurn(turn, sessionBase));
  const runBatchTurn = (executor: StreamingToolExecutor, toolUses: readonly ToolUseBlock[]) => {
    for (const toolUse of toolUses) executor.addTool(toolUse);
    executor.finish();
    return executor.done();
  };
  /**
   * Keeps what a session turn changed, not its abort controller: the next turn brings its own, and
   * keeping it would chain every finished Turn to the next. When another turn changed the session
   * context meanwhile, this turn's modifiers are applied to the context as it is now.
   */
  const endTurn = (turn: Turn, sessionBase: ToolUseContext | undefined): void => {
    turn.dispose();
    if (!sessionBase) return;
    if (context === sessionBase) {
      // Nothing changed (no modifier, the same messages): the session context stays as it is.
      if (turn.appliedModifiers.length === 0 && turn.context.messages === sessionBase.messages) return;
      context = { ...turn.context, abortController: sessionController };
      return;
    }
    if (turn.appliedModifiers.length === 0) return;
    let next = context;
    for (const modifier of turn.appliedModifiers) {
      try {
        const changed = modifier(next);
        if (changed && typeof changed === 'object') next = changed;
      } catch {
        // Reported on the call's result already; the session keeps the context without it.
      }
    }
    context = { ...next, abortController: sessionController };
  };

  function begin(turnOptions: TurnRunOptions | undefined, streamUpdates: boolean) {
    const turn = beginTurn(turnOptions, streamUpdates);
    return startTurn(turn, turnOptions?.context ? undefined : context);
  }

  async function* runTools(
    toolUses: readonly ToolUseBlock[],
    turnOptions?: TurnRunOptions,
  ): AsyncGenerator<ToolRuntimeUpdate, TurnResult, void> {
    const executor = begin(turnOptions, true);
    runBatchTurn(executor, toolUses).catch(() => undefined);
    return yield* executor.updates();
  }

  return {
    get context() {
      return context;
    },
    getAppState: () => appState,
    maxConcurrency,
    gate,
    services,
    runTools,
    runToolsToCompletion(toolUses, turnOptions) {
      const only = toolUses.length === 1 ? toolUses[0] : undefined;
      if (only) {
        const sessionBase = turnOptions?.context ? undefined : context;
        const turn = beginTurn(turnOptions, false);
        return runSingleCallTurn(turn, only, () => endTurn(turn, sessionBase));
      }
      return runBatchTurn(begin(turnOptions, false), toolUses);
    },
    createStreamingExecutor(turnOptions) {
      return begin(turnOptions, true);
    },
  };
}
