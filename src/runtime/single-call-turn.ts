/**
 * The lean path of a turn of exactly one call (`runToolsToCompletion` with one `tool_use`: an MCP
 * request, and most model turns). The steps are the batch turn's (docs/runtime.md "Sequence of a
 * turn"): prepare, queue in the session's gate (same admission rule as every other turn), the
 * call's pipeline, context modifiers, the per-turn budget, then `onDone`; what it leaves out is
 * the streaming executor's bookkeeping (entries, a result promise, the update stream: nobody
 * reads updates here, so none are made). The turn's abort controller serves this call alone
 * (`Turn.dedicateTo`), so the call's tools may hand its signal to clients that keep listeners.
 */
import type { ToolUseBlock } from '../core/index.js';
import { prepareCall } from './prepare-call.js';
import type { Turn } from './turn.js';
import type { TurnResult } from './types.js';

/**
 * Runs `toolUse` as the only call of `turn` and returns the turn's result; `onDone` runs once
 * when the turn is over (before the promise settles). Rejects only with a FatalError.
 */
export async function runSingleCallTurn(
  turn: Turn,
  toolUse: ToolUseBlock,
  onDone: () => void,
): Promise<TurnResult> {
  try {
    turn.dedicateTo(toolUse.id);
    const call = prepareCall(toolUse, 0, turn.context.options.tools, turn.context);
    const outcome = await turn.schedule(call);
    const result = turn.finish([outcome]);
    return result instanceof Promise ? await result : result;
  } finally {
    onDone();
  }
}
