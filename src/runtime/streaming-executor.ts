/**
 * The streaming executor (seed 000 §6.3): the host adds `tool_use` blocks while the model is still
 * streaming; each call starts as soon as it may:
 *   - nothing is running, or
 *   - it is concurrency-safe, everything running is concurrency-safe, and fewer than
 *     `maxConcurrency` are running.
 * Calls start in the order they were added: a queued unsafe call blocks everything behind it.
 * Context modifiers: an unsafe call's applies when it ends (before anything else starts); safe
 * calls' are held and applied in call order when no call is running any more (as a batch's are).
 * Results (after the turn budget) are yielded in call order once `finish()` was called and every
 * call ended; progress and `tool-call-end` updates are yielded live.
 */
import { AbortError, type ToolUseBlock } from '../core/index.js';
import { prepareCall } from './plan-batches.js';
import { notStartedOutcome } from './to-tool-result.js';
import type { Turn } from './turn.js';
import type { CallOutcome, PreparedCall, ToolRuntimeUpdate, TurnResult } from './types.js';

interface Entry {
  call: PreparedCall;
  status: 'queued' | 'running' | 'done';
  outcome?: CallOutcome;
}

export class StreamingToolExecutor {
  private readonly entries: Entry[] = [];
  private readonly pendingModifiers: CallOutcome[] = [];
  private finished = false;
  private completing = false;
  private fatal: { error: unknown } | undefined;
  private resolveResult!: (value: TurnResult) => void;
  private rejectResult!: (error: unknown) => void;
  private readonly result: Promise<TurnResult>;
  private consumed = false;

  /** Use `runtime.createStreamingExecutor()`; `onDone` runs once when the turn is over. */
  constructor(
    private readonly turn: Turn,
    private readonly onDone: () => void,
  ) {
    this.result = new Promise<TurnResult>((resolve, reject) => {
      this.resolveResult = resolve;
      this.rejectResult = reject;
    });
    this.result.catch(() => undefined);
    turn.signal.addEventListener('abort', () => this.processQueue(), { once: true });
  }

  /** Adds a `tool_use` the model just streamed. Throws when `finish()` was already called. */
  addTool(toolUse: ToolUseBlock): void {
    if (this.finished) throw new Error('StreamingToolExecutor: addTool() after finish()');
    const call = prepareCall(toolUse, this.entries.length, this.turn.context.options.tools);
    this.entries.push({ call, status: 'queued' });
    this.processQueue();
  }

  /** The model finished streaming: no more calls. Results are emitted once every call has ended. */
  finish(): void {
    this.finished = true;
    this.maybeComplete();
  }

  /** Aborts the turn: running calls end as aborted, queued ones as not started. */
  abort(reason?: unknown): void {
    this.turn.controller.abort(reason ?? new AbortError());
  }

  /** tool_use ids of the calls running now, in call order. */
  get runningToolUseIds(): string[] {
    return this.entries.filter((e) => e.status === 'running').map((e) => e.call.toolUse.id);
  }

  /**
   * The update stream: progress and `tool-call-end` live, then one `result` per call in call order.
   * Returns the turn's result. Can be consumed once. Leaving the loop early aborts the turn.
   */
  async *updates(): AsyncGenerator<ToolRuntimeUpdate, TurnResult, void> {
    if (this.consumed) throw new Error('StreamingToolExecutor: updates() can be consumed once');
    this.consumed = true;
    let done = false;
    try {
      for await (const update of this.turn.updates) yield update;
      const result = await this.result;
      done = true;
      return result;
    } finally {
      if (!done) this.abort();
    }
  }

  /** Resolves with the turn's result once `finish()` was called and every call ended (no need to read updates). */
  done(): Promise<TurnResult> {
    return this.result;
  }

  private canStart(entry: Entry, running: Entry[]): boolean {
    if (running.length === 0) return true;
    return (
      entry.call.isConcurrencySafe &&
      running.length < this.turn.maxConcurrency &&
      running.every((r) => r.call.isConcurrencySafe)
    );
  }

  private processQueue(): void {
    const aborted = this.turn.signal.aborted;
    for (const entry of this.entries) {
      if (entry.status !== 'queued') continue;
      if (aborted) {
        this.complete(
          entry,
          notStartedOutcome({
            index: entry.call.index,
            toolUseId: entry.call.toolUse.id,
            toolName: entry.call.tool?.name ?? entry.call.toolUse.name,
          }),
        );
        continue;
      }
      const running = this.entries.filter((e) => e.status === 'running');
      if (running.length === 0) this.flushModifiers();
      if (this.canStart(entry, running)) this.start(entry);
      else if (!entry.call.isConcurrencySafe) break;
    }
    this.maybeComplete();
  }

  private start(entry: Entry): void {
    entry.status = 'running';
    this.turn.runCall(entry.call).then(
      (outcome) => {
        if (entry.call.isConcurrencySafe) this.pendingModifiers.push(outcome);
        else this.turn.applyContextModifier(outcome);
        this.complete(entry, outcome);
        this.processQueue();
      },
      (error: unknown) => {
        this.fatal ??= { error };
        this.turn.controller.abort(error);
        entry.status = 'done';
        this.processQueue();
      },
    );
  }

  private complete(entry: Entry, outcome: CallOutcome): void {
    entry.status = 'done';
    entry.outcome = outcome;
  }

  private flushModifiers(): void {
    if (this.pendingModifiers.length === 0) return;
    const ordered = this.pendingModifiers.splice(0).sort((a, b) => a.index - b.index);
    for (const outcome of ordered) this.turn.applyContextModifier(outcome);
  }

  private maybeComplete(): void {
    if (!this.finished || this.completing) return;
    if (this.entries.some((e) => e.status !== 'done')) return;
    this.completing = true;
    this.flushModifiers();
    const finishTurn = async (): Promise<TurnResult> => {
      if (this.fatal) throw this.fatal.error;
      return this.turn.finish(this.entries.map((e) => e.outcome as CallOutcome));
    };
    finishTurn().then(
      (result) => {
        this.turn.updates.end();
        this.onDone();
        this.resolveResult(result);
      },
      (error: unknown) => {
        this.turn.updates.end(error);
        this.onDone();
        this.rejectResult(error);
      },
    );
  }
}
