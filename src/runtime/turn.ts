/**
 * One assistant turn's worth of tool calls: the turn's abort controller (linked to the host's
 * signal), the context calls run with (context modifiers change it), the update stream, the
 * scheduling of each call through the session's admission gate, and the last phase: the per-turn
 * budget and the in-order `result` updates.
 *
 * Scheduling (`schedule`): a call is queued in the gate in call order and starts when the gate
 * admits it (admission-gate.ts has the rule). Context modifiers: an unsafe call's applies when it
 * ends, before the gate admits anything else; safe calls' are held and applied, in call order,
 * just before the next call of this turn starts with none of the turn's calls running, and at the
 * end of the turn. An abort settles queued calls as "not started" at once.
 */
import {
  budgetChars,
  errorMessage,
  type PermissionDecider,
  ToolExecutionError,
  type ToolProgressEvent,
  type ToolUseContext,
} from '../core/index.js';
import type { AdmissionGate, Permit, QueuedAdmission } from './admission-gate.js';
import { AsyncQueue } from './async-queue.js';
import { type AbortFanout, dedicateController, TurnController } from './turn-controller.js';
import { applyTurnBudget } from './result-budget.js';
import { withNestedCalls } from './nested-call.js';
import { type CallEnvironment, runToolCall } from './run-tool-call.js';
import { errorToOutcome, notStartedOutcome } from './to-tool-result.js';
import type {
  CallOutcome,
  CallRecord,
  CanUseTool,
  PostCallHook,
  PreparedCall,
  ToolRuntimeUpdate,
  TurnResult,
} from './types.js';

export interface TurnOptions {
  context: ToolUseContext;
  signal: AbortSignal | undefined;
  decide: PermissionDecider;
  canUseTool: CanUseTool | undefined;
  gate: AdmissionGate;
  globalMaxResultSizeChars: number;
  maxTurnResultsChars: number;
  postCall?: PostCallHook | undefined;
  /** False when nobody reads `updates` (runToolsToCompletion): nothing is queued. Default true. */
  streamUpdates?: boolean;
  /** When the context's signal is the session's: its fanout, joined instead of adding a listener. */
  contextAbort?: AbortFanout | undefined;
}

/** What the turn's calls get from it (a class: one object per turn, its members on the prototype). */
class TurnEnvironment implements CallEnvironment {
  readonly decide: PermissionDecider;
  readonly canUseTool: CanUseTool | undefined;
  readonly globalMaxResultSizeChars: number;
  readonly postCall: PostCallHook | undefined;
  constructor(
    private readonly turn: Turn,
    options: TurnOptions,
  ) {
    this.decide = options.decide;
    this.canUseTool = options.canUseTool;
    this.globalMaxResultSizeChars = options.globalMaxResultSizeChars;
    this.postCall = options.postCall;
  }

  get signal(): AbortSignal {
    return this.turn.controller.signal;
  }

  get aborted(): boolean {
    return this.turn.controller.aborted;
  }

  onAbort(handler: () => void): void {
    this.turn.addAbortHandler(handler);
  }

  offAbort(handler: () => void): void {
    this.turn.removeAbortHandler(handler);
  }

  emitProgress(event: ToolProgressEvent, context: ToolUseContext): void {
    this.turn.progress(event, context);
  }
}

/** A call of this turn waiting in the gate. */
interface Queued {
  call: PreparedCall;
  admission: QueuedAdmission | undefined;
  resolve(outcome: CallOutcome): void;
}

export class Turn {
  readonly controller: TurnController;
  private queue: AsyncQueue<ToolRuntimeUpdate> | undefined;
  /** The context the next call starts with. */
  context: ToolUseContext;
  /** The modifiers applied to `context` so far, in order (to replay them onto a session context that moved on). */
  readonly appliedModifiers: ((context: ToolUseContext) => ToolUseContext)[] = [];
  private readonly env: CallEnvironment;
  private readonly options: TurnOptions;
  /** The listeners this turn left on the host's and its context's signals (removed by `dispose`). */
  private links: { signal: AbortSignal; onAbort: () => void }[] | undefined;
  private undelegate: (() => void) | undefined;
  /** The session's abort fanout this turn joined (left by `dispose`). */
  private joined: AbortFanout | undefined;
  private readonly streamUpdates: boolean;
  /** Calls in flight, told at once when the turn aborts. */
  private readonly abortHandlers = new Set<() => void>();
  /** Calls queued in the gate, not started yet. */
  private readonly queued = new Set<Queued>();
  /** Safe calls' outcomes whose modifiers wait until none of the turn's calls runs. */
  private readonly pendingModifiers: CallOutcome[] = [];
  private runningCount = 0;

