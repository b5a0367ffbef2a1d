/**
 * One assistant turn's worth of tool calls: the turn's abort controller (linked to the host's
 * signal), the context calls run with (context modifiers change it), the update stream, and the
 * last phase: the per-turn budget and the in-order `result` updates. Both schedulers (batches in
 * `run-tool-calls.ts`, the streaming executor) drive a Turn.
 */
import { setMaxListeners } from 'node:events';
import {
  errorMessage,
  type PermissionDecider,
  ToolExecutionError,
  type ToolProgressEvent,
  type ToolUseContext,
} from '../core/index.js';
import { AsyncQueue } from './async-queue.js';
import { applyTurnBudget } from './result-budget.js';
import { type CallEnvironment, runToolCall } from './run-tool-call.js';
import { errorToOutcome } from './to-tool-result.js';
import type { CallOutcome, CanUseTool, PreparedCall, ToolRuntimeUpdate, TurnResult } from './types.js';

export interface TurnOptions {
  context: ToolUseContext;
  signal: AbortSignal | undefined;
  decide: PermissionDecider;
  canUseTool: CanUseTool | undefined;
  maxConcurrency: number;
  globalMaxResultSizeChars: number;
  maxTurnResultsChars: number;
  /** False when nobody reads `updates` (runToolsToCompletion): nothing is queued. Default true. */
  streamUpdates?: boolean;
}

export class Turn {
  readonly controller = new AbortController();
  readonly updates = new AsyncQueue<ToolRuntimeUpdate>();
  readonly maxConcurrency: number;
  /** The context the next call starts with. */
  context: ToolUseContext;
  private readonly env: CallEnvironment;
  private readonly options: TurnOptions;
  private unlink: (() => void) | undefined;
  private readonly streamUpdates: boolean;
  /** Calls in flight, told at once when the turn aborts. */
  private readonly abortHandlers = new Set<() => void>();

  constructor(options: TurnOptions) {
    this.options = options;
    this.streamUpdates = options.streamUpdates !== false;
    this.maxConcurrency = options.maxConcurrency;
    // Every running call and its tool may listen to this signal; Node's default warning threshold is 10.
    setMaxListeners(Math.max(50, options.maxConcurrency * 4), this.controller.signal);
    const external = options.signal;
    if (external) {
      if (external.aborted) this.controller.abort(external.reason);
      else {
        const onAbort = () => this.controller.abort(external.reason);
        external.addEventListener('abort', onAbort, { once: true });
        this.unlink = () => external.removeEventListener('abort', onAbort);
      }
    }
    this.context = { ...options.context, abortController: this.controller };
    const signal = this.controller.signal;
    signal.addEventListener(
      'abort',
      () => {
        const handlers = [...this.abortHandlers];
        this.abortHandlers.clear();
        for (const handler of handlers) handler();
      },
      { once: true },
    );
    this.env = {
      signal,
      onAbort: (handler) => {
        if (signal.aborted) {
          handler();
          return () => undefined;
        }
        this.abortHandlers.add(handler);
        return () => this.abortHandlers.delete(handler);
      },
      decide: options.decide,
      canUseTool: options.canUseTool,
      globalMaxResultSizeChars: options.globalMaxResultSizeChars,
      emitProgress: (event: ToolProgressEvent, context: ToolUseContext) => {
        try {
          context.onProgress?.(event);
        } catch {
          // A failing progress sink must not fail the call.
        }
        if (this.streamUpdates) this.updates.push({ type: 'progress', event });
      },
    };
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Runs one call with the current context (its own `toolUseId`, the turn's abort controller). */
  async runCall(call: PreparedCall): Promise<CallOutcome> {
    const context: ToolUseContext = {
      ...this.context,
      abortController: this.controller,
      toolUseId: call.toolUse.id,
    };
    const outcome = await runToolCall(call, context, this.env);
    if (this.streamUpdates && outcome.status !== 'not-started')
      this.updates.push({
        type: 'tool-call-end',
        toolUseId: outcome.toolUseId,
        toolName: outcome.toolName,
        isError: outcome.isError,
        durationMs: outcome.durationMs,
      });
    return outcome;
  }

  /**
   * Applies the outcome's context modifier to the turn's context (once). A modifier that throws or
   * returns nothing leaves the context unchanged and turns the call's result into an error saying so.
   */
  applyContextModifier(outcome: CallOutcome): void {
    const modifier = outcome.contextModifier;
    if (!modifier) return;
    delete outcome.contextModifier;
    try {
      const next = modifier(this.context);
      if (!next || typeof next !== 'object') throw new Error('the modifier returned no context');
      this.context = next;
    } catch (error) {
      Object.assign(
        outcome,
        errorToOutcome(
          new ToolExecutionError(
            `${outcome.toolName} ran, but applying its change to the session context failed (${errorMessage(error)}). Later calls did not see that change.`,
          ),
          { ...outcome, stage: 'running', aborted: false },
        ),
      );
    }
  }

  /**
   * Last phase: applies the per-turn budget, emits one `result` update per outcome in call order,
   * and returns the turn's result. `outcomes` must be indexed by call order with no gaps.
   */
  async finish(outcomes: CallOutcome[]): Promise<TurnResult> {
    await applyTurnBudget(outcomes, {
      sessionDir: this.context.getAppState().sessionDir,
      maxTurnChars: this.options.maxTurnResultsChars,
    });
    const result: TurnResult = { results: [], newMessages: [] };
    for (const o of outcomes) {
      const block = { type: 'tool_result' as const, tool_use_id: o.toolUseId, content: o.content };
      const final = o.isError ? { ...block, is_error: true } : block;
      result.results.push(final);
      result.newMessages.push(...o.newMessages);
      if (this.streamUpdates) {
        this.updates.push({ type: 'result', block: final, toolName: o.toolName, newMessages: o.newMessages });
      }
    }
    return result;
  }

  /** Detaches from the host's signal. Call once when the turn is over. */
  dispose(): void {
    this.unlink?.();
    this.unlink = undefined;
  }
}
