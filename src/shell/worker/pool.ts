/**
 * A small pool of worker threads that run shell analyses off the caller's event loop
 * (docs/analysis-budget.md "Workers"). The servers use it (`gantry mcp`, the hook server), so one
 * slow analysis never delays another session's calls or another hook client.
 *
 * - Each worker loads the shell module and the parser once (analysis-worker.ts) and runs one
 *   analysis at a time with the request's remaining deadline (the cooperative budget of budget.ts).
 * - Hard stop: if a worker has not answered `graceMs` after the request's deadline, it is
 *   terminated (that stops wasm too) and replaced, and the request resolves with an analysis that
 *   asks in every mode ("analysis did not finish within N ms"). The deadline counts from the call
 *   to `analyze`, waiting in the queue included.
 * - A worker that fails (crash, exit, a load error) fails its request the same way (ask) and is
 *   replaced; `analyze` never rejects.
 * - While no worker is ready yet (start-up of the first one), requests run in the caller's thread
 *   within their budget, so a cold server still decides at once.
 * - Idle workers do not keep the process alive (`unref`); busy ones do.
 *
 * Sizes and times are in workers and milliseconds.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { analyzeCommand } from '../analyze.js';
import { DEFAULT_ANALYSIS_DEADLINE_MS } from '../budget.js';
import { isShellParserReady } from '../parser.js';
import type { CommandAnalysis } from '../types.js';
import { stoppedAnalysis } from './stopped.js';
import type { WorkerSpec } from './entry.js';

export interface AnalysisPoolOptions {
  /** Worker threads (default: 2, or 1 on a machine with fewer than 3 cores). */
  size?: number;
  /** Deadline of a request that names none (ms, default 1000). */
  deadlineMs?: number;
  /** Time past the deadline before a silent worker is terminated (ms, default 200). */
  graceMs?: number;
  /** The worker module (entry.ts: `sourceWorker()` from the sources, `bundledWorker(file)` bundled). */
  worker: WorkerSpec;
  /** Run a request in the caller's thread while no worker is ready (default true). */
  inlineWhileStarting?: boolean;
}

export interface PoolRequestOptions {
  cwd: string;
  home: string;
  deadlineMs?: number;
}

export interface AnalysisPool {
  /** Analyses `command` in a worker; never rejects (failures and timeouts are every-mode asks). */
  analyze(command: string, opts: PoolRequestOptions): Promise<CommandAnalysis>;
  /** Starts the workers now instead of at the first request. */
  warm(): void;
  /** Starts the workers and resolves once one is ready (false if the pool closes first). */
  whenReady(): Promise<boolean>;
  /** Terminates every worker; pending requests resolve as stopped (ask). */
  close(): Promise<void>;
  /** Worker threads the pool keeps (at most this many analyses run at once). */
  readonly size: number;
  /** Counters for tests and diagnostics. */
  readonly stats: {
    started: number;
    dispatched: number;
    terminated: number;
    failed: number;
    exited: number;
    inline: number;
  };
}

interface Pending {
  id: number;
  command: string;
  opts: PoolRequestOptions;
  deadlineMs: number;
  /** `performance.now()` after which the request is past its deadline. */
  deadlineAt: number;
  resolve(a: CommandAnalysis): void;
  /** Answers the request at its deadline while it still waits in the queue. */
  queueTimer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  busy?: Pending;
  timer?: NodeJS.Timeout;
}

type WorkerMessage =
  | { type: 'ready' }
  | { type: 'result'; id: number; analysis: CommandAnalysis }
  | { type: 'error'; id?: number; message: string };

