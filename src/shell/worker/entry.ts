/**
 * Where a shell-analysis worker starts (pool.ts).
 *
 * - From the TypeScript sources (tsx, vitest): the thread runs `bootstrap.mjs`, which registers
 *   tsx's loader in that thread and imports the `.ts` module named in `workerData.entry`.
 * - From the bundled hook (dist/): the bundle passes its own built worker file
 *   (`dist/gantry-analysis-worker.mjs`, scripts/build.mjs) with `bundledWorker()`.
 */
import { fileURLToPath } from 'node:url';

export interface WorkerSpec {
  /** The module the thread starts with. */
  url: URL;
  /** Passed as the thread's `workerData`. */
  workerData?: unknown;
}

/**
 * The worker that runs `analysis-worker.ts` (or another worker module of the sources, for tests)
 * from the sources; undefined when this code runs bundled (the bundle names its worker with
 * `bundledWorker`).
 */
export function sourceWorker(
  entry: URL = new URL('./analysis-worker.ts', import.meta.url),
): WorkerSpec | undefined {
  if (!fileURLToPath(import.meta.url).endsWith('.ts')) return undefined;
  return { url: new URL('./bootstrap.mjs', import.meta.url), workerData: { entry: entry.href } };
}

/** A built worker file (already JavaScript: no loader needed). */
export function bundledWorker(file: URL): WorkerSpec {
  return { url: file };
}