  constructor(options: TurnOptions) {
    this.options = options;
    this.streamUpdates = options.streamUpdates !== false;
    this.controller = new TurnController(Math.max(50, options.gate.limit * 4), () => this.onAborted());
    this.controller.streamsUpdates = this.streamUpdates;
    // The turn aborts with the host's signal and with its context's own (a sub-agent's context
    // aborts with its parent).
    if (!this.link(options.signal)) {
      if (options.contextAbort) {
        if (!options.contextAbort.join(this.controller)) this.joined = options.contextAbort;
      } else this.link(options.context.abortController.signal);
    }
    // A turn run on behalf of a running call (a sub-agent's): that call stops counting in the gate.
    const owner = options.context.runningCall;
    if (owner && options.gate.owns(owner)) this.undelegate = options.gate.delegate(owner);
    // Copied and then set, not `{ ...context, abortController }` (V8 builds that key by key).
    this.context = Object.assign({}, options.context);
    this.context.abortController = this.controller;
    this.env = new TurnEnvironment(this, options);
  }

  /**
   * Makes the turn abort with `external`; true when `external` had aborted already (the turn is
   * then aborted, and nothing is linked).
   */
  private link(external: AbortSignal | undefined): boolean {
    if (!external) return false;
    if (external.aborted) {
      this.controller.abort(external.reason);
      return true;
    }
    const onAbort = () => this.controller.abort(external.reason);
    external.addEventListener('abort', onAbort, { once: true });
    (this.links ??= []).push({ signal: external, onAbort });
    return false;
  }

  /** Registers `handler` to run once if the turn aborts (at once when it has). */
  addAbortHandler(handler: () => void): void {
    if (this.controller.aborted) {
      handler();
      return;
    }
    this.abortHandlers.add(handler);
  }

  /** Unregisters a handler of `addAbortHandler` (nothing when it ran or was never added). */
  removeAbortHandler(handler: () => void): void {
    this.abortHandlers.delete(handler);
  }

  /** Delivers a call's progress event to its context's sink and the update stream. */
  progress(event: ToolProgressEvent, context: ToolUseContext): void {
    try {
      context.onProgress?.(event);
    } catch {
      // A failing progress sink must not fail the call.
    }
    if (this.streamUpdates) this.updates.push({ type: 'progress', event });
  }

  /** The update stream (made on first use: a turn nobody streams never needs it). */
  get updates(): AsyncQueue<ToolRuntimeUpdate> {
    this.queue ??= new AsyncQueue<ToolRuntimeUpdate>();
    return this.queue;
  }

  /** Ends the update stream (if anyone made it). */
  endUpdates(error?: unknown): void {
    this.queue?.end(error);
  }

  /**
   * Marks the turn as serving the one call `toolUseId` (a one-call turn): that call's tools may
   * treat the turn's signal as the call's own (`callOwnsAbortSignal`).
   */
  dedicateTo(toolUseId: string): void {
    dedicateController(this.controller, toolUseId);
  }

  /** True once the turn was aborted. */
  get aborted(): boolean {
    return this.controller.aborted;
  }

  /** The turn aborted: calls in flight are told, calls still waiting in the gate end as "not started". */
  private onAborted(): void {
    const handlers = [...this.abortHandlers];
    this.abortHandlers.clear();
    for (const handler of handlers) handler();
    this.cancelQueued();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * Queues `call` in the session's gate; resolves with its outcome once it ended (or at once as
   * "not started" when the turn is or gets aborted before the gate admits it). Rejects only with a
   * FatalError (after aborting the turn). Call in call order.
   */
  schedule(call: PreparedCall, onStart?: () => void): Promise<CallOutcome> {
    if (this.aborted) return Promise.resolve(this.notStarted(call));
    // Nothing waiting in the gate and room to run: admitted at once, without a queue entry.
    const permit = this.options.gate.tryAdmit(call.toolUse.id, call.isConcurrencySafe);
    if (permit) {
      onStart?.();
      return this.start(call, permit);
    }
    // A call the gate admits at once (the usual case) returns its run's own promise; one that
    // waits gets a promise settled when it has run (or as "not started" when the turn aborts).
    let running: Promise<CallOutcome> | undefined;
    let waiting: { resolve(o: CallOutcome): void; reject(e: unknown): void } | undefined;
    let early: CallOutcome | undefined;
    const entry: Queued = {
      call,
      admission: undefined,
      resolve: (outcome) => {
        if (waiting) waiting.resolve(outcome);
        else early = outcome;
      },
    };
    this.queued.add(entry);
    entry.admission = this.options.gate.enqueue({
      toolUseId: call.toolUse.id,
      concurrencySafe: call.isConcurrencySafe,
      start: (permit) => {
        this.queued.delete(entry);
        onStart?.();
        const run = this.start(call, permit);
        if (waiting) run.then(waiting.resolve, waiting.reject);
        else running = run;
      },
    });
    if (running) return running;
    if (early) return Promise.resolve(early);
    return new Promise<CallOutcome>((resolve, reject) => {
      waiting = { resolve, reject };
    });
  }

