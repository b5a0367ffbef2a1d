/**
 * Runs a whole turn's calls, known up front, batch by batch (seed 000 §6.1; design.md §5):
 *   partition → for each batch:
 *     unsafe call: run it alone, then apply its context modifier (before the next call starts);
 *     safe batch: run its calls in parallel, at most `maxConcurrency` at once, starting them in call
 *                 order; when all are done, apply their modifiers in call order.
 *   → outcomes in call order (the turn then applies the budget and emits results).
 * After an abort, calls not yet started end as "not started" without running.
 * A FatalError from any call aborts the turn, lets the running calls settle, then is rethrown.
 */
import { partitionToolCalls } from './plan-batches.js';
import type { Turn } from './turn.js';
import type { CallOutcome, PreparedCall } from './types.js';

/** Runs `calls` with at most `limit` in flight, started in order. Collects a FatalError, aborting the turn. */
async function runConcurrently(
  turn: Turn,
  calls: readonly PreparedCall[],
  limit: number,
  outcomes: CallOutcome[],
): Promise<void> {
  let next = 0;
  let fatal: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < calls.length) {
      const call = calls[next++] as PreparedCall;
      try {
        outcomes[call.index] = await turn.runCall(call);
      } catch (error) {
        fatal ??= { error };
        turn.controller.abort(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, calls.length) }, worker));
  if (fatal) throw fatal.error;
}

/**
 * Runs the prepared calls of one turn and returns their outcomes in call order (`outcomes[i]` is
 * the call with `index === i`). Throws only FatalError.
 */
export async function runToolCallsInBatches(
  turn: Turn,
  calls: readonly PreparedCall[],
): Promise<CallOutcome[]> {
  const outcomes: CallOutcome[] = new Array(calls.length);
  for (const batch of partitionToolCalls(calls)) {
    if (batch.isConcurrencySafe) {
      await runConcurrently(turn, batch.calls, turn.maxConcurrency, outcomes);
      for (const call of batch.calls) turn.applyContextModifier(outcomes[call.index] as CallOutcome);
    } else {
      const call = batch.calls[0] as PreparedCall;
      try {
        outcomes[call.index] = await turn.runCall(call);
      } catch (error) {
        turn.controller.abort(error);
        throw error;
      }
      turn.applyContextModifier(outcomes[call.index] as CallOutcome);
    }
  }
  return outcomes;
}
