/**
 * The call journal of the DBOS engine (`CallJournal` in ../engine.ts; docs/fleet.md, "What is
 * journaled"): the table `gantry_fleet.calls` beside DBOS's system tables in the same database,
 * one row per (workflow, key) — a tool call's `tool_use_id`, a model turn's `model:<n>` — holding
 * the claiming execution and the record (JSON text, kept as written).
 *
 * Why a table and not DBOS steps: a DBOS step costs seven round trips (a cancellation check, the
 * lookup of an earlier record, then a transaction that locks the workflow row and inserts the
 * output), and a turn with a call with effects took three steps (the response, the call's start
 * mark, its record): 21 round trips between one response and the next request. Here a claim and
 * a record are one statement each: 3.
 *
 * Ownership: DBOS gives each execution of a workflow a token (`owner_xid` of `dbos.workflow_status`;
 * a takeover by another worker replaces it). `open` takes the execution's own token from the
 * engine (DBOS's context, not the row, which may already name a newer owner), and every write
 * holds a share lock on that row and checks the token in the same statement, so an execution that
 * lost the workflow to another worker can no longer claim or record ({@link LostOwnershipError}),
 * and one whose workflow was cancelled stops at its next write ({@link JournalCancelledError}, a
 * cancellation for the engine's `isCancellation`).
 *
 * Errors: database errors propagate as they are (the session then fails or is retried by its next
 * owner).
 */
import pg from 'pg';
import type { CallEntry, CallJournal } from '../engine.js';
import { createFleetTables } from '../fleet-schema.js';

/** DBOS's system schema (its default; the fleet does not change it). */
const DBOS_SCHEMA = 'dbos';

/** Advisory-lock key held while a worker launches DBOS. */
const LAUNCH_LOCK = 0x6761_6e77;

/**
 * How long the journal of a cancelled session is kept (ms; 7 days). DBOS can resume a cancelled
 * workflow, and a resumed session needs its journal to replay completed calls instead of running
 * them again; past this age the session is taken as abandoned and its rows go with the next prune.
 * Configurable per worker (`gantry fleet serve --keep-cancelled <hours>`; docs/fleet.md).
 */
export const CANCELLED_JOURNAL_RETENTION_MS = 7 * 24 * 3_600_000;

/** Thrown by a write of an execution that no longer owns its workflow. */
export class LostOwnershipError extends Error {
  constructor(workflowId: string) {
    super(`workflow ${workflowId} is now run by another execution; this one stops`);
    this.name = 'LostOwnershipError';
  }
}

/** Thrown by a write of an execution whose workflow was cancelled. */
export class JournalCancelledError extends Error {
  constructor(workflowId: string) {
    super(`workflow ${workflowId} was cancelled`);
    this.name = 'JournalCancelledError';
  }
}

/** The workflow's row, share-locked so a takeover or cancel waits for the write (and vice versa). */
const ROW = `SELECT status, owner_xid IS NOT DISTINCT FROM $2 AS owned FROM ${DBOS_SCHEMA}.workflow_status
  WHERE workflow_uuid = $1 FOR SHARE`;

function checkWriter(
  workflowId: string,
  row: { status: string | null; owned: boolean | null } | undefined,
): void {
  if (row?.status === 'CANCELLED') throw new JournalCancelledError(workflowId);
  if (!row?.owned) throw new LostOwnershipError(workflowId);
}

export class CallsTable {
  private readonly pool: pg.Pool;

  constructor(databaseUrl: string, poolSize = 4) {
    this.pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
    // An idle client's error (the server went away) must not end the process; the next query fails.
    this.pool.on('error', () => undefined);
  }

  /** Creates the schema and table if needed (safe with many workers starting together). */
  async init(): Promise<void> {
    await createFleetTables(this.pool, [
      `CREATE TABLE IF NOT EXISTS gantry_fleet.calls (
         workflow_id text NOT NULL,
         call_id text NOT NULL,
         claimed_by text,
         record text,
         created_at timestamptz NOT NULL DEFAULT now(),
         PRIMARY KEY (workflow_id, call_id))`,
    ]);
  }

