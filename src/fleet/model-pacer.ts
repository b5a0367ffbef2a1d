/**
 * The fleet-wide rate limit of model requests (docs/fleet.md, "Queues"): every worker of a fleet
 * takes its requests' start times from one row of `gantry_fleet.pacers` in the fleet's database,
 * so at most `perMinute` requests start per minute across all workers, evenly spaced
 * (`60 000 / perMinute` ms apart).
 *
 * A reservation is one statement: it moves the row's next free time to
 * `max(next free, now) + gap` under the row's lock and returns the slot it took, on the database's
 * clock (so workers on machines with different clocks share one timeline); the caller then waits
 * until its slot. Only requests really sent reserve (a replayed turn does not). A slot taken by a
 * request that is then aborted stays used.
 *
 * Why not the engine's queue rate limit: DBOS limits how often its queue starts workflows
 * (sessions; `--starts-per-minute` uses it). A model request is a step inside a running session;
 * putting each one on a rate-limited queue would make it a workflow of its own and add the queue's
 * polling delay to every turn.
 *
 * Errors: a database error rejects the reservation; the request is then not sent (never sent
 * unpaced) and the session's turn fails with that error.
 */
import pg from 'pg';
import { createFleetTables } from './fleet-schema.js';

/** The pacer every worker shares for model requests. */
export const MODEL_PACER = 'model-requests';

export interface Reservation {
  /** The slot taken, in ms since the epoch on the database's clock. */
  atMs: number;
  /** How long to wait from now until the slot (0 when it is free now). */
  waitMs: number;
}

export class FleetPacer {
  private readonly pool: pg.Pool;
  private ready: Promise<void> | undefined;

  constructor(databaseUrl: string) {
    this.pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    // An idle client's error (the server went away) must not end the process; the next query fails.
    this.pool.on('error', () => undefined);
  }

  private init(): Promise<void> {
    this.ready ??= (async () => {
      try {
        await createFleetTables(this.pool, [
          `CREATE TABLE IF NOT EXISTS gantry_fleet.pacers (
             name text PRIMARY KEY,
             next_at_ms double precision NOT NULL)`,
        ]);
      } catch (error) {
        this.ready = undefined;
        throw error;
      }
    })();
    return this.ready;
  }

  /** Takes the next slot of `name`, `gapMs` after the previous one (one round trip). */
  async reserve(name: string, gapMs: number): Promise<Reservation> {
    await this.init();
    const { rows } = await this.pool.query<{ at_ms: number; wait_ms: number }>(
      `WITH now_ms AS (SELECT extract(epoch FROM clock_timestamp()) * 1000 AS t),
       up AS (
         INSERT INTO gantry_fleet.pacers AS p (name, next_at_ms)
         SELECT $1, t + $2 FROM now_ms
         ON CONFLICT (name) DO UPDATE
           SET next_at_ms = GREATEST(p.next_at_ms, (SELECT t FROM now_ms)) + $2
         RETURNING next_at_ms)
       SELECT (up.next_at_ms - $2)::float8 AS at_ms,
              GREATEST(0, up.next_at_ms - $2 - now_ms.t)::float8 AS wait_ms
       FROM up, now_ms`,
      [name, gapMs],
    );
    const row = rows[0];
    if (!row) throw new Error(`pacer ${name}: no slot returned`);
    return { atMs: row.at_ms, waitMs: row.wait_ms };
  }

  /** A `beforeRequest` hook: waits for a fleet-wide slot at `perMinute` requests per minute. */
  pace(perMinute: number, name = MODEL_PACER): () => Promise<void> {
    const gapMs = 60_000 / perMinute;
    return async () => {
      const { waitMs } = await this.reserve(name, gapMs);
      if (waitMs > 0) await new Promise((r) => setTimeout(r, waitMs));
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
