/**
 * Time and work budgets of one shell analysis (docs/analysis-budget.md).
 *
 * An analysis is synchronous, so its budget is ambient: `withBudget(budget, fn)` makes `budget` the
 * active one while `fn` runs (nested calls restore the outer one), and the phases ask
 * `activeBudget()` instead of taking a parameter through every function:
 *  - the parser (parser.ts) cuts a parse that exceeds its work budget (`PARSE_BUDGET`, counted in
 *    reads, so the cut is the same on every machine) or runs past the deadline, and keeps the tree
 *    of the text it read so far;
 *  - nested re-parses (`sh -c`, `eval`, substitution and heredoc bodies) are memoised per text and
 *    capped in total characters (`MAX_REPARSED_CHARS`);
 *  - the walk, the checks and the effects call `budgetExpired()` at their loop heads and stop.
 *
 * Whatever stops the work records why (`stopReason`); the analysis then carries an ask finding that
 * applies in every mode (analyze.ts). All times are milliseconds from `performance.now()`.
 */
import type { ParsedBash } from './parser.js';

/** Default deadline of one decision's analysis (ms). Settings key `analysisDeadlineMs`, env `GANTRY_ANALYSIS_DEADLINE_MS`. */
export const DEFAULT_ANALYSIS_DEADLINE_MS = 1000;

/** Smallest and largest accepted deadline (ms); values outside are clamped. */
export const MIN_ANALYSIS_DEADLINE_MS = 10;
export const MAX_ANALYSIS_DEADLINE_MS = 120_000;

/**
 * Work budget of one parse, counted in reads of `READ_CHUNK_CHARS` (1 KiB) chunks (parser.ts), so a
 * cut is the same on every run and machine. Measured on the benchmark's shapes (bench/shell-worst):
 * a parse of valid bash reads at most ~50 chunks per KiB (heredoc bodies; most shapes 1–6) and
 * goes back more than `farBackChars` only to re-read one long token; tree-sitter's error recovery
 * on the slow inputs reads 500–9,000 chunks per KiB, most of them far back (quadratic). Such an
 * input is refused (ask) anyway, so a parse stops at the first of:
 *  - `readsBase + readsPerKiB × KiB` reads;
 *  - `farBackBase + farBackPerKiB × KiB` reads that start more than `farBackChars` before the
 *    furthest character read so far.
 * `finishProgressCalls`: progress reports (each about 100 parser operations) tree-sitter gets to
 * finish the tree of what it read after a cut, before the parse is cancelled.
 * `maxPipelineStages`: tree-sitter-bash needs 1–10 ms per KiB for a pipeline, worse than linear in
 * its length for some stage shapes (`… | b -v | c -v …`); the text after stage 128 of one pipeline
 * is not parsed (the analysis asks).
 * `maxExpansionDepth`: likewise for `${` opened inside one another (2–8 ms per KiB for `${${${…`);
 * real commands nest a few levels.
 * `maxOperatorRun`: this many control-operator characters in a row (`&&&&…`; blanks between
 * allowed) are a syntax error (valid bash has at most four, parse-prefix.ts `operatorRunAt`), on
 * which tree-sitter's error recovery needs about three times the work per KiB of valid bash: the
 * text from the run on is not parsed.
 * `maxBraceRun`: likewise for more than this many `{`/`}` in a row (`a{{{{…`, valid bash; about
 * five times the work per KiB of valid bash, so a 15 KB run reached the progress cap): real
 * commands have a few.
 * The work caps on valid bash (parser.ts, parse-prefix.ts, prefix-copy.ts), per parse; the largest
 * real command (tldr, NL2Bash, agent sessions) takes 6 reports and 284 nodes (budget-caps.test.ts
 * keeps every real command under a twentieth of each cap). Set so that the slowest 64 KiB shape of
 * bench/shell-worst stays under 40 ms of CPU on the 2-core machine of docs/analysis-budget.md (the
 * target is 50 ms): the parse up to the progress cap is most of it, and 150 reports build about as
 * many nodes as the node cap keeps.
 *  - `maxProgressReports`: tree-sitter's progress callback runs about every 100 parser operations;
 *    past this many reports the reads answer end of input (the chunk tree-sitter holds ends at a
 *    statement boundary), and finishing the tree (including its balancing) gets
 *    `progressFinishCalls` more reports before the parse is cancelled;
 *  - `maxNodes`: of a tree of more nodes (named and anonymous: the ones the copy makes), only the
 *    prefix up to the last statement boundary before node `maxNodes` (or, in one statement, up to
 *    that node) is kept and analysed. It is copied from the tree (prefix-copy.ts) when the
 *    statements there are parts of it; otherwise (a loop, a `case` … spans the boundary) the prefix
 *    is parsed again, incrementally, and one such statement of up to twice as many nodes is kept
 *    whole (its re-parse would cost more than it saves). Dense 64 KiB lines have up to 100,000
 *    nodes, and the analysis costs ~2–3 µs per node on top of the parse.
 */
export const PARSE_BUDGET = {
  readsBase: 64,
  readsPerKiB: 64,
  farBackBase: 16,
  farBackPerKiB: 2,
  farBackChars: 2048,
  finishProgressCalls: 100,
  maxProgressReports: 150,
  progressFinishCalls: 120,
  maxNodes: 6000,
  maxPipelineStages: 128,
  maxExpansionDepth: 64,
  maxOperatorRun: 16,
  maxBraceRun: 64,
} as const;

