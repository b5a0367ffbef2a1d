/**
 * `analyzeCommandOffThread` with analysis workers running (service.ts): a short command is analysed
 * in the caller's thread within the short deadline (no round trip to a worker, the hook server's
 * common case), a long one goes to a worker; both give the in-thread analysis. The assertions count
 * requests, never time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../analyze.js';
import { initShellParser } from '../parser.js';
import { sourceWorker } from './entry.js';
import {
  analyzeCommandOffThread,
  configureShellAnalysis,
  INLINE_MAX_CHARS,
  shellAnalysisPool,
  stopShellAnalysisWorkers,
} from './service.js';

const world = { cwd: '/home/u/p', home: '/home/u' };

beforeAll(async () => {
  await initShellParser();
  const worker = sourceWorker();
  if (!worker) throw new Error('the tests run from the sources');
  configureShellAnalysis({ workers: { worker, size: 1 } });
  expect(await shellAnalysisPool()?.whenReady()).toBe(true);
});

afterAll(async () => {
  await stopShellAnalysisWorkers();
});

describe('analyzeCommandOffThread with workers', () => {
  it.each([
    ['git status && rg -n TODO src | head -20', 'a short read-only pipeline'],
    ['echo pwned >> ~/.bashrc', 'a short write to a protected file'],
  ])('a short command is answered in this thread, as the worker would: %s (%s)', async (command, _why) => {
    const pool = shellAnalysisPool();
    if (!pool) throw new Error('workers are on');
    analyzeCommand(command, world); // compiled and warm: the short deadline is for the analysis alone
    const before = pool.stats.dispatched;
    const runs = 5;
    for (let i = 0; i < runs; i++)
      expect(await analyzeCommandOffThread(command, { ...world, deadlineMs: 60_000 })).toEqual(
        analyzeCommand(command, { ...world, deadlineMs: 60_000 }),
      );
    // one that missed the short deadline on a loaded machine goes to the worker; not all of them
    expect(pool.stats.dispatched - before).toBeLessThan(runs);
  });

  it('a long command goes to a worker', async () => {
    const pool = shellAnalysisPool();
    if (!pool) throw new Error('workers are on');
    const command = `ls ${'x'.repeat(INLINE_MAX_CHARS)}`;
    const before = pool.stats.dispatched;
    expect(await analyzeCommandOffThread(command, { ...world, deadlineMs: 60_000 })).toEqual(
      analyzeCommand(command, { ...world, deadlineMs: 60_000 }),
    );
    expect(pool.stats.dispatched - before).toBe(1);
  });
});
