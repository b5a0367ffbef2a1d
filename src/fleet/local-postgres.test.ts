/**
 * The local cluster as root: Postgres runs as the `postgres` user, which must be able to enter
 * every directory above the cluster's. A data directory it cannot reach (under a 0700 home, or
 * the 0700 `~/.gantry`) is refused before initdb, with one message naming the directory, instead
 * of initdb's "Permission denied" followed by advice to install Postgres. Whether it can enter is
 * what the kernel says for that user (its supplementary groups count), not a reading of the mode
 * bits.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postgresBinaries } from '../testing/postgres.js';
import { PostgresUnreachableError, startLocalPostgres } from './local-postgres.js';

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

describe.skipIf(!asRoot || !postgresBinaries())('startLocalPostgres as root', () => {
  let base: string;
  beforeEach(() => {
    // /tmp itself is searchable by everyone; the private directory inside it is not.
    base = mkdtempSync('/tmp/gantry-pg-reach-');
    chmodSync(base, 0o755);
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('refuses a data directory the postgres user cannot reach, naming the closed directory', async () => {
    const home = path.join(base, 'home');
    mkdirSync(home, { mode: 0o700 });
    chmodSync(home, 0o700);
    const dataDir = path.join(home, '.gantry', 'fleet', 'pg');
    const error = await startLocalPostgres({ dataDir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresUnreachableError);
    expect((error as Error).message).toBe(
      `as root, Postgres runs as the postgres user, which cannot enter ${home} (mode 0700, owner 0:0; checked by changing into it as that user): pass --database postgres://… for a server you run, or run gantry fleet serve as a regular user`,
    );
    // Nothing was created for a cluster that cannot start.
    expect(existsSync(path.join(home, '.gantry'))).toBe(false);
  });

  /** A group the postgres user is a member of besides its primary one (e.g. ssl-cert), if any. */
  const supplementaryGid = (() => {
    try {
      const line = readFileSync('/etc/group', 'utf8')
        .split('\n')
        .find((l) => l.split(':')[3]?.split(',').includes('postgres'));
      return line ? Number(line.split(':')[2]) : undefined;
    } catch {
      return undefined;
    }
  })();

  it.skipIf(supplementaryGid === undefined)(
    'a directory the postgres user enters through a supplementary group (root-owned, 0710) is not refused',
    async () => {
      const home = path.join(base, 'home');
      mkdirSync(home, { mode: 0o710 });
      chmodSync(home, 0o710);
      chownSync(home, 0, supplementaryGid as number);
      const pg = await startLocalPostgres({ dataDir: path.join(home, 'pg'), unsafeNoFsync: true });
      try {
        expect(pg.started).toBe(true);
      } finally {
        await pg.stop();
      }
    },
    120_000,
  );
});
