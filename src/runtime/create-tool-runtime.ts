/**
 * `createToolRuntime`: the library's entry point for running tool calls (design.md §6 "Library").
 * It owns the session's ToolUseContext (AppState, read-file state, decisions) and runs one turn at a
 * time: `runTools` / `runToolsToCompletion` for a turn whose calls are all known, or a streaming
 * executor for calls that arrive while the model streams.
 *
 * Sequence of a turn: prepare (look up + parse each call) → schedule (batches, or the streaming
 * start rule) → each call's pipeline (run-tool-call.ts) → context modifiers → per-turn budget →
 * `result` updates in call order.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  type AnyTool,
  type AppState,
  type McpClientInfo,
  type PermissionDecider,
  type PermissionMode,
  ReadFileState,
  type ThinkingConfig,
  type ToolProgressEvent,
  type ToolUseBlock,
  type ToolUseContext,
} from '../core/index.js';
import { sessionDirFor } from '../tools/file-io/session-files.js';
import { askAllDecider } from './deciders.js';
import {
  GLOBAL_MAX_RESULT_SIZE_CHARS,
  MAX_TURN_RESULTS_CHARS,
  resolveMaxToolUseConcurrency,
} from './limits.js';
import { prepareCall } from './plan-batches.js';
import { runToolCallsInBatches } from './run-tool-calls.js';
import { StreamingToolExecutor } from './streaming-executor.js';
import { Turn } from './turn.js';
import type { CanUseTool, ToolRuntimeUpdate, TurnResult } from './types.js';

export interface ToolRuntimeOptions {
  /** The tools the model may call (already filtered: `getTools()` from the registry, plus MCP tools…). */
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
  /** Default `default`. */
  permissionMode?: PermissionMode;
  /**
   * The permission decider (default: `askAllDecider`, so with no `canUseTool` every call is denied).
   * The real engine from `src/permissions` plugs in here.
   */
  decide?: PermissionDecider;
  /** The host's answer to `ask` decisions; absent ⇒ `ask` becomes deny. */
  canUseTool?: CanUseTool;
  /** Host progress sink (becomes `context.onProgress`); progress is also yielded as updates. */
  onProgress?: (event: ToolProgressEvent) => void;
  /** Host notifications outside a call (`context.notify`). */
  notify?: ToolUseContext['notify'];
  /** At most this many concurrency-safe calls at once (default: env `GANTRY_MAX_TOOL_USE_CONCURRENCY`, else 10). */
  maxConcurrency?: number;
  /** Global inline cap per result in characters (default 50,000). */
  maxResultSizeChars?: number;
  /** Shared budget of one turn's results in characters (default 200,000). */
  maxTurnResultsChars?: number;
  mainLoopModel?: string;
  mcpClients?: readonly McpClientInfo[];
  thinkingConfig?: ThinkingConfig;
  compat?: Record<string, unknown>;
  /** Read-file state to start from (default: empty). */
  readFileState?: ReadFileState;
  /** Environment read for `GANTRY_MAX_TOOL_USE_CONCURRENCY` (default `process.env`). */
  env?: Record<string, string | undefined>;
}

/** Options of one turn. */
export interface TurnRunOptions {
  /** Aborting it aborts the turn: every call ends with exactly one result. */
  signal?: AbortSignal;
  /** The conversation as the host keeps it (becomes `context.messages` for this turn's calls). */
  messages?: readonly unknown[];
}

