/**
 * A throwaway Postgres for tests and benchmarks (one per test file): a fresh cluster from the
 * distribution's binaries in its own temp directory, on a free port of 127.0.0.1, removed by
 * `stop()`.
 *
 * - Binaries found: `postgresBinaries()` returns their directory.
 * - Missing under CI (`CI` set): throws, so a CI run without Postgres fails loudly (`.ci/run`
 *   installs Debian's `postgresql`).
 * - Missing elsewhere: returns undefined and prints a loud warning once; tests then skip with
 *   `describe.skipIf(!postgresBinaries())`.
 */
import { accessSync, constants, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findPostgresBinaries, type LocalPostgres, startLocalPostgres } from '../fleet/local-postgres.js';

let warned = false;

export function postgresBinaries(): string | undefined {
  const dir = findPostgresBinaries();
  if (dir) return dir;
  if (process.env.CI)
    throw new Error('Postgres binaries (initdb, pg_ctl) are missing; CI must install postgresql');
  if (!warned) {
    warned = true;
    console.warn('\n*** Postgres not found (apt-get install postgresql): the fleet tests are SKIPPED ***\n');
  }
  return undefined;
}

/**
 * As root, the cluster runs as `postgres`, which must reach its directory: the temp directory
 * when every ancestor is searchable by others, else `/tmp` (world-writable by design).
 */
function baseDir(): string {
  const base = tmpdir();
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return base;
  let dir = base;
  try {
    for (;;) {
      accessSync(dir, constants.X_OK);
      const { mode } = statSync(dir);
      if ((mode & 0o001) === 0) return '/tmp';
      const parent = path.dirname(dir);
      if (parent === dir) return base;
      dir = parent;
    }
  } catch {
    return '/tmp';
  }
}

export interface TestPostgres extends LocalPostgres {
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const binDir = postgresBinaries();
  if (!binDir)
    throw new Error('startTestPostgres: no Postgres binaries (guard the suite with postgresBinaries())');
  const dir = mkdtempSync(path.join(baseDir(), 'gantry-pg-'));
  try {
    const pg = await startLocalPostgres({ dataDir: dir, binDir, unsafeNoFsync: true });
    return {
      url: pg.url,
      port: pg.port,
      dataDir: pg.dataDir,
      started: true,
      async stop() {
        await pg.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
