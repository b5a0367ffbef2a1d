/**
 * The files a session keeps: spilled results (`<sessionDir>/tool-results/`) and background task
 * output (`<sessionDir>/tasks/`), under `~/.gantry/sessions/<id>/` (docs/reliability.md
 * "Retention"). They are handed to the model by path, so they stay after a call, but not forever:
 *
 * - per session, at most `GANTRY_SESSION_MAX_BYTES` (default 2 GiB): past it, the oldest finished
 *   files are removed (`enforceSessionCap`, run after a file is kept);
 * - across sessions, at start (`pruneSessionDirs`): directories of sessions that ended more than
 *   `GANTRY_SESSION_RETENTION_DAYS` ago (default 7) are removed, then the oldest ones while the total
 *   passes `GANTRY_SESSIONS_MAX_BYTES` (default 10 GiB). A session whose process still runs (its
 *   `session.json` names a live pid) is never removed.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { lstat, readdir, rm, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

const GiB = 1024 * 1024 * 1024;
const DAY_MS = 24 * 60 * 60_000;

/** Defaults, each overridable by an environment variable. */
export const SESSION_DEFAULTS = {
  maxSessionBytes: 2 * GiB,
  retentionMs: 7 * DAY_MS,
  maxTotalBytes: 10 * GiB,
} as const;

type Env = Readonly<Record<string, string | undefined>>;

function positive(v: string | undefined): number | undefined {
  const n = Number(v);
  return v !== undefined && v !== '' && Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** The limits in force (environment over defaults). */
export function sessionLimits(env: Env = process.env) {
  const days = positive(env.GANTRY_SESSION_RETENTION_DAYS);
  return {
    maxSessionBytes: positive(env.GANTRY_SESSION_MAX_BYTES) ?? SESSION_DEFAULTS.maxSessionBytes,
    retentionMs: days !== undefined ? days * DAY_MS : SESSION_DEFAULTS.retentionMs,
    maxTotalBytes: positive(env.GANTRY_SESSIONS_MAX_BYTES) ?? SESSION_DEFAULTS.maxTotalBytes,
  };
}

/** `~/.gantry/sessions`: where session directories live. */
export function sessionsRoot(home: string = homedir()): string {
  return path.join(home, '.gantry', 'sessions');
}

/** The directory of session `id`: `~/.gantry/sessions/<id>`. */
export function sessionDirFor(id: string, home?: string): string {
  return path.join(sessionsRoot(home), id.replace(/[^A-Za-z0-9_.-]/g, '_'));
}

const MARKER = 'session.json';

const claimed = new Set<string>();

/**
 * Creates the session directory (0700) and records which process owns it (`session.json`), so
 * pruning leaves a running session alone. Called before the first file is kept; idempotent; never
 * throws (the caller creates what it needs anyway).
 */
export function claimSessionDir(dir: string): void {
  if (claimed.has(dir)) return;
  claimed.add(dir);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(
      path.join(dir, MARKER),
      JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() }),
    );
  } catch {
    // the directory is created on demand anyway
  }
}

function pidAlive(pid: unknown): boolean {
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ownerAlive(dir: string): boolean {
  try {
    return pidAlive((JSON.parse(readFileSync(path.join(dir, MARKER), 'utf8')) as { pid?: unknown }).pid);
  } catch {
    return false;
  }
}

interface FileInfo {
  path: string;
  bytes: number;
  mtimeMs: number;
}

/** Regular files below `dir` (not following links), with size and mtime. */
async function filesBelow(dir: string): Promise<FileInfo[]> {
  const out: FileInfo[] = [];
  const walk = async (d: string): Promise<void> => {
    let names: string[];
    try {
      names = await readdir(d);
    } catch {
      return;
    }
    for (const name of names) {
      const p = path.join(d, name);
      const s = await lstat(p).catch(() => undefined);
      if (!s) continue;
      if (s.isDirectory()) await walk(p);
      else if (s.isFile()) out.push({ path: p, bytes: s.size, mtimeMs: s.mtimeMs });
    }
  };
  await walk(dir);
  return out;
}

/**
 * Keeps the session's kept files within `maxBytes`: removes the oldest spilled results and finished
 * task outputs (unchanged for a minute) until the total fits; `keep` (the file just kept) stays.
 * Never throws.
 * @returns the paths removed.
 */
export async function enforceSessionCap(
  sessionDir: string,
  options: { maxBytes?: number; keep?: string } = {},
): Promise<string[]> {
  const maxBytes = options.maxBytes ?? sessionLimits().maxSessionBytes;
  const removed: string[] = [];
  try {
    const files = [
      ...(await filesBelow(path.join(sessionDir, 'tool-results'))),
      ...(await filesBelow(path.join(sessionDir, 'tasks'))),
    ];
    let total = files.reduce((n, f) => n + f.bytes, 0);
    if (total <= maxBytes) return removed;
    const settled = Date.now() - 60_000;
    const results = path.join(sessionDir, 'tool-results') + path.sep;
    const candidates = files.filter(
      (f) => f.path !== options.keep && (f.path.startsWith(results) || f.mtimeMs < settled),
    );
    candidates.sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const f of candidates) {
      if (total <= maxBytes) break;
      await unlink(f.path).catch(() => undefined);
      total -= f.bytes;
      removed.push(f.path);
    }
  } catch {
    // best effort
  }
  return removed;
}

/**
 * Removes old session directories under `root` (see the module comment). Never throws.
 * @param keep - a session directory never removed (the caller's own).
 * @returns the directories removed.
 */
export async function pruneSessionDirs(
  root: string = sessionsRoot(),
  options: { retentionMs?: number; maxTotalBytes?: number; keep?: string; now?: number } = {},
): Promise<string[]> {
  const limits = sessionLimits();
  const retentionMs = options.retentionMs ?? limits.retentionMs;
  const maxTotalBytes = options.maxTotalBytes ?? limits.maxTotalBytes;
  const now = options.now ?? Date.now();
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return removed;
  }
  const sessions: { dir: string; bytes: number; lastMs: number }[] = [];
  for (const name of names) {
    const dir = path.join(root, name);
    if (dir === options.keep) continue;
    const s = await lstat(dir).catch(() => undefined);
    if (!s?.isDirectory() || ownerAlive(dir)) continue;
    const files = await filesBelow(dir);
    const lastMs = Math.max(s.mtimeMs, ...files.map((f) => f.mtimeMs));
    sessions.push({ dir, bytes: files.reduce((n, f) => n + f.bytes, 0), lastMs });
  }
  const drop = async (dir: string): Promise<void> => {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    removed.push(dir);
  };
  sessions.sort((a, b) => a.lastMs - b.lastMs);
  const kept: typeof sessions = [];
  for (const s of sessions) {
    if (now - s.lastMs > retentionMs) await drop(s.dir);
    else kept.push(s);
  }
  let total = kept.reduce((n, s) => n + s.bytes, 0);
  for (const s of kept) {
    if (total <= maxTotalBytes) break;
    await drop(s.dir);
    total -= s.bytes;
  }
  return removed;
}