/** Paths resolved through the filesystem (one `realpath` each) per analysis, at most (resolver-cache.ts). */
export const MAX_RESOLVED_PATHS = 1024;

/**
 * Different nested scripts and substitution bodies parsed per analysis, at most. Each parse has a
 * fixed cost (~15 µs in tree-sitter, plus its split and analysis: ~50 µs in all on the 2-core
 * machine), so a line of hundreds of `sh -c '…'` or `eval "…"` stops here (the analysis asks); real
 * commands have a handful (budget-caps.test.ts keeps them under a quarter of the cap).
 */
export const MAX_NESTED_PARSES = 64;

/** Characters re-parsed for nested scripts and substitution bodies, at most, per analysis. */
export const MAX_REPARSED_CHARS = 256 * 1024;

/**
 * Characters of results one brace expansion may build, at most (brace-expand.ts, the one expander
 * of the words, the checks and the effects). The expansion library stops building at this many
 * characters and bounds its own steps; a word whose results would pass it (a long word of many
 * groups, `{a,b}{a,b}…`) is "too many words": the check asks and the effect's target is unknown.
 */
export const MAX_BRACE_EXPANSION_CHARS = 256 * 1024;

/** Why an analysis stopped early, as stated in its problems and its finding. */
export interface BudgetStop {
  /**
   * `deadline`: the decision's deadline passed; `parse`: one parse exceeded its work budget;
   * `reparse`: too much nested text; `effects`: too many paths to resolve.
   */
  kind: 'deadline' | 'parse' | 'reparse' | 'effects';
  message: string;
}

export class AnalysisBudget {
  readonly startedAt: number;
  /** Absolute `performance.now()` time after which every phase stops. */
  readonly deadline: number;
  /** First reason the work stopped early, if any. */
  stop: BudgetStop | undefined;
  /** Characters handed to the parser so far (the command line and every nested script). */
  parsedChars = 0;
  /** Length of the first text parsed (the command line). */
  firstParseChars = 0;
  /** Nested parses by text (the same `sh -c` script or substitution body is parsed once). */
  readonly parses = new Map<string, ParsedBash>();
  /**
   * The most progress reports and nodes one tree-sitter parse of this analysis took (parser.ts;
   * uncut parses count in full, a cut one up to where it stopped). Diagnostics: the tests show that
   * real commands stay far below `PARSE_BUDGET.maxProgressReports` and `maxNodes`.
   */
  peakProgressReports = 0;
  peakNodes = 0;
  /** Parses that copied only some node types (parse-mask.ts `parseBashTolerant`'s `only`), by text. */
  readonly partialParses = new Map<string, ParsedBash>();

  constructor(readonly deadlineMs: number = DEFAULT_ANALYSIS_DEADLINE_MS) {
    this.startedAt = performance.now();
    this.deadline = this.startedAt + deadlineMs;
  }

  /** True once the deadline passed (records the stop the first time). Cheap: one clock read. */
  expired(): boolean {
    if (this.stop?.kind === 'deadline') return true;
    if (performance.now() < this.deadline) return false;
    this.stopWith('deadline', `analysis did not finish within ${this.deadlineMs} ms`);
    return true;
  }

  /** Records a stop (the first deadline stop replaces an earlier parse stop in `stop`). */
  stopWith(kind: BudgetStop['kind'], message: string): void {
    if (!this.stop || (kind === 'deadline' && this.stop.kind !== 'deadline')) this.stop = { kind, message };
  }
}

let active: AnalysisBudget | undefined;

/** Runs `fn` with `budget` active (restores the previous one afterwards, also on throw). */
export function withBudget<T>(budget: AnalysisBudget, fn: () => T): T {
  const previous = active;
  active = budget;
  try {
    return fn();
  } finally {
    active = previous;
  }
}

/** The budget of the analysis running now, if any. */
export function activeBudget(): AnalysisBudget | undefined {
  return active;
}

/** True when the running analysis is past its deadline (false outside an analysis). */
export function budgetExpired(): boolean {
  return active !== undefined && active.expired();
}

let configuredDeadlineMs: number | undefined;

/** Sets the process-wide deadline (worker/service.ts `configureShellAnalysis`); undefined resets it. */
export function setConfiguredDeadlineMs(ms: number | undefined): void {
  configuredDeadlineMs = ms === undefined ? undefined : normalizeDeadlineMs(ms);
}

/**
 * The deadline an analysis gets when its caller names none (ms): `GANTRY_ANALYSIS_DEADLINE_MS`,
 * else the configured one, else `DEFAULT_ANALYSIS_DEADLINE_MS`.
 */
export function defaultDeadlineMs(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const fromEnv = env.GANTRY_ANALYSIS_DEADLINE_MS;
  if (fromEnv !== undefined && fromEnv.trim() !== '') return normalizeDeadlineMs(fromEnv);
  return configuredDeadlineMs ?? DEFAULT_ANALYSIS_DEADLINE_MS;
}

/** A deadline from user input: a finite number of ms, clamped to the accepted range; otherwise the default. */
export function normalizeDeadlineMs(value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) return DEFAULT_ANALYSIS_DEADLINE_MS;
  return Math.min(MAX_ANALYSIS_DEADLINE_MS, Math.max(MIN_ANALYSIS_DEADLINE_MS, Math.round(n)));
}
