/**
 * A symlink resolver memoised for one analysis (analyze.ts wraps the caller's resolver in one).
 *
 * The effects resolve every path they name, and a line that `cd`s deeper and deeper (`cd a && cd b
 * && …`) names ever longer paths below directories that do not exist. The real-filesystem resolver
 * (core/paths.ts) walks up from each such path, one failed `realpath` per missing component, so
 * such a line cost a number of system calls quadratic in its length (20 s for 16 KiB). Here a path
 * is resolved once; a path that does not exist is its parent's resolution plus its last component,
 * so each new path costs one or two system calls (an `lstat` that does not throw for a missing
 * path, then `realpath` for an existing one). Other resolvers (tests, the security corpus) are only
 * memoised by exact path. The cache lives as long as the analysis, so a decision sees one
 * consistent view of the filesystem.
 *
 * Work cap: at most `MAX_RESOLVED_PATHS` paths are resolved through the filesystem per analysis
 * (a 64 KiB line of redirections names 9,000). Past it the active budget records the stop (the
 * analysis then asks in every mode) and paths are returned as written, unresolved.
 *
 * `isDirectory` (whether a `cp`/`mv` destination is a directory, core/paths.ts) is forwarded when
 * the caller's resolver has it, memoised the same way and counted against the same cap (past it
 * the answer is unknown: the effects then assume both readings).
 */
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fsPathResolver, type PathResolver } from '../core/paths.js';
import { activeBudget, MAX_RESOLVED_PATHS } from './budget.js';

/** Paths the cache keeps at most (a 64 KiB command names far fewer). */
const MAX_ENTRIES = 50_000;

function exists(p: string): boolean {
  try {
    return lstatSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false; // ENOTDIR, EACCES …: treated as missing, like a failed realpath
  }
}

function realOrUndefined(p: string): string | undefined {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined; // a dangling link, a loop, no permission: resolved through the parent
  }
}

export function cachingResolver(base: PathResolver): PathResolver {
  const cache = new Map<string, string>();
  const remember = (p: string, real: string): string => {
    if (cache.size < MAX_ENTRIES) cache.set(p, real);
    return real;
  };
  const withDirectories = (resolver: PathResolver): PathResolver => {
    const ask = base.isDirectory?.bind(base);
    if (!ask) return resolver;
    const dirs = new Map<string, boolean | undefined>();
    let asked = 0;
    return {
      ...resolver,
      isDirectory(absPath) {
        if (dirs.has(absPath)) return dirs.get(absPath);
        if (++asked > MAX_RESOLVED_PATHS) {
          activeBudget()?.stopWith('effects', `more than ${MAX_RESOLVED_PATHS} paths to resolve`);
          return undefined;
        }
        const answer = ask(absPath);
        if (dirs.size < MAX_ENTRIES) dirs.set(absPath, answer);
        return answer;
      },
    };
  };
  if (base !== fsPathResolver) {
    let calls = 0;
    return withDirectories({
      realpath(absPath) {
        const hit = cache.get(absPath);
        if (hit !== undefined) return hit;
        if (++calls > MAX_RESOLVED_PATHS) {
          activeBudget()?.stopWith('effects', `more than ${MAX_RESOLVED_PATHS} paths to resolve`);
          return absPath;
        }
        return remember(absPath, base.realpath(absPath));
      },
    });
  }
  /** The semantics of `fsPathResolver.realpath`: the deepest existing ancestor resolved, the rest appended. */
  let lookups = 0;
  const resolve = (absPath: string): string => {
    const pending: string[] = [];
    let head = absPath;
    let real: string | undefined;
    for (;;) {
      const hit = cache.get(head);
      if (hit !== undefined) {
        real = hit;
        break;
      }
      if (++lookups > MAX_RESOLVED_PATHS) {
        activeBudget()?.stopWith('effects', `more than ${MAX_RESOLVED_PATHS} paths to resolve`);
        return absPath;
      }
      // lstat first: a missing path is the common case here, and a failed realpath throws (slow)
      const found = exists(head) ? realOrUndefined(head) : undefined;
      if (found !== undefined) {
        real = remember(head, found);
        break;
      }
      const parent = path.dirname(head);
      if (parent === head) {
        real = head;
        break;
      }
      pending.push(head);
      head = parent;
    }
    // Each missing path resolves to its parent's resolution plus its own last component.
    for (let k = pending.length - 1; k >= 0; k--) {
      const p = pending[k] as string;
      real = remember(p, path.join(real, path.basename(p)));
    }
    return real;
  };
  return withDirectories({ realpath: resolve });
}