export interface ToolRuntime {
  /** The session context as it stands between turns (context modifiers of past turns applied). */
  readonly context: ToolUseContext;
  getAppState(): AppState;
  /** The concurrency cap in force. */
  readonly maxConcurrency: number;
  /**
   * Runs a turn's `tool_use` blocks. Yields progress and `tool-call-end` live, then one `result`
   * per `tool_use` in call order; returns the TurnResult. Throws only FatalError (and Error when a
   * turn is already running). Leaving the loop early aborts the turn.
   */
  runTools(
    toolUses: readonly ToolUseBlock[],
    options?: TurnRunOptions,
  ): AsyncGenerator<ToolRuntimeUpdate, TurnResult, void>;
  /** `runTools` consumed to the end. */
  runToolsToCompletion(toolUses: readonly ToolUseBlock[], options?: TurnRunOptions): Promise<TurnResult>;
  /**
   * Starts a turn whose calls arrive while the model streams (see StreamingToolExecutor). The host
   * must call `finish()` when the model's stream ends (also after an abort): until the turn is
   * over, the runtime refuses other turns.
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
  };
  const setAppState = (updater: (prev: AppState) => AppState): void => {
    appState = updater(appState);
  };
  let context: ToolUseContext = {
    abortController: new AbortController(),
    options: {
      tools: options.tools,
      mainLoopModel: options.mainLoopModel ?? 'unknown',
      mcpClients: options.mcpClients ?? [],
      thinkingConfig: options.thinkingConfig ?? { type: 'disabled' },
      ...(options.compat ? { compat: options.compat } : {}),
    },
    getAppState: () => appState,
    setAppState,
    setAppStateForTasks: setAppState,
    readFileState: options.readFileState ?? new ReadFileState(),
    messages: [],
    toolDecisions: new Map(),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.notify ? { notify: options.notify } : {}),
  };
  const sessionController = context.abortController;
  const maxConcurrency = resolveMaxToolUseConcurrency(options.maxConcurrency, options.env);
  let turnActive = false;

  const beginTurn = (turnOptions: TurnRunOptions = {}, streamUpdates = true): Turn => {
    if (turnActive) throw new Error('createToolRuntime: a turn is already running on this runtime');
    turnActive = true;
    return new Turn({
      context: turnOptions.messages ? { ...context, messages: turnOptions.messages } : context,
      signal: turnOptions.signal,
      decide: options.decide ?? askAllDecider,
      canUseTool: options.canUseTool,
      maxConcurrency,
      globalMaxResultSizeChars: options.maxResultSizeChars ?? GLOBAL_MAX_RESULT_SIZE_CHARS,
      maxTurnResultsChars: options.maxTurnResultsChars ?? MAX_TURN_RESULTS_CHARS,
      streamUpdates,
    });
  };
  const runBatchTurn = async (turn: Turn, toolUses: readonly ToolUseBlock[]): Promise<TurnResult> => {
    const calls = toolUses.map((toolUse, index) => prepareCall(toolUse, index, turn.context.options.tools));
    const outcomes = await runToolCallsInBatches(turn, calls);
    return turn.finish(outcomes);
  };
  const endTurn = (turn: Turn): void => {
    // Keep what the turn changed, not its abort controller: the next turn brings its own, and
    // keeping it would chain every finished Turn to the next (its signal's listener holds the Turn,
    // whose options hold the context before it), so a long session would never free its turns.
    context = { ...turn.context, abortController: sessionController };
    turn.dispose();
    turnActive = false;
  };

  async function* runTools(
    toolUses: readonly ToolUseBlock[],
    turnOptions?: TurnRunOptions,
  ): AsyncGenerator<ToolRuntimeUpdate, TurnResult, void> {
    const turn = beginTurn(turnOptions);
    let completed = false;
    const work = runBatchTurn(turn, toolUses);
    work.then(
      () => turn.updates.end(),
      (error: unknown) => turn.updates.end(error),
    );
    try {
      for await (const update of turn.updates) yield update;
      const result = await work;
      completed = true;
      return result;
    } finally {
      if (!completed) {
        turn.controller.abort();
        await work.catch(() => undefined);
      }
      endTurn(turn);
    }
  }

  return {
    get context() {
      return context;
    },
    getAppState: () => appState,
    maxConcurrency,
    runTools,
    async runToolsToCompletion(toolUses, turnOptions) {
      const turn = beginTurn(turnOptions, false);
      try {
        return await runBatchTurn(turn, toolUses);
      } finally {
        endTurn(turn);
      }
    },
    createStreamingExecutor(turnOptions) {
      const turn = beginTurn(turnOptions);
      return new StreamingToolExecutor(turn, () => endTurn(turn));
    },
  };
}
