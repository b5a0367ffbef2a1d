/**
 * `gantry fleet serve --http-port P` with P taken by another process: one line naming the
 * address, exit 1, and no worker left running on the database (the approval endpoint is part of
 * the worker, so a worker without it must not take sessions).
 */
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresBinaries, startTestPostgres, type TestPostgres } from '../../testing/postgres.js';
import { gantryEnv, makePrintWorld, type PrintWorld, runGantry } from '../../testing/print-fixtures.js';

describe.skipIf(!postgresBinaries())('gantry fleet serve whose --http-port is in use', () => {
  let world: PrintWorld;
  let db: TestPostgres;
  let taken: Server;
  let port: number;

  beforeAll(async () => {
    world = makePrintWorld();
    db = await startTestPostgres();
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => taken?.close(() => resolve()));
    await db?.stop();
    world?.cleanup();
  });

  it('exits 1 with one line naming the port and leaves no worker in the roster', async () => {
    const run = await runGantry(
      ['fleet', 'serve', '--database', db.url, '--worker-id', 'w-taken', '--http-port', String(port)],
      {
        cwd: world.project,
        env: gantryEnv(world, undefined, { GANTRY_FLEET_TOKEN: 'fleet-test-token' }),
        timeoutMs: 30_000,
      },
    );
    expect(run.signal, `still running after 30 s; stderr: ${run.stderr}`).toBeNull();
    expect(run.code).toBe(1);
    expect(run.stdout, run.stderr).toBe('');
    expect(
      run.stderr.split('\n').filter((l) => l.includes('cannot listen')),
      run.stderr,
    ).toEqual([
      `gantry fleet: the worker could not start: cannot listen on 127.0.0.1:${port}: the port is already in use`,
    ]);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const tables = await client.query<{ t: string | null }>(
        "SELECT to_regclass('gantry_fleet.workers')::text AS t",
      );
      if (tables.rows[0]?.t) {
        const { rows } = await client.query('SELECT 1 FROM gantry_fleet.workers WHERE worker_id = $1', [
          'w-taken',
        ]);
        expect(rows).toEqual([]);
      }
    } finally {
      await client.end();
    }
  }, 60_000);
});
