/**
 * Result budgets, applied in two places:
 *
 * 1. per call, as soon as it finishes: a result longer than its tool's cap
 *    (`min(tool.maxResultSizeChars, 50,000)`; `Infinity` = never) is spilled to disk;
 * 2. per turn, once every call has finished: when all results together exceed 200,000
 *    characters, the largest spillable results are spilled first until the rest fit.
 *
 * Error results and `Infinity` tools are never spilled (they still count toward the turn total).
 * When the disk write fails, the result is truncated instead (head and tail kept) and says so.
 */
import { budgetChars, errorMessage } from '../core/index.js';
import { MAX_TURN_RESULTS_CHARS, PERSISTED_PREVIEW_BYTES } from './limits.js';
import { persistedOutputMessage, persistToolResult, serializeContent } from './persist-result.js';
import type { CallOutcome } from './types.js';

/** Replaces the outcome's content by a `<persisted-output>` block (or a truncation when the write fails). */
async function spill(outcome: CallOutcome, sessionDir: string, fallbackChars: number): Promise<void> {
  try {
    const persisted = await persistToolResult({
      sessionDir,
      toolUseId: outcome.toolUseId,
      content: outcome.content,
    });
    outcome.content = persistedOutputMessage(persisted);
  } catch (error) {
    const { text } = serializeContent(outcome.content);
    const keep = Math.max(200, fallbackChars);
    const head = text.slice(0, Math.ceil(keep / 2));
    const tail = text.slice(text.length - Math.floor(keep / 2));
    outcome.content = `${head}\n… [output truncated: ${text.length - head.length - tail.length} characters dropped because the full output could not be saved to ${sessionDir} (${errorMessage(error)})] …\n${tail}`;
  }
  outcome.persisted = true;
}

/** Per-call cap: spills a successful result longer than its `maxResultSizeChars`. */
export async function capCallResult(outcome: CallOutcome, sessionDir: string): Promise<void> {
  if (outcome.isError || outcome.persisted) return;
  if (budgetChars(outcome.content) <= outcome.maxResultSizeChars) return;
  await spill(outcome, sessionDir, Math.min(outcome.maxResultSizeChars, 20_000));
}

/**
 * Per-turn budget: while the results' total length exceeds `maxTurnChars`, spills the largest
 * spillable one (ties: earlier call first). Mutates the outcomes; returns the final total.
 */
export async function applyTurnBudget(
  outcomes: readonly CallOutcome[],
  options: { sessionDir: string; maxTurnChars?: number },
): Promise<number> {
  const budget = options.maxTurnChars ?? MAX_TURN_RESULTS_CHARS;
  let total = 0;
  for (const o of outcomes) total += budgetChars(o.content);
  if (total <= budget) return total;
  const candidates = outcomes
    .filter((o) => !o.isError && !o.persisted && Number.isFinite(o.maxResultSizeChars))
    .sort((a, b) => budgetChars(b.content) - budgetChars(a.content) || a.index - b.index);
  for (const outcome of candidates) {
    if (total <= budget) break;
    const before = budgetChars(outcome.content);
    await spill(outcome, options.sessionDir, PERSISTED_PREVIEW_BYTES);
    total += budgetChars(outcome.content) - before;
  }
  return total;
}
