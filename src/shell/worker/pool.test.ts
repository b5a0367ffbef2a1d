/**
 * The analysis worker pool with real worker threads: same answers as the in-thread analysis, a
 * stuck analysis is terminated at the deadline and answered with an every-mode ask, a crashed
 * worker fails only its own request, and the pool keeps serving afterwards.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../analyze.js';
import { initShellParser } from '../parser.js';
import { type AnalysisPool, createAnalysisPool } from './pool.js';
import { sourceWorker } from './entry.js';

const STALL_WORKER = new URL('../../testing/analysis-stall-worker.ts', import.meta.url);
const world = { cwd: '/home/u/p', home: '/home/u' };
const pools: AnalysisPool[] = [];

function pool(options: Partial<Parameters<typeof createAnalysisPool>[0]> = {}): AnalysisPool {
  const worker = sourceWorker(options.worker?.url ?? STALL_WORKER);
  if (!worker) throw new Error('the tests run from the sources');
  const p = createAnalysisPool({ size: 1, inlineWhileStarting: false, ...options, worker });
  pools.push(p);
  return p;
}

beforeAll(async () => {
  await initShellParser();
});

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('analysis worker pool', () => {
  it('answers what the analysis in this thread answers (the real analysis worker)', async () => {
    const p = pool({ worker: { url: new URL('./analysis-worker.ts', import.meta.url) } });
    for (const command of ['ls -la | grep x', 'echo pwned >> ~/.bashrc', 'rm -rf "$D"', 'echo $(']) {
      const inThread = analyzeCommand(command, world);
      // a generous deadline: the first request also waits for the worker to load
      expect(await p.analyze(command, { ...world, deadlineMs: 60_000 })).toEqual(inThread);
    }
    expect(p.stats).toMatchObject({ started: 1, dispatched: 4, terminated: 0, failed: 0, inline: 0 });
  });

  it('terminates a stuck analysis at the deadline, answers ask in every mode, and serves the next request', async () => {
    const p = pool({ graceMs: 50 });
    await p.analyze('true', { ...world, deadlineMs: 60_000 }); // the worker is up
    const stuck = await p.analyze('#stall\nls', { ...world, deadlineMs: 300 });
    expect(stuck.findings).toEqual([
      expect.objectContaining({ id: 'ANALYSIS_DEADLINE', behavior: 'ask', everyMode: true }),
    ]);
    expect(stuck.findings[0]?.message).toContain('analysis did not finish within 300 ms');
    expect(stuck.readOnly).toBe(false);
    expect(p.stats.terminated).toBe(1);
    const next = await p.analyze('ls -la', { ...world, deadlineMs: 60_000 });
    expect(next.readOnly).toBe(true);
    expect(p.stats.started).toBe(2);
  });

  it('a request waiting behind a stuck one gets its own deadline answer, never silence', async () => {
    const p = pool({ graceMs: 50 });
    await p.analyze('true', { ...world, deadlineMs: 60_000 });
    const order: string[] = [];
    const a = p.analyze('#stall\nls', { ...world, deadlineMs: 3000 }).then((r) => {
      order.push('stuck');
      return r;
    });
    const b = p.analyze('ls', { ...world, deadlineMs: 100 }).then((r) => {
      order.push('queued');
      return r;
    });
    expect((await b).findings[0]?.id).toBe('ANALYSIS_DEADLINE');
    expect((await a).findings[0]?.id).toBe('ANALYSIS_DEADLINE');
    // the queued request was answered at its own deadline, before the stuck one was stopped
    expect(order).toEqual(['queued', 'stuck']);
  });

  it('a crashed worker fails its request as an every-mode ask and is replaced', async () => {
    const p = pool();
    const crashed = await p.analyze('#crash\nls', { ...world, deadlineMs: 60_000 });
    expect(crashed.findings).toEqual([expect.objectContaining({ id: 'ANALYSIS_FAILED', everyMode: true })]);
    expect(crashed.findings[0]?.message).toContain('crashed on purpose');
    expect((await p.analyze('cat README.md', { ...world, deadlineMs: 60_000 })).readOnly).toBe(true);
    expect(p.stats.failed).toBe(1);
  });

  it('analyses in this thread while no worker is ready yet, if asked to', async () => {
    const worker = sourceWorker(STALL_WORKER);
    if (!worker) throw new Error('the tests run from the sources');
    const p = createAnalysisPool({ size: 1, worker });
    pools.push(p);
    const a = await p.analyze('ls -la', { ...world, deadlineMs: 5000 });
    expect(a.readOnly).toBe(true);
    expect(p.stats.inline).toBe(1);
  });

  it('after close, requests are answered (ask), not left pending', async () => {
    const p = pool();
    await p.close();
    const a = await p.analyze('ls', world);
    expect(a.findings[0]).toMatchObject({ id: 'ANALYSIS_FAILED', everyMode: true });
  });
});
