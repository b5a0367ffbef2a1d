/**
 * The one directory a WebBrowser session's Chromium writes to (docs/session-tools.md, "Web
 * browser"): `<tmpdir>/gantry-browser-<pid>-<random>/` holding
 *
 * - `owner.json` — `{ pid, started }` of the Gantry process (`started`: the process start time in
 *   clock ticks from `/proc/<pid>/stat`, so a reused pid is not taken for the owner; null where
 *   there is no `/proc`);
 * - `profile/` — Chromium's user data directory (its `SingletonLock` link names Chromium's pid);
 * - `artifacts/` — Playwright's artifacts directory;
 * - `tmp/` — Chromium's `TMPDIR` (its own scoped temp directories land here, not in the user's).
 *
 * Removal: `release()` after the browser closed; at process exit (also after SIGTERM/SIGINT, which
 * end Gantry through `process.exit`) a synchronous handler SIGKILLs Chromium's process group and
 * removes the directory. A SIGKILLed Gantry runs nothing: Chromium ends by itself when its
 * DevTools pipe closes, and `sweepStaleBrowserDirs()` — run before each launch — removes the
 * directories whose owner is gone (killing a Chromium still running from one first).
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Name prefix of the per-session directories in the temp directory. */
export const BROWSER_DIR_PREFIX = 'gantry-browser-';

export interface BrowserDirs {
  root: string;
  profile: string;
  artifacts: string;
  tmp: string;
  /** SIGKILLs Chromium's process group if it still runs, then removes `root` (idempotent). */
  release(): void;
}

interface Owner {
  pid: number;
  started: string | null;
}

/** Start time of `pid` in clock ticks (field 22 of `/proc/<pid>/stat`); null without `/proc`. */
function startTicks(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

function alive(owner: Owner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: the pid exists (another user's); the start time says whether it is still the owner.
  }
  if (owner.started === null) return true;
  return startTicks(owner.pid) === owner.started;
}

/** Chromium's pid from the profile's `SingletonLock` link (`<hostname>-<pid>`), if any. */
function chromiumPid(profile: string): number | undefined {
  try {
    const m = /-(\d+)$/.exec(readlinkSync(path.join(profile, 'SingletonLock')));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * SIGKILLs the process group of the Chromium that uses `profile` (Playwright starts Chromium as a
 * group leader, so its zygotes, renderers and helpers share the group). Where `/proc` exists, the
 * pid's command line must name the profile, so a reused pid is never killed; without `/proc` only
 * this process's own browser (`own`) is killed, never one a sweep found.
 */
function killChromium(profile: string, own: boolean): void {
  const pid = chromiumPid(profile);
  if (!pid || pid === process.pid) return;
  if (hasProc()) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(profile)) return;
    } catch {
      return; // already gone
    }
  } else if (!own) return;
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // Gone, or not a group leader.
    }
  }
}

let procSeen: boolean | undefined;
function hasProc(): boolean {
  if (procSeen === undefined) procSeen = startTicks(process.pid) !== null;
  return procSeen;
}

function removeDir(root: string, own: boolean): void {
  killChromium(path.join(root, 'profile'), own);
  try {
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
  } catch {
    // Another sweep removed it, or a file is busy: the next start's sweep tries again.
  }
}

const live = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const root of live) removeDir(root, true);
    live.clear();
  });
}

/** Makes this session's browser directory (see the module comment) in `base` (default: the temp directory). */
export function makeBrowserDirs(base: string = tmpdir()): BrowserDirs {
  const root = mkdtempSync(path.join(base, `${BROWSER_DIR_PREFIX}${process.pid}-`));
  const owner: Owner = { pid: process.pid, started: startTicks(process.pid) };
  writeFileSync(path.join(root, 'owner.json'), `${JSON.stringify(owner)}\n`, { mode: 0o600 });
  const dirs = {
    root,
    profile: path.join(root, 'profile'),
    artifacts: path.join(root, 'artifacts'),
    tmp: path.join(root, 'tmp'),
  };
  for (const d of [dirs.profile, dirs.artifacts, dirs.tmp]) mkdirSync(d, { mode: 0o700 });
  live.add(root);
  installExitHook();
  return {
    ...dirs,
    release() {
      if (!live.delete(root)) return;
      removeDir(root, true);
    },
  };
}

/**
 * Removes the browser directories in `base` whose owner process is gone (a Gantry that was
 * SIGKILLed or crashed), after killing a Chromium still running from one. A directory without a
 * readable `owner.json` is left alone unless its name carries a dead pid. Returns the removed paths.
 */
export function sweepStaleBrowserDirs(base: string = tmpdir()): string[] {
  let names: string[];
  try {
    names = readdirSync(base).filter((n) => n.startsWith(BROWSER_DIR_PREFIX));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const root = path.join(base, name);
    if (live.has(root)) continue;
    let owner: Owner | undefined;
    try {
      const parsed = JSON.parse(readFileSync(path.join(root, 'owner.json'), 'utf8')) as Partial<Owner>;
      if (typeof parsed.pid === 'number')
        owner = { pid: parsed.pid, started: typeof parsed.started === 'string' ? parsed.started : null };
    } catch {
      // No owner file (killed between mkdtemp and its write): fall back to the pid in the name.
      const pid = Number(/^gantry-browser-(\d+)-/.exec(name)?.[1]);
      if (pid > 0) owner = { pid, started: null };
    }
    if (!owner || alive(owner)) continue;
    removeDir(root, false);
    removed.push(root);
  }
  return removed;
}
