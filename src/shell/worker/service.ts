/**
 * Process-wide shell-analysis settings and the entry points the tools and the CLI use
 * (docs/analysis-budget.md):
 *
 * - the deadline of one decision's analysis: `GANTRY_ANALYSIS_DEADLINE_MS`, else what
 *   `configureShellAnalysis({deadlineMs})` set (the servers pass the settings key
 *   `analysisDeadlineMs`), else 1000 ms;
 * - whether analyses run in worker threads (pool.ts): off unless `configureShellAnalysis({workers})`
 *   turns them on (the servers do); `GANTRY_ANALYSIS_WORKERS=0` keeps them off, `=N` sets the size;
 * - `analyzeCommandOffThread`: through the pool when it runs (a short command, `INLINE_MAX_CHARS`,
 *   is first tried in this thread within `SYNC_DEADLINE_MS`), else in this thread (within the
 *   budget); the result is remembered briefly, so the synchronous questions asked about the same
 *   call (`analyzeCommandCached`: read-only? concurrency-safe? which sub-commands ran?) do not
 *   analyse it again. Without a remembered result and with workers on, the synchronous path only
 *   takes short commands (`SYNC_MAX_CHARS`) with a short deadline (`SYNC_DEADLINE_MS`), so it never
 *   holds the event loop long; a command it does not finish is simply not read-only, and the
 *   decision analyses it off-thread.
 */
import { BoundedMap } from '../../core/bounded-map.js';
import { analyzeCommand } from '../analyze.js';
import { defaultDeadlineMs, setConfiguredDeadlineMs } from '../budget.js';
import { withShellParser } from '../parser.js';
import type { CommandAnalysis } from '../types.js';
import { type AnalysisPool, type AnalysisPoolOptions, createAnalysisPool } from './pool.js';
import { defaultWorker, type WorkerSpec } from './entry.js';

/** Deadline of the synchronous path while workers run (ms). */
export const SYNC_DEADLINE_MS = 25;
/** Longest command the synchronous path analyses in this thread while workers run (characters). */
export const SYNC_MAX_CHARS = 4096;
/**
 * Longest command `analyzeCommandOffThread` analyses in this thread first while workers run
 * (characters), within `SYNC_DEADLINE_MS`: most commands are this short, and a worker round trip
 * costs more than their analysis (two thread wake-ups, which a loaded machine makes slow).
 */
export const INLINE_MAX_CHARS = 1024;

export interface ShellAnalysisConfig {
  /** Deadline of one analysis (ms); the environment variable still wins. */
  deadlineMs?: number;
  /**
   * `true` or pool options: run analyses in worker threads; `false`: stop them. The worker module
   * defaults to the analysis worker of the layout this code runs from (entry.ts).
   */
  workers?: boolean | (Omit<AnalysisPoolOptions, 'worker'> & { worker?: WorkerSpec });
}

export interface OffThreadOptions {
  cwd: string;
  home: string;
  /** Overrides the process-wide deadline for this call. */
  deadlineMs?: number;
}

let pool: AnalysisPool | undefined;
const recent = new BoundedMap<string, CommandAnalysis>({ max: 64, ttlMs: 10_000 });

const key = (command: string, o: OffThreadOptions) => `${o.cwd}\u0000${o.home}\u0000${command}`;

/** The deadline in force (ms): `GANTRY_ANALYSIS_DEADLINE_MS`, else the configured one, else 1000. */
export const shellAnalysisDeadlineMs = defaultDeadlineMs;

/** Sets the process-wide deadline and starts or stops the worker pool. */
export function configureShellAnalysis(c: ShellAnalysisConfig): void {
  if (c.deadlineMs !== undefined) setConfiguredDeadlineMs(c.deadlineMs);
  if (c.workers === undefined) return;
  if (c.workers === false) {
    void stopShellAnalysisWorkers();
    return;
  }
  const fromEnv = process.env.GANTRY_ANALYSIS_WORKERS;
  const envSize = fromEnv !== undefined && fromEnv.trim() !== '' ? Number(fromEnv) : undefined;
  if (envSize === 0) return;
  const o = c.workers === true ? {} : c.workers;
  const worker = o.worker ?? defaultWorker();
  if (!worker) return; // no worker file found: analyse in this thread
  const old = pool;
  pool = createAnalysisPool({
    ...o,
    worker,
    ...(envSize !== undefined && Number.isInteger(envSize) && envSize > 0 ? { size: envSize } : {}),
  });
  pool.warm();
  void old?.close();
}

/** Stops the worker pool (analyses run in this thread again). */
export async function stopShellAnalysisWorkers(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.close();
}

/** The running pool, if any (for diagnostics and tests). */
export function shellAnalysisPool(): AnalysisPool | undefined {
  return pool;
}

/**
 * How this process analyses Bash commands, for a server's start-up line: `in 2 worker threads,
 * deadline 1000 ms` or `in this thread, deadline 1000 ms`.
 */
export function shellAnalysisSummary(): string {
  const where = pool ? `in ${pool.size} worker thread${pool.size === 1 ? '' : 's'}` : 'in this thread';
  return `${where}, deadline ${shellAnalysisDeadlineMs()} ms`;
}

/** Analyses off this thread when workers run (see module doc); never rejects for any command. */
export async function analyzeCommandOffThread(
  command: string,
  o: OffThreadOptions,
): Promise<CommandAnalysis> {
  return withShellParser(command, () => analyzeOffThread(command, o));
}

async function analyzeOffThread(command: string, o: OffThreadOptions): Promise<CommandAnalysis> {
  const deadlineMs = o.deadlineMs ?? shellAnalysisDeadlineMs();
  let analysis: CommandAnalysis | undefined;
  if (pool && command.length <= INLINE_MAX_CHARS) {
    // Short: here first, within the synchronous path's deadline; one that does not finish in it
    // goes to a worker with the full deadline.
    const quick = analyzeCommand(command, {
      cwd: o.cwd,
      home: o.home,
      deadlineMs: Math.min(SYNC_DEADLINE_MS, deadlineMs),
    });
    if (!quick.findings.some((f) => f.id === 'ANALYSIS_DEADLINE')) analysis = quick;
  }
  analysis ??= pool
    ? await pool.analyze(command, { cwd: o.cwd, home: o.home, deadlineMs })
    : analyzeCommand(command, { cwd: o.cwd, home: o.home, deadlineMs });
  recent.set(key(command, o), analysis);
  return analysis;
}

/**
 * The remembered analysis of `command` when there is one, else a fresh one in this thread — while
 * workers run, only for a command of at most `SYNC_MAX_CHARS` and within `SYNC_DEADLINE_MS`;
 * a longer one gets undefined (its caller treats it as not proven read-only, and the decision
 * analyses it off-thread). Requires `initShellParser()` first.
 */
export function analyzeCommandCached(command: string, o: OffThreadOptions): CommandAnalysis | undefined {
  const hit = recent.get(key(command, o));
  if (hit) return hit;
  if (pool && command.length > SYNC_MAX_CHARS) return undefined;
  const deadlineMs =
    o.deadlineMs ??
    (pool ? Math.min(SYNC_DEADLINE_MS, shellAnalysisDeadlineMs()) : shellAnalysisDeadlineMs());
  return analyzeCommand(command, { cwd: o.cwd, home: o.home, deadlineMs });
}
