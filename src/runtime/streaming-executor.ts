/**
 * The streaming executor: the host adds `tool_use` blocks while the model is still streaming; each
 * call is queued in the session's admission gate at once and starts as soon as the gate admits it
 * (admission-gate.ts: safe calls together up to the limit, an unsafe call alone, in call order; a
 * queued unsafe call blocks everything behind it). A whole turn known up front is the same thing:
 * every call added, then `finish()`.
 *
 * Results (after the turn budget) are yielded in call order once `finish()` was called and every
 * call ended; progress and `tool-call-end` updates are yielded live.
 */
import { AbortError, type ToolUseBlock } from '../core/index.js';
import { prepareCall } from './prepare-call.js';
import type { Turn } from './turn.js';
import type { CallOutcome, ToolRuntimeUpdate, TurnResult } from './types.js';

interface Entry {
  toolUseId: string;
  status: 'queued' | 'running' | 'done';
  outcome?: CallOutcome;
}

export class StreamingToolExecutor {
  private readonly entries: Entry[] = [];
  private finished = false;
  private completing = false;
  private fatal: { error: unknown } | undefined;
  private resolveResult!: (value: TurnResult) => void;
  private rejectResult!: (error: unknown) => void;
  private readonly result: Promise<TurnResult>;
  private consumed = false;
  private open = 0;

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
  }

  /** Adds a `tool_use` the model just streamed. Throws when `finish()` was already called. */
  addTool(toolUse: ToolUseBlock): void {
    if (this.finished) throw new Error('StreamingToolExecutor: addTool() after finish()');
    const context = this.turn.context;
    const call = prepareCall(toolUse, this.entries.length, context.options.tools, context);
    const entry: Entry = { toolUseId: toolUse.id, status: 'queued' };
    this.entries.push(entry);
    this.open++;
    this.turn
      .schedule(call, () => {
        entry.status = 'running';
      })
      .then(
        (outcome) => {
          entry.outcome = outcome;
          this.settle(entry);
        },
        (error: unknown) => {
          this.fatal ??= { error };
          this.settle(entry);
        },
      );
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
    return this.entries.filter((e) => e.status === 'running').map((e) => e.toolUseId);
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

  private settle(entry: Entry): void {
    entry.status = 'done';
    this.open--;
    this.maybeComplete();
  }

  private maybeComplete(): void {
    if (!this.finished || this.completing || this.open > 0) return;
    this.completing = true;
    const succeed = (result: TurnResult): void => {
      this.turn.endUpdates();
      this.onDone();
      this.resolveResult(result);
    };
    const fail = (error: unknown): void => {
      this.turn.endUpdates(error);
      this.onDone();
      this.rejectResult(error);
    };
    if (this.fatal) return fail(this.fatal.error);
    let result: TurnResult | Promise<TurnResult>;
    try {
      result = this.turn.finish(this.entries.map((e) => e.outcome as CallOutcome));
    } catch (error) {
      return fail(error);
    }
    if (result instanceof Promise) result.then(succeed, fail);
    else succeed(result);
  }
}
