/**
 * The hook server's answer to "are the sources of this checkout still the ones dist/ was built
 * from?", so that a warm `gantry hook` from a git checkout does not walk the sources itself on every
 * call (docs/startup.md "A hook call from a checkout").
 *
 * bin/gantry.js never runs a dist/ older than the sources: from a checkout it compares them
 * (scripts/build-inputs.cjs `staleReason`: every source file's mtime, about 650 files) before it
 * runs anything, which costs a fresh process more than the rest of a warm hook call. The resident
 * server does that comparison once, then watches every directory it walked (`fs.watch`, inotify on
 * Linux: a file written, created, removed or renamed in a watched directory is an event); any event
 * makes the next request compare again. The server answers for its own checkout only (the folder its
 * bundle was loaded from), never for a path a client names.
 *
 * Order of one check: the request is handled one event-loop turn later (`setImmediate`), so an
 * event the kernel queued before the request arrived is delivered first; when no event came since
 * the last comparison found the sources current, the answer is yes. Otherwise: close the watchers,
 * arm new ones on every directory (an edit from then on is an event), then compare; current → yes.
 * A watcher that cannot be set up (no inotify watches left) or fails later means no: the client then
 * compares by itself, as it does without a server. Never throws.
 *
 * A yes also expires: an edit inotify does not report (through a hard link from outside the tree, on
 * a network, FUSE or 9p mount, from a VM or container host) would otherwise be answered by the old
 * code for as long as the server runs. After `VOUCH_MAX_AGE_MS` the next request compares again, so
 * such an edit is seen within that time — the price of not walking the sources on every call.
 */
import { type Dirent, existsSync, type FSWatcher, readdirSync, watch } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

interface BuildInputs {
  staleReason(root: string): string | undefined;
  /** Inputs outside src/, relative to the root (package.json, scripts/…). */
  EXTRA_INPUTS: readonly string[];
}

/** How long a comparison's yes holds without a new one (see the module comment), in ms. */
export const VOUCH_MAX_AGE_MS = 2_000;

/** Whether `root` (ending in `/` or not) is a git checkout bin/gantry.js compares with its sources. */
export function isCheckout(root: string): boolean {
  return (
    existsSync(path.join(root, 'src')) &&
    existsSync(path.join(root, '.git')) &&
    existsSync(path.join(root, 'scripts', 'build-inputs.cjs'))
  );
}

/** Every directory under `dir` (itself included); unreadable ones are left out. */
function directoriesUnder(dir: string, out: string[] = []): string[] {
  out.push(dir);
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) if (e.isDirectory()) directoriesUnder(`${dir}/${e.name}`, out);
  return out;
}

/** The checkout's answer; `current(root)` is true only when `root` is this checkout and its sources match dist/. */
export interface SourceVouch {
  current(clientRoot: string): Promise<boolean>;
  /** Closes the watchers (the server is stopping). */
  close(): void;
}

/**
 * A vouch for the checkout at `root` (the folder holding bin/, dist/, src/); undefined when it is no
 * checkout. `maxAgeMs`: how long a yes holds without a new comparison (default `VOUCH_MAX_AGE_MS`).
 */
export function createSourceVouch(
  root: string,
  { maxAgeMs = VOUCH_MAX_AGE_MS }: { maxAgeMs?: number } = {},
): SourceVouch | undefined {
  const base = path.resolve(root);
  if (!isCheckout(base)) return undefined;
  let inputs: BuildInputs;
  try {
    inputs = createRequire(path.join(base, 'scripts', 'build-inputs.cjs'))(
      path.join(base, 'scripts', 'build-inputs.cjs'),
    ) as BuildInputs;
    if (typeof inputs.staleReason !== 'function' || !Array.isArray(inputs.EXTRA_INPUTS)) return undefined;
  } catch {
    return undefined;
  }
  let watchers: FSWatcher[] = [];
  /** True while no event came since a comparison found the sources current. */
  let vouched = false;
  /** When the last comparison that found the sources current ended (ms, `performance.now()`). */
  let vouchedAtMs = 0;
  const drop = (): void => {
    vouched = false;
    for (const w of watchers) w.close();
    watchers = [];
  };
  const arm = (): boolean => {
    // Directories to watch, each with the names that matter in it (undefined: every name).
    const targets = new Map<string, Set<string> | undefined>();
    for (const d of directoriesUnder(path.join(base, 'src'))) targets.set(d, undefined);
    for (const rel of inputs.EXTRA_INPUTS) {
      const dir = path.dirname(path.join(base, rel));
      if (targets.has(dir) && targets.get(dir) === undefined) continue;
      const names = targets.get(dir) ?? new Set<string>();
      names.add(path.basename(rel));
      targets.set(dir, names);
    }
    try {
      for (const [dir, names] of targets) {
        const w = watch(dir, { persistent: false }, (_event, name) => {
          if (!names || name === null || names.has(String(name))) drop();
        });
        w.on('error', drop);
        watchers.push(w);
      }
      return true;
    } catch {
      drop();
      return false;
    }
  };
  return {
    async current(clientRoot: string): Promise<boolean> {
      if (path.resolve(clientRoot) !== base) return false;
      // Events the kernel queued before this request are delivered before the check below.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (vouched && performance.now() - vouchedAtMs < maxAgeMs) return true;
      drop();
      if (!arm()) return false;
      try {
        vouched = inputs.staleReason(`${base}/`) === undefined;
        vouchedAtMs = performance.now();
      } catch {
        vouched = false;
      }
      return vouched;
    },
    close: drop,
  };
}
