/**
 * Directories a Gantry process owns and the next one sweeps (docs/session-tools.md, "Web browser";
 * docs/cli.md, "--settings"): `<base>/<prefix><pid>-<random>/` made by `mkdtemp` (0700), holding
 * `owner.json` — `{ pid, started, ...extra }` of the owning process, `started` being its start time
 * in clock ticks (field 22 of `/proc/<pid>/stat`, proc(5)) so a reused pid is not taken for the
 * owner (null where there is no `/proc`).
 *
 * A SIGKILLed process runs no exit handler, so its directory stays; `sweepStaleOwnedDirs` — run by
 * the next process that makes one — removes those whose owner is gone. It removes only this
 * user's own private directories (a real directory, not a link, mode without group/other bits):
 * the base may be shared, and another user's directory or a planted link is never touched.
 */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The owner record in `owner.json`; callers may add their own keys. */
export interface DirOwner {
  pid: number;
  started: string | null;
  [key: string]: unknown;
}

/** Start time of `pid` in clock ticks (field 22 of `/proc/<pid>/stat`); null without `/proc`. */
export function processStartTicks(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/**
 * Whether the owner still runs: its pid exists (EPERM counts: another user's process) and, where
 * the start time is known, that pid started at the same tick.
 */
export function ownerAlive(owner: Pick<DirOwner, 'pid' | 'started'>): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  if (owner.started === null) return true;
  return processStartTicks(owner.pid) === owner.started;
}

/**
 * Whether `dir` is a real directory (not a link) of this user that only this user can enter: what
 * `mkdtemp` makes. True for any such directory where there are no uids.
 */
export function isOwnPrivateDir(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    if (!st.isDirectory()) return false;
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return false;
    return (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/**
 * Makes `<base>/<prefix><pid>-<random>/` (0700; `base` is created 0700 when missing) with its
 * `owner.json` (0600) naming this process plus `extra`. Throws the fs error when it cannot.
 */
export function makeOwnedDir(base: string, prefix: string, extra: Record<string, unknown> = {}): string {
  mkdirSync(base, { recursive: true, mode: 0o700 });
  const root = mkdtempSync(path.join(base, `${prefix}${process.pid}-`));
  const owner: DirOwner = { ...extra, pid: process.pid, started: processStartTicks(process.pid) };
  writeFileSync(path.join(root, 'owner.json'), `${JSON.stringify(owner)}\n`, { mode: 0o600 });
  return root;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The owner of `<base>/<name>`: its `owner.json`, else (killed before writing it) the pid in the name. */
function readOwner(base: string, name: string, prefix: string): DirOwner | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path.join(base, name, 'owner.json'), 'utf8')) as Partial<DirOwner>;
    if (typeof parsed.pid === 'number' && Number.isInteger(parsed.pid) && parsed.pid > 0)
      return {
        ...parsed,
        pid: parsed.pid,
        started: typeof parsed.started === 'string' ? parsed.started : null,
      };
    return undefined;
  } catch {
    const pid = Number(new RegExp(`^${escapeRegExp(prefix)}(\\d+)-`).exec(name)?.[1]);
    return pid > 0 ? { pid, started: null } : undefined;
  }
}

export interface SweepOptions {
  /** Paths this process still uses (never removed). */
  keep?: (root: string) => boolean;
  /**
   * Removes one stale directory (default: `rm -rf`). Gets the owner record as read (its extra keys
   * are untrusted input: validate them before use).
   */
  remove?: (root: string, owner: DirOwner) => void;
}

/** `rm -rf root`, retrying busy files; never throws (the next sweep tries again). */
export function removeDirQuietly(root: string): void {
  try {
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
  } catch {
    // Another sweep removed it, or a file is busy.
  }
}

/**
 * Removes the `<prefix>*` directories in `base` whose owner is gone and that are this user's own
 * private directories (see the module comment). A directory without a readable `owner.json` is
 * removed only when its name carries a dead pid. Returns the removed paths; never throws.
 */
export function sweepStaleOwnedDirs(base: string, prefix: string, options: SweepOptions = {}): string[] {
  let names: string[];
  try {
    names = readdirSync(base).filter((n) => n.startsWith(prefix));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const root = path.join(base, name);
    if (options.keep?.(root)) continue;
    const owner = readOwner(base, name, prefix);
    if (!owner || ownerAlive(owner)) continue;
    if (!isOwnPrivateDir(root)) continue;
    (options.remove ?? removeDirQuietly)(root, owner);
    removed.push(root);
  }
  return removed;
}
