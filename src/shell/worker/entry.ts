/**
 * Where a shell-analysis worker starts (pool.ts), in each layout this code runs from:
 *
 * - the TypeScript sources (tsx, vitest): the thread runs `bootstrap.mjs`, which registers tsx's
 *   loader in that thread and imports the `.ts` module named in `workerData.entry`;
 * - the library build (`dist/shell/worker/entry.js`, one file per module): `analysis-worker.js`
 *   beside this file;
 * - a start-up bundle (`dist/fast/`, scripts/build.mjs, ES module or CommonJS): this code sits in one of the bundle's
 *   files, and the bundled worker `gantry-analysis-worker.mjs` in the same directory.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface WorkerSpec {
  /** The module the thread starts with. */
  url: URL;
  /** Passed as the thread's `workerData`. */
  workerData?: unknown;
}

/**
 * The worker that runs `analysis-worker.ts` (or another worker module of the sources, for tests)
 * from the sources; undefined when this code does not run from the sources.
 */
export function sourceWorker(
  entry: URL = new URL('./analysis-worker.ts', import.meta.url),
): WorkerSpec | undefined {
  if (!fileURLToPath(import.meta.url).endsWith('.ts')) return undefined;
  return { url: new URL('./bootstrap.mjs', import.meta.url), workerData: { entry: entry.href } };
}

/**
 * The analysis worker of the layout this code runs from (see the module doc), or undefined when
 * none is found (the caller then analyses in its own thread).
 */
export function defaultWorker(): WorkerSpec | undefined {
  const fromSources = sourceWorker();
  if (fromSources) return fromSources;
  for (const name of ['./analysis-worker.js', './gantry-analysis-worker.mjs']) {
    const url = new URL(name, import.meta.url);
    if (existsSync(fileURLToPath(url))) return { url };
  }
  return undefined;
}

/** A built worker file (already JavaScript: no loader needed). */
export function bundledWorker(file: URL): WorkerSpec {
  return { url: file };
}