  /**
   * Runs `fn` (DBOS's launch) holding a fleet-wide lock, so workers starting together against a
   * fresh database do not run DBOS's schema migrations at the same time (they fail with "tuple
   * concurrently updated" when they do).
   */
  async underLaunchLock<T>(fn: () => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // A session-level advisory lock lives as long as its connection: one whose unlock failed is
    // closed, never handed back to the pool still holding the lock.
    let unlocked = false;
    try {
      // Polled with try-lock: a waiting `pg_advisory_lock` statement would hold a snapshot, and
      // the holder's migrations (index builds) wait for every open snapshot: a deadlock.
      for (;;) {
        const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
          LAUNCH_LOCK,
        ]);
        if (rows[0]?.ok) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      try {
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [LAUNCH_LOCK]).then(
          () => {
            unlocked = true;
          },
          () => undefined,
        );
      }
    } finally {
      client.release(!unlocked);
    }
  }

  /**
   * The journal of `workflowId` for the execution `executionId` (one query); every write checks
   * `ownerToken`, the token the engine gave this execution (never the one in the database now,
   * which may already be a newer owner's).
   */
  async open(workflowId: string, executionId: string, ownerToken: string): Promise<CallJournal> {
    const { rows } = await this.pool.query<{
      owner_xid: string | null;
      call_id: string | null;
      claimed_by: string | null;
      record: string | null;
    }>(
      `SELECT w.owner_xid, c.call_id, c.claimed_by, c.record
       FROM ${DBOS_SCHEMA}.workflow_status w
       LEFT JOIN gantry_fleet.calls c ON c.workflow_id = w.workflow_uuid
       WHERE w.workflow_uuid = $1`,
      [workflowId],
    );
    if (!rows.length) throw new Error(`workflow ${workflowId} is not in the database`);
    const owner = ownerToken;
    const entries = new Map<string, CallEntry>();
    for (const r of rows) {
      if (r.call_id === null) continue;
      entries.set(r.call_id, {
        ...(r.claimed_by !== null ? { claimedBy: r.claimed_by } : {}),
        ...(r.record !== null ? { record: JSON.parse(r.record) as unknown } : {}),
      });
    }
    const pool = this.pool;
    return {
      entries,
      async claim(key) {
        const { rows: out } = await pool.query<{ status: string | null; owned: boolean | null; n: number }>(
          `WITH own AS (${ROW}),
           ins AS (INSERT INTO gantry_fleet.calls (workflow_id, call_id, claimed_by)
                   SELECT $1, $3, $4 FROM own WHERE own.owned AND own.status <> 'CANCELLED'
                   ON CONFLICT (workflow_id, call_id) DO NOTHING RETURNING 1)
           SELECT (SELECT status FROM own) AS status, (SELECT owned FROM own) AS owned,
                  (SELECT count(*) FROM ins)::int AS n`,
          [workflowId, owner, key, executionId],
        );
        checkWriter(workflowId, out[0]);
        return out[0]?.n === 1;
      },
      async record(key, value) {
        const { rows: out } = await pool.query<{ status: string | null; owned: boolean | null; n: number }>(
          `WITH own AS (${ROW}),
           up AS (INSERT INTO gantry_fleet.calls (workflow_id, call_id, record)
                  SELECT $1, $3, $4 FROM own WHERE own.owned AND own.status <> 'CANCELLED'
                  ON CONFLICT (workflow_id, call_id) DO UPDATE SET record = EXCLUDED.record
                  WHERE gantry_fleet.calls.record IS NULL RETURNING 1)
           SELECT (SELECT status FROM own) AS status, (SELECT owned FROM own) AS owned,
                  (SELECT count(*) FROM up)::int AS n`,
          [workflowId, owner, key, JSON.stringify(value ?? null)],
        );
        checkWriter(workflowId, out[0]);
        if (out[0]?.n !== 1) throw new Error(`call ${key} of workflow ${workflowId} is recorded already`);
      },
    };
  }

  /**
   * Deletes the entries of workflows that ended (SUCCESS, ERROR), are gone from DBOS's tables, or
   * were cancelled more than `cancelledRetentionMs` ago (by DBOS's `updated_at` of the workflow, ms
   * since the epoch, set when it was cancelled; compared with the database's clock). Returns how
   * many entries went. Throws a RangeError for a negative or non-finite retention.
   */
  async prune(cancelledRetentionMs: number = CANCELLED_JOURNAL_RETENTION_MS): Promise<number> {
    if (!Number.isFinite(cancelledRetentionMs) || cancelledRetentionMs < 0)
      throw new RangeError(`cancelledRetentionMs must be a finite number >= 0 (got ${cancelledRetentionMs})`);
    const { rowCount } = await this.pool.query(
      `DELETE FROM gantry_fleet.calls c
       WHERE NOT EXISTS (
         SELECT 1 FROM ${DBOS_SCHEMA}.workflow_status w
         WHERE w.workflow_uuid = c.workflow_id AND w.status NOT IN ('SUCCESS', 'ERROR')
           AND NOT (w.status = 'CANCELLED'
                    AND w.updated_at <= (EXTRACT(EPOCH FROM now()) * 1000)::bigint - $1::bigint))`,
      [Math.floor(cancelledRetentionMs)],
    );
    return rowCount ?? 0;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
