/**
 * A local Postgres cluster from the distribution's binaries (Debian's `postgresql` package puts
 * them under `/usr/lib/postgresql/<major>/bin`), for `gantry fleet serve` without `--database` and
 * for tests and benchmarks. See docs/fleet.md ("Postgres").
 *
 * - `findPostgresBinaries()` → the directory holding `initdb`, `pg_ctl` and `postgres`, or
 *   undefined (`GANTRY_PG_BIN` overrides the search; then `PATH`).
 * - `startLocalPostgres({dataDir})` creates the cluster when the directory is empty (trust
 *   authentication, listening on 127.0.0.1 only, on the given port or a free one) and starts it;
 *   `stop()` stops it (`pg_ctl stop -m fast`). Postgres refuses to run as root: as root the
 *   commands run as the `postgres` user (`runuser`), and the data directory is handed to it.
 * - Errors: `PostgresMissingError` (no binaries; its message says how to install them),
 *   `PostgresUnreachableError` (as root, the `postgres` user cannot enter a directory above the
 *   cluster's: a 0700 home or `~/.gantry`), or an `Error` carrying the failing command's output.
 */
import { execFile } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** How to install the binaries, for messages (docs/fleet.md). */
export const POSTGRES_INSTALL_HINT =
  'fleet mode needs Postgres: install it with `sudo apt-get install postgresql` (Debian/Ubuntu), ' +
  'or pass --database postgres://user:password@host:5432/db for a server you run';

export class PostgresMissingError extends Error {
  override readonly name = 'PostgresMissingError';
  constructor() {
    super(`no Postgres binaries found (initdb, pg_ctl): ${POSTGRES_INSTALL_HINT}`);
  }
}

/** As root: the `postgres` user cannot enter a directory above the cluster's (message names it). */
export class PostgresUnreachableError extends Error {
  override readonly name = 'PostgresUnreachableError';
}

const hasBinaries = (dir: string): boolean =>
  ['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(path.join(dir, b)));

/** The directory of `initdb`/`pg_ctl`/`postgres`, or undefined. */
export function findPostgresBinaries(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.GANTRY_PG_BIN) return hasBinaries(env.GANTRY_PG_BIN) ? env.GANTRY_PG_BIN : undefined;
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const majors = readdirSync(debian)
      .filter((d) => /^\d+$/.test(d))
      .sort((a, b) => Number(b) - Number(a));
    for (const major of majors) {
      const dir = path.join(debian, major, 'bin');
      if (hasBinaries(dir)) return dir;
    }
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter)) if (dir && hasBinaries(dir)) return dir;
  return undefined;
}

/** A free TCP port on 127.0.0.1 (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface LocalPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** False when the cluster was already running (then `stop()` is the caller's choice). */
  readonly started: boolean;
  stop(): Promise<void>;
}

export interface StartLocalPostgresOptions {
  /** The cluster's directory (created when missing; an existing cluster is reused). */
  dataDir: string;
  /** Default: the port recorded by an earlier start of this cluster, else a free one. */
  port?: number;
  binDir?: string;
  /** Turn off fsync (throwaway clusters for tests and benches only). */
  unsafeNoFsync?: boolean;
}