export function createAnalysisPool(options: AnalysisPoolOptions): AnalysisPool {
  const size = Math.max(1, options.size ?? (availableParallelism() >= 3 ? 2 : 1));
  const defaultDeadline = options.deadlineMs ?? DEFAULT_ANALYSIS_DEADLINE_MS;
  const graceMs = options.graceMs ?? 200;
  const spec = options.worker;
  const inline = options.inlineWhileStarting ?? true;
  const slots: Slot[] = [];
  const queue: Pending[] = [];
  const stats = { started: 0, dispatched: 0, terminated: 0, failed: 0, exited: 0, inline: 0 };
  let nextId = 1;
  let closed = false;
  const readyWaiters: ((ready: boolean) => void)[] = [];

  const finish = (slot: Slot, analysis?: CommandAnalysis): void => {
    const p = slot.busy;
    if (!p) return;
    slot.busy = undefined;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.worker.unref();
    p.resolve(
      analysis ?? stoppedAnalysis(p.command, 'deadline', `analysis did not finish within ${p.deadlineMs} ms`),
    );
  };

  const retire = (slot: Slot, reason: string): void => {
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
    const p = slot.busy;
    slot.busy = undefined;
    if (slot.timer) clearTimeout(slot.timer);
    if (p) p.resolve(stoppedAnalysis(p.command, 'failure', reason));
    slot.worker.terminate().catch(() => undefined);
    if (!closed && queue.length > 0) fill();
    pump();
  };

  const spawn = (): Slot => {
    const worker = new Worker(spec.url, {
      ...(spec.workerData !== undefined ? { workerData: spec.workerData } : {}),
    });
    stats.started++;
    const slot: Slot = { worker, ready: false };
    worker.unref();
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'ready') {
        slot.ready = true;
        for (const w of readyWaiters.splice(0)) w(true);
        pump();
      } else if (m.type === 'result' && slot.busy?.id === m.id) {
        finish(slot, m.analysis);
        pump();
      } else if (m.type === 'error') {
        stats.failed++;
        retire(slot, `the analysis worker failed: ${m.message}`);
      }
    });
    worker.on('error', (e) => {
      stats.failed++;
      retire(slot, `the analysis worker failed: ${e.message}`);
    });
    worker.on('exit', (code) => {
      if (!slots.includes(slot)) return;
      stats.exited++;
      retire(slot, `the analysis worker exited (code ${code})`);
    });
    slots.push(slot);
    return slot;
  };

  const fill = (): void => {
    while (!closed && slots.length < size) spawn();
  };

  const runInline = (p: Pending): void => {
    stats.inline++;
    const remaining = Math.max(1, p.deadlineAt - performance.now());
    try {
      p.resolve(analyzeCommand(p.command, { cwd: p.opts.cwd, home: p.opts.home, deadlineMs: remaining }));
    } catch (e) {
      p.resolve(
        stoppedAnalysis(
          p.command,
          'failure',
          `the analysis failed: ${e instanceof Error ? e.message : String(e)}`,
        ),
      );
    }
  };

  const pump = (): void => {
    while (queue.length > 0) {
      const p = queue[0] as Pending;
      const remaining = p.deadlineAt - performance.now();
      if (remaining <= 0) {
        queue.shift();
        clearTimeout(p.queueTimer);
        p.resolve(
          stoppedAnalysis(p.command, 'deadline', `analysis did not finish within ${p.deadlineMs} ms`),
        );
        continue;
      }
      const slot = slots.find((s) => s.ready && !s.busy);
      if (!slot) {
        if (inline && !slots.some((s) => s.ready) && isShellParserReady()) {
          queue.shift();
          clearTimeout(p.queueTimer);
          runInline(p);
          continue;
        }
        return;
      }
      queue.shift();
      clearTimeout(p.queueTimer);
      slot.busy = p;
      stats.dispatched++;
      slot.worker.ref();
      slot.worker.postMessage({
        type: 'analyze',
        id: p.id,
        command: p.command,
        cwd: p.opts.cwd,
        home: p.opts.home,
        deadlineMs: Math.max(1, Math.floor(remaining)),
      });
      slot.timer = setTimeout(() => {
        // Past the deadline and the grace period: stop the work for real.
        stats.terminated++;
        finish(slot);
        retire(slot, 'terminated at the deadline');
      }, remaining + graceMs);
    }
  };

  return {
    size,
    stats,
    warm: fill,
    whenReady() {
      if (closed) return Promise.resolve(false);
      fill();
      if (slots.some((s) => s.ready)) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => readyWaiters.push(resolve));
    },
    analyze(command, opts) {
      if (closed) return Promise.resolve(stoppedAnalysis(command, 'failure', 'the analysis pool is closed'));
      const deadlineMs = opts.deadlineMs ?? defaultDeadline;
      return new Promise<CommandAnalysis>((resolve) => {
        const p: Pending = {
          id: nextId++,
          command,
          opts,
          deadlineMs,
          deadlineAt: performance.now() + deadlineMs,
          resolve,
        };
        p.queueTimer = setTimeout(() => {
          const i = queue.indexOf(p);
          if (i < 0) return;
          queue.splice(i, 1);
          resolve(stoppedAnalysis(command, 'deadline', `analysis did not finish within ${deadlineMs} ms`));
        }, deadlineMs);
        queue.push(p);
        fill();
        pump();
      });
    },
    async close() {
      closed = true;
      for (const w of readyWaiters.splice(0)) w(false);
      for (const p of queue.splice(0)) {
        clearTimeout(p.queueTimer);
        p.resolve(stoppedAnalysis(p.command, 'failure', 'the analysis pool was closed'));
      }
      const all = slots.splice(0);
      for (const s of all) {
        if (s.timer) clearTimeout(s.timer);
        const p = s.busy;
        s.busy = undefined;
        if (p) p.resolve(stoppedAnalysis(p.command, 'failure', 'the analysis pool was closed'));
      }
      await Promise.all(all.map((s) => s.worker.terminate().catch(() => undefined)));
    },
  };
}
