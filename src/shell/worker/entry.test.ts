/**
 * Where the analysis worker starts in each layout (entry.ts): from the sources through the tsx
 * bootstrap; from the library build (dist/shell/worker/) with the module beside it; from the
 * start-up bundles (dist/fast/) with the bundled worker. Each built worker really analyses: the
 * answers equal the in-thread analysis. Before the bundled worker was found, the built servers
 * silently analysed on their event loop.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../testing/shared-data.js';
import { analyzeCommand } from '../analyze.js';
import { initShellParser } from '../parser.js';
import { bundledWorker, defaultWorker, type WorkerSpec } from './entry.js';
import { type AnalysisPool, createAnalysisPool } from './pool.js';

const world = { cwd: '/home/u/p', home: '/home/u' };
const pools: AnalysisPool[] = [];
const COMMANDS = ['ls -la | grep x', 'echo pwned >> ~/.bashrc', 'echo $('];

beforeAll(async () => {
  await initShellParser();
  // dist/ as bin/gantry.js would run it (a no-op when it is up to date)
  const r = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale', '--js-only'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
});

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

async function answersLikeThisThread(worker: WorkerSpec): Promise<void> {
  const p = createAnalysisPool({ size: 1, inlineWhileStarting: false, worker });
  pools.push(p);
  for (const command of COMMANDS) {
    // a generous deadline: the first request also waits for the worker to load
    expect(await p.analyze(command, { ...world, deadlineMs: 60_000 })).toEqual(
      analyzeCommand(command, world),
    );
  }
  expect(p.stats).toMatchObject({ dispatched: COMMANDS.length, failed: 0, inline: 0 });
}

describe('the analysis worker of each layout', () => {
  it('from the sources: the tsx bootstrap starting analysis-worker.ts', () => {
    const w = defaultWorker();
    expect(fileURLToPath(w?.url ?? '')).toBe(path.join(REPO_ROOT, 'src/shell/worker/bootstrap.mjs'));
    expect(w?.workerData).toEqual({ entry: new URL('./analysis-worker.ts', import.meta.url).href });
  });

  it('from the library build: the analysis-worker.js beside entry.js, and it analyses', async () => {
    const built = pathToFileURL(path.join(REPO_ROOT, 'dist/shell/worker/entry.js')).href;
    const mod = (await import(built)) as { defaultWorker: () => WorkerSpec | undefined };
    const w = mod.defaultWorker();
    expect(w && fileURLToPath(w.url)).toBe(path.join(REPO_ROOT, 'dist/shell/worker/analysis-worker.js'));
    await answersLikeThisThread(w as WorkerSpec);
  });

  it('from the start-up bundles: dist/fast/gantry-analysis-worker.mjs is built, and it analyses', async () => {
    const file = path.join(REPO_ROOT, 'dist/fast/gantry-analysis-worker.mjs');
    expect(existsSync(file)).toBe(true);
    await answersLikeThisThread(bundledWorker(pathToFileURL(file)));
  });
});