function asPostgresUser(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

async function pgCommand(binDir: string, command: string, args: string[]): Promise<string> {
  const file = path.join(binDir, command);
  const [cmd, argv] = asPostgresUser() ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  try {
    const { stdout, stderr } = await run(cmd, argv, { timeout: 60_000, maxBuffer: 4 * 1024 * 1024 });
    return `${stdout}${stderr}`;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`.trim());
  }
}

function postgresUserIds(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const fields = line?.split(':');
  if (!fields || fields.length < 4)
    throw new Error('running as root, and there is no `postgres` user to run Postgres');
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

/**
 * The outermost directory above `root` that the postgres user cannot enter, with what was found;
 * a directory still to be made counts as closed, since it is made 0700 for root. The kernel
 * decides: `runuser -u postgres` changes into each existing directory in turn (chdir(2) checks
 * search permission with the user's primary and supplementary groups and any ACL), so the answer
 * is what Postgres will meet, not a reading of the mode bits.
 */
async function closedAncestor(root: string): Promise<{ dir: string; mode: string } | undefined> {
  const parts: string[] = [];
  for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
    parts.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  const existing: string[] = [];
  let missing: string | undefined;
  for (const dir of parts) {
    if (existsSync(dir)) existing.push(dir);
    else {
      missing = dir;
      break;
    }
  }
  const script = 'for d; do cd -- "$d" 2>/dev/null || { printf %s "$d"; exit 1; }; done';
  let closed: string | undefined;
  try {
    await run('runuser', ['-u', 'postgres', '--', 'sh', '-c', script, 'sh', ...existing], {
      timeout: 30_000,
    });
  } catch (error) {
    const e = error as { code?: unknown; stdout?: string; message: string };
    if (e.code !== 1 || !e.stdout)
      throw new Error(`cannot check the data directory as the postgres user: ${e.message}`);
    closed = e.stdout;
  }
  if (closed !== undefined) {
    const st = statSync(closed);
    const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
    return {
      dir: closed,
      mode: `mode ${mode}, owner ${st.uid}:${st.gid}; checked by changing into it as that user`,
    };
  }
  return missing ? { dir: missing, mode: 'to be created 0700' } : undefined;
}

/** Creates (when needed) and starts the cluster in `dataDir`. */
export async function startLocalPostgres(options: StartLocalPostgresOptions): Promise<LocalPostgres> {
  const binDir = options.binDir ?? findPostgresBinaries();
  if (!binDir) throw new PostgresMissingError();
  const root = path.resolve(options.dataDir);
  const data = path.join(root, 'data');
  const portFile = path.join(root, 'port');
  if (asPostgresUser()) {
    const { uid, gid } = postgresUserIds();
    const closed = await closedAncestor(root);
    if (closed)
      throw new PostgresUnreachableError(
        `as root, Postgres runs as the postgres user, which cannot enter ${closed.dir} (${closed.mode}): pass --database postgres://… for a server you run, or run gantry fleet serve as a regular user`,
      );
    mkdirSync(root, { recursive: true, mode: 0o700 });
    chownSync(root, uid, gid);
  } else mkdirSync(root, { recursive: true, mode: 0o700 });
  if (!existsSync(path.join(data, 'PG_VERSION'))) {
    await pgCommand(binDir, 'initdb', [
      '-D',
      data,
      '-A',
      'trust',
      '-U',
      'postgres',
      '-E',
      'UTF8',
      '--no-sync',
    ]);
  }
  const recorded = existsSync(portFile) ? Number(readFileSync(portFile, 'utf8').trim()) : 0;
  if (recorded > 0 && (await isRunning(binDir, data))) return handle(binDir, root, data, recorded, false);
  const port = options.port ?? (recorded > 0 ? recorded : await freePort());
  const settings = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${root}`,
    '-c max_connections=200',
    ...(options.unsafeNoFsync
      ? ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']
      : []),
  ].join(' ');
  await pgCommand(binDir, 'pg_ctl', [
    '-D',
    data,
    '-l',
    path.join(root, 'postgres.log'),
    '-o',
    settings,
    '-w',
    '-t',
    '60',
    'start',
  ]);
  if (asPostgresUser()) {
    const { uid, gid } = postgresUserIds();
    writeFileSync(portFile, `${port}\n`);
    chownSync(portFile, uid, gid);
  } else writeFileSync(portFile, `${port}\n`);
  return handle(binDir, root, data, port, true);
}

async function isRunning(binDir: string, data: string): Promise<boolean> {
  return pgCommand(binDir, 'pg_ctl', ['-D', data, 'status']).then(
    () => true,
    () => false,
  );
}

function handle(binDir: string, root: string, data: string, port: number, started: boolean): LocalPostgres {
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir: root,
    started,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pgCommand(binDir, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
    },
  };
}

/** The URL of the cluster in `dataDir` when it is running (recorded port + `pg_ctl status`), else undefined. */
export async function runningLocalPostgres(
  dataDir: string,
  binDir = findPostgresBinaries(),
): Promise<string | undefined> {
  if (!binDir) return undefined;
  const root = path.resolve(dataDir);
  const portFile = path.join(root, 'port');
  if (!existsSync(portFile)) return undefined;
  const port = Number(readFileSync(portFile, 'utf8').trim());
  if (!(port > 0) || !(await isRunning(binDir, path.join(root, 'data')))) return undefined;
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}
