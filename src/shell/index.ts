/**
 * The public surface of shell analysis (pure: no processes). Other rooms import only from here.
 *
 * - `initShellParser()` once (async), then the synchronous `analyzeCommand(command, {cwd, home,
 *   resolver?})` → `CommandAnalysis`; `analyzeCommandAsync` does both.
 * - `describeBashCommand(command, opts)` → the core `CallDescription` the permission engine takes
 *   (rule contents = the sub-commands' normalised texts).
 * - `isReadOnlyCommand`, `interpretExitCode` for the Bash tool.
 * - The phases, for callers that need one: `parseAndSplit`, `runSecurityChecks`, `checkReadOnly`,
 *   `analyzeSed`, `computeEffects`.
 */
import { fsPathResolver } from '../core/paths.js';
import type { CallDescription } from '../core/permission-types.js';
import { analyzeCommand } from './analyze.js';
import { withShellParser } from './parser.js';
import type { AnalyzeOptions, CommandAnalysis } from './types.js';
import { analyzeCommandOffThread, type OffThreadOptions, shellAnalysisDeadlineMs } from './worker/service.js';

export {
  analyzeCommand,
  analyzeCommandAsync,
  disqualifiesReadOnly,
  FULL_ANALYSIS_LIMIT,
  isReadOnlyCommand,
} from './analyze.js';
export { runSecurityChecks } from './checks/index.js';
export { computeEffects, type EffectsResult } from './effects/index.js';
export { type ExitCodeInterpretation, interpretExitCode } from './exit-codes.js';
export { initShellParser, isShellParserReady, MAX_PARSE_INPUT_CHARS } from './parser.js';
export { checkReadOnly, READ_ONLY_VALIDATORS, type ReadOnlyVerdict } from './read-only/index.js';
export { analyzeSed, type SedAnalysis } from './sed.js';
export { parseAndSplit, parseAndSplitAsync } from './split.js';
export {
  AnalysisBudget,
  DEFAULT_ANALYSIS_DEADLINE_MS,
  MAX_ANALYSIS_DEADLINE_MS,
  MIN_ANALYSIS_DEADLINE_MS,
  normalizeDeadlineMs,
  PARSE_BUDGET,
} from './budget.js';
export { type AnalysisPool, type AnalysisPoolOptions, createAnalysisPool } from './worker/pool.js';
export { bundledWorker, sourceWorker, type WorkerSpec } from './worker/entry.js';
export {
  analyzeCommandCached,
  analyzeCommandOffThread,
  configureShellAnalysis,
  type OffThreadOptions,
  SYNC_DEADLINE_MS,
  SYNC_MAX_CHARS,
  type ShellAnalysisConfig,
  shellAnalysisDeadlineMs,
  shellAnalysisPool,
  shellAnalysisSummary,
  stopShellAnalysisWorkers,
} from './worker/service.js';
export type { AnalyzeOptions, CommandAnalysis, Redirect, SimpleCommand, SplitResult, Word } from './types.js';

const SUMMARY_CHARS = 200;

/** Maps an analysis to the engine's `CallDescription` (one to one; rule contents de-duplicated in order). */
export function describeAnalysis(a: CommandAnalysis): CallDescription {
  const ruleContents: string[] = [];
  const seen = new Set<string>();
  for (const s of a.subcommands) {
    if (seen.has(s.text)) continue;
    seen.add(s.text);
    ruleContents.push(s.text);
  }
  const n = a.subcommands.length;
  const head = a.command.length > SUMMARY_CHARS ? `${a.command.slice(0, SUMMARY_CHARS)}…` : a.command;
  const notes: string[] = [];
  if (n > 1) notes.push(`${n} sub-commands`);
  if (a.readOnly) notes.push('read-only');
  if (!a.parseOk) notes.push('not fully parsed');
  if (a.findings.length) notes.push(`${a.findings.length} finding(s)`);
  return {
    ruleContents,
    effects: a.effects,
    findings: a.findings,
    subcommands: a.subcommands,
    readOnly: a.readOnly,
    summary: notes.length ? `${head} (${notes.join(', ')})` : head,
  };
}

/**
 * Describes a Bash call for the permission engine (docs/architecture.md). Loads the parser if needed.
 * Runs in a worker thread when the process turned workers on (worker/service.ts); the deadline is
 * `opts.deadlineMs`, else the process-wide one (docs/analysis-budget.md). A resolver other than the
 * real filesystem's keeps the analysis in this thread (a resolver cannot cross threads).
 * @returns a `CallDescription`; never rejects for any command text.
 */
export async function describeBashCommand(command: string, opts: AnalyzeOptions): Promise<CallDescription> {
  if (opts.resolver && opts.resolver !== fsPathResolver)
    return describeAnalysis(
      await withShellParser(command, () =>
        analyzeCommand(command, { ...opts, deadlineMs: opts.deadlineMs ?? shellAnalysisDeadlineMs() }),
      ),
    );
  const o: OffThreadOptions = { cwd: opts.cwd, home: opts.home };
  if (opts.deadlineMs !== undefined) o.deadlineMs = opts.deadlineMs;
  return describeAnalysis(await analyzeCommandOffThread(command, o));
}