  /** Runs an admitted call (with the current context) and frees its place in the gate when it has ended. */
  private async start(call: PreparedCall, permit: Permit): Promise<CallOutcome> {
    if (this.aborted) {
      permit.release();
      return this.notStarted(call);
    }
    if (this.runningCount === 0) this.flushModifiers();
    this.runningCount++;
    try {
      // The call's own context: its `toolUseId` and running-call handle, the turn's abort controller.
      // Copied and then set (not `{ ...context, toolUseId, … }`: V8 builds a spread literal with
      // new keys key by key at run time, several times slower); same keys, order and values.
      const context: ToolUseContext = Object.assign({}, this.context);
      context.abortController = this.controller;
      context.toolUseId = call.toolUse.id;
      context.runningCall = permit;
      withNestedCalls(context, this.env);
      const outcome = await runToolCall(call, context, this.env);
      if (this.streamUpdates && outcome.status !== 'not-started') {
        const agentId = this.context.agentId;
        this.updates.push({
          type: 'tool-call-end',
          toolUseId: outcome.toolUseId,
          toolName: outcome.toolName,
          ...(agentId !== undefined ? { agentId } : {}),
          isError: outcome.isError,
          durationMs: outcome.durationMs,
        });
      }
      if (call.isConcurrencySafe) this.pendingModifiers.push(outcome);
      else this.applyContextModifier(outcome);
      return outcome;
    } catch (error) {
      // FatalError: the turn ends.
      this.controller.abort(error);
      throw error;
    } finally {
      this.runningCount--;
      permit.release();
    }
  }

  private notStarted(call: PreparedCall): CallOutcome {
    return notStartedOutcome({
      index: call.index,
      toolUseId: call.toolUse.id,
      toolName: call.tool?.name ?? call.toolUse.name,
    });
  }

  /** The turn aborted: calls still waiting in the gate end as "not started" without running. */
  private cancelQueued(): void {
    const entries = [...this.queued];
    this.queued.clear();
    for (const entry of entries) {
      if (entry.admission?.cancel() !== false) entry.resolve(this.notStarted(entry.call));
    }
  }

  /** Applies the held modifiers of safe calls, in call order. */
  flushModifiers(): void {
    if (this.pendingModifiers.length === 0) return;
    const ordered = this.pendingModifiers.splice(0).sort((a, b) => a.index - b.index);
    for (const outcome of ordered) this.applyContextModifier(outcome);
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
      this.appliedModifiers.push(modifier);
    } catch (error) {
      const { input, decision } = outcome;
      Object.assign(
        outcome,
        errorToOutcome(
          new ToolExecutionError(
            `${outcome.toolName} ran, but applying its change to the session context failed (${errorMessage(error)}). Later calls did not see that change.`,
          ),
          { ...outcome, stage: 'running', aborted: false },
        ),
      );
      if (input) outcome.input = input;
      if (decision) outcome.decision = decision;
    }
  }

  /**
   * Last phase: applies the held modifiers and the per-turn budget, emits one `result` update per
   * outcome in call order, and returns the turn's result. `outcomes` must be indexed by call order
   * with no gaps.
   */
  finish(outcomes: CallOutcome[]): TurnResult | Promise<TurnResult> {
    this.flushModifiers();
    // Results over the per-turn budget are spilled first (I/O); otherwise the result is built at once.
    let total = 0;
    for (const o of outcomes) total += budgetChars(o.content);
    if (total <= this.options.maxTurnResultsChars) return this.results(outcomes);
    return applyTurnBudget(outcomes, {
      sessionDir: this.context.getAppState().sessionDir,
      maxTurnChars: this.options.maxTurnResultsChars,
    }).then(() => this.results(outcomes));
  }

  /** The turn's result from its final outcomes (and the `result` updates). */
  private results(outcomes: CallOutcome[]): TurnResult {
    const agentId = this.options.context.agentId;
    const result: TurnResult = { results: [], newMessages: [], calls: [], context: this.options.context };
    for (const o of outcomes) {
      const block = { type: 'tool_result' as const, tool_use_id: o.toolUseId, content: o.content };
      const final = o.isError ? { ...block, is_error: true } : block;
      const record: CallRecord = {
        toolUseId: o.toolUseId,
        toolName: o.toolName,
        status: o.status,
        isError: o.isError,
        durationMs: o.durationMs,
        newMessages: o.newMessages,
      };
      if (agentId !== undefined) record.agentId = agentId;
      if (o.status === 'ok' || 'data' in o) record.data = o.data;
      if (o.input) record.input = o.input;
      if (o.decision) record.decision = o.decision;
      if (o.postCallError !== undefined) record.postCallError = o.postCallError;
      result.results.push(final);
      result.calls.push(record);
      result.newMessages.push(...o.newMessages);
      if (this.streamUpdates) {
        this.updates.push({
          type: 'result',
          block: final,
          toolName: o.toolName,
          ...(agentId !== undefined ? { agentId } : {}),
          newMessages: o.newMessages,
          call: record,
        });
      }
    }
    const context = Object.assign({}, this.context);
    context.abortController = this.options.context.abortController;
    result.context = context;
    return result;
  }

  /** Detaches from the host's signal and gives the delegating call back its place. Call once when the turn is over. */
  dispose(): void {
    const links = this.links;
    this.links = undefined;
    if (links) for (const { signal, onAbort } of links) signal.removeEventListener('abort', onAbort);
    this.joined?.leave(this.controller);
    this.joined = undefined;
    this.undelegate?.();
    this.undelegate = undefined;
  }
}
