/**
 * The fleet's roster of live workers (docs/fleet.md, "Failover"): one row per worker in
 * `gantry_fleet.workers` of the fleet's database, refreshed every heartbeat, and the fleet-wide
 * lock under which one worker at a time hands the work of gone workers back to the queue.
 */
import pg from 'pg';
import { createFleetTables } from './fleet-schema.js';

export interface WorkerRow {
  workerId: string;
  /** The worker's approval endpoint, when it serves one. */
  httpUrl?: string;
  lastSeen: number;
}

/** Advisory-lock key of the recovery sweep ("gantry-fleet" folded into an int). */
const RECOVERY_LOCK = 0x6761_6e74;

export class WorkersTable {
  private readonly pool: pg.Pool;

  constructor(databaseUrl: string) {
    this.pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    // An idle client's error (the server went away) must not end the process; the next query fails.
    this.pool.on('error', () => undefined);
  }

  /** Creates the table if needed (safe with many workers starting together: fleet-schema.ts). */
  async init(): Promise<void> {
    await createFleetTables(this.pool, [
      `CREATE TABLE IF NOT EXISTS gantry_fleet.workers (
         worker_id text PRIMARY KEY,
         http_url text,
         started_at timestamptz NOT NULL DEFAULT now(),
         last_seen timestamptz NOT NULL DEFAULT now())`,
    ]);
  }

  async beat(workerId: string, httpUrl?: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO gantry_fleet.workers (worker_id, http_url) VALUES ($1, $2)
       ON CONFLICT (worker_id) DO UPDATE SET last_seen = now(), http_url = EXCLUDED.http_url`,
      [workerId, httpUrl ?? null],
    );
  }

  /** Rows of workers heard from within `deadAfterMs`. */
  async live(deadAfterMs = Number.POSITIVE_INFINITY): Promise<WorkerRow[]> {
    const { rows } = await this.pool.query<{ worker_id: string; http_url: string | null; last_seen: Date }>(
      'SELECT worker_id, http_url, last_seen FROM gantry_fleet.workers ORDER BY worker_id',
    );
    const now = Date.now();
    return rows
      .map((r) => ({
        workerId: r.worker_id,
        ...(r.http_url ? { httpUrl: r.http_url } : {}),
        lastSeen: r.last_seen.getTime(),
      }))
      .filter((r) => now - r.lastSeen <= deadAfterMs);
  }

  /**
   * Runs `fn` holding the fleet's recovery lock, after deleting the rows of workers silent for
   * `deadAfterMs` (never `self`); `fn` gets the ids of the workers still live. Returns undefined
   * without running `fn` when another worker holds the lock.
   */
  async underRecoveryLock<T>(
    self: string,
    deadAfterMs: number,
    fn: (live: ReadonlySet<string>) => Promise<T>,
  ): Promise<T | undefined> {
    const client = await this.pool.connect();
    try {
      const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
        RECOVERY_LOCK,
      ]);
      if (!rows[0]?.ok) return undefined;
      try {
        await client.query(
          `DELETE FROM gantry_fleet.workers
           WHERE worker_id <> $1 AND last_seen < now() - make_interval(secs => $2::double precision / 1000)`,
          [self, deadAfterMs],
        );
        const live = await client.query<{ worker_id: string }>('SELECT worker_id FROM gantry_fleet.workers');
        return await fn(new Set([self, ...live.rows.map((r) => r.worker_id)]));
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [RECOVERY_LOCK]);
      }
    } finally {
      client.release();
    }
  }

  async remove(workerId: string): Promise<void> {
    await this.pool.query('DELETE FROM gantry_fleet.workers WHERE worker_id = $1', [workerId]);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
