/**
 * The end of a background sub-agent's run, shared by the Agent tool (`run_in_background`) and by
 * SendMessage's resume of a finished agent: drain the run to its outcome, turn a throw into a
 * `failed` (or, once stopped, `killed`) status with a readable text, and write the report to the
 * task's output file. See docs/agents.md (background agents).
 */
import { writeFileSync } from 'node:fs';
import type { QueryEvent } from '../loop/types.js';
import type { AgentOutcome } from './run-agent.js';

/** What a background run ended with; `outcome` is absent when the run threw before finishing. */
export interface BackgroundRunEnd {
  outcome: AgentOutcome | undefined;
  status: AgentOutcome['status'];
  /** The agent's final report, or `The agent failed: <reason>`. */
  text: string;
}

/**
 * Runs `start()` (which may first wait, e.g. for a fork's message) and drains the generator it
 * returns, discarding the events (a background agent streams nothing to its parent). Never throws.
 * @param signal the run's stop signal: a throw after it fired counts as `killed`, not `failed`.
 * @param outputFile where the report is written (best effort: the notification still carries it).
 */
export async function drainBackgroundRun(
  start: () => Promise<AsyncGenerator<QueryEvent, AgentOutcome, void>>,
  signal: AbortSignal,
  outputFile: string,
): Promise<BackgroundRunEnd> {
  let outcome: AgentOutcome | undefined;
  let failure: string | undefined;
  try {
    const run = await start();
    for (;;) {
      const step = await run.next();
      if (step.done) {
        outcome = step.value;
        break;
      }
    }
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  }
  const status = outcome?.status ?? (signal.aborted ? 'killed' : 'failed');
  const text = outcome?.text ?? `The agent failed: ${failure ?? 'unknown error'}`;
  try {
    writeFileSync(outputFile, `${text}\n`);
  } catch {
    // The notification still carries the report.
  }
  return { outcome, status, text };
}
