/**
 * Creates the fleet's own tables (schema `gantry_fleet`, beside DBOS's) safely when several
 * workers start together against a fresh database: Postgres's `CREATE … IF NOT EXISTS` is not
 * safe against a concurrent create of the same name (the loser fails with a duplicate key in
 * `pg_type`), so every create runs in one transaction holding one advisory lock. docs/fleet.md.
 */
import type pg from 'pg';

/** Advisory-lock key that serialises the fleet's table creation across workers. */
const CREATE_LOCK = 0x6761_6e75;

/**
 * Runs `CREATE SCHEMA IF NOT EXISTS gantry_fleet` and then `statements`, under the lock.
 * @throws the database's error (the transaction is rolled back).
 */
export async function createFleetTables(pool: pg.Pool, statements: readonly string[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [CREATE_LOCK]);
    await client.query('CREATE SCHEMA IF NOT EXISTS gantry_fleet');
    for (const statement of statements) await client.query(statement);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
