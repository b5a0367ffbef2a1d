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
 *   Chromium binds its `SingletonSocket` in a directory it makes there, and a Unix socket path has
 *   at most 107 bytes: when `tmp/` is too deep for that (a long temp directory, such as a test's
 *   nested one or macOS's), Chromium's `TMPDIR` is a short `/tmp/gantry-bt-<random>/` instead,
 *   named in `owner.json` as `tmp` and removed with the directory.
 *
 * Removal: `release()` after the browser closed; at process exit (also after SIGTERM/SIGINT, which
 * end Gantry through `process.exit`) a synchronous handler SIGKILLs Chromium's process group and
 * removes the directory. A SIGKILLed Gantry runs nothing: Chromium ends by itself when its
 * DevTools pipe closes, and `sweepStaleBrowserDirs()` — run before each launch — removes the
 * directories whose owner is gone (killing a Chromium still running from one first); the owner
 * check and the sweep are core/owned-dirs.ts, shared with the inline `--settings` directories.
 */
import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type DirOwner,
  isOwnPrivateDir,
  processStartTicks,
  removeDirQuietly,
  sweepStaleOwnedDirs,
} from '../../core/owned-dirs.js';

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
  /** Chromium's TMPDIR when it is not `<root>/tmp` (see the module comment). */
  tmp?: string;
}

/** The longest Unix socket path (`sun_path` is 108 bytes with its terminating NUL). */
const MAX_SOCKET_PATH_BYTES = 107;
/** What Chromium appends to its TMPDIR for the singleton socket: `/org.chromium.Chromium.XXXXXX/SingletonSocket`. */
const SOCKET_SUFFIX_BYTES = '/org.chromium.Chromium.XXXXXX/SingletonSocket'.length;
/** The short fallback for Chromium's TMPDIR: `/tmp/gantry-bt-<random>`. */
const SHORT_TMP_PREFIX = '/tmp/gantry-bt-';

/** Whether `dir` is one of the short fallback directories this module makes (never anything else). */
function isShortTmp(dir: unknown): dir is string {
  return (
    typeof dir === 'string' &&
    dir.startsWith(SHORT_TMP_PREFIX) &&
    /^[A-Za-z0-9]+$/.test(dir.slice(SHORT_TMP_PREFIX.length))
  );
}

/** Chromium's TMPDIR for the session directory `root`: `<root>/tmp`, or a short one when that is too deep. */
function chromiumTmpFor(root: string): string {
  const inside = path.join(root, 'tmp');
  if (Buffer.byteLength(inside) + SOCKET_SUFFIX_BYTES <= MAX_SOCKET_PATH_BYTES) return inside;
  return mkdtempSync(SHORT_TMP_PREFIX);
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
  if (procSeen === undefined) procSeen = processStartTicks(process.pid) !== null;
  return procSeen;
}

function removeDir(root: string, own: boolean, shortTmp?: string): void {
  killChromium(path.join(root, 'profile'), own);
  // The short TMPDIR first: a sweep finds it only through the root's owner.json.
  for (const dir of isShortTmp(shortTmp) ? [shortTmp, root] : [root]) removeDirQuietly(dir);
}

/** This process's session directories: root → its short TMPDIR, if any. */
const live = new Map<string, string | undefined>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const [root, shortTmp] of live) removeDir(root, true, shortTmp);
    live.clear();
  });
}

/** Makes this session's browser directory (see the module comment) in `base` (default: the temp directory). */
export function makeBrowserDirs(base: string = tmpdir()): BrowserDirs {
  const root = mkdtempSync(path.join(base, `${BROWSER_DIR_PREFIX}${process.pid}-`));
  const inside = path.join(root, 'tmp');
  let tmp = inside;
  try {
    tmp = chromiumTmpFor(root);
  } catch {
    // No writable /tmp: keep the deep one (Chromium then reports the socket path itself).
  }
  const shortTmp = tmp === inside ? undefined : tmp;
  const owner: Owner = {
    pid: process.pid,
    started: processStartTicks(process.pid),
    ...(shortTmp ? { tmp: shortTmp } : {}),
  };
  live.set(root, shortTmp);
  installExitHook();
  writeFileSync(path.join(root, 'owner.json'), `${JSON.stringify(owner)}\n`, { mode: 0o600 });
  const dirs = {
    root,
    profile: path.join(root, 'profile'),
    artifacts: path.join(root, 'artifacts'),
    tmp,
  };
  for (const d of [dirs.profile, dirs.artifacts, inside]) mkdirSync(d, { mode: 0o700 });
  return {
    ...dirs,
    release() {
      if (!live.has(root)) return;
      live.delete(root);
      removeDir(root, true, shortTmp);
    },
  };
}

/**
 * Removes the browser directories in `base` whose owner process is gone (a Gantry that was
 * SIGKILLed or crashed), after killing a Chromium still running from one. A directory without a
 * readable `owner.json` is left alone unless its name carries a dead pid. Returns the removed paths.
 */
export function sweepStaleBrowserDirs(base: string = tmpdir()): string[] {
  return sweepStaleOwnedDirs(base, BROWSER_DIR_PREFIX, {
    keep: (root) => live.has(root),
    // Only this user's own private directories: the session directory and the short TMPDIR it names.
    remove: (root, owner: DirOwner) =>
      removeDir(root, false, isShortTmp(owner.tmp) && isOwnPrivateDir(owner.tmp) ? owner.tmp : undefined),
  });
}
