/**
 * Splits a Glob pattern into the directory it really searches and the part that still has to match.
 *
 * Models send patterns relative to `path` (`src/**\/*.ts`), absolute (`/home/u/proj/lib/**\/*.ex`),
 * with `~`, or climbing out (`../other/*.md`). The leading segments without glob syntax (except the
 * last segment) name a directory: searching there is faster, and — what matters for permissions — it
 * is the directory actually read, so it is the search root Glob reports to the permission engine
 * (`describeCall`), not the `path` input.
 */
import { homedir } from 'node:os';
import path from 'node:path';
import { VCS_DIRECTORIES } from '../ripgrep/search-types.js';

/** Characters that make a path segment a glob (`*`, `?`, `[…]`, `{a,b}`, extglob `(…)`, `!`, escapes). */
const GLOB_SYNTAX = /[*?[\]{}()!\\]/;

/** Where a Glob call searches. */
export interface GlobPlan {
  /** Absolute directory the remaining pattern is matched under (not yet symlink-resolved). */
  base: string;
  /** The rest of the pattern, relative to `base`, `/`-separated; never empty. */
  relPattern: string;
}

/** Plans a Glob search of `pattern` under the absolute directory `root`. Pure (no filesystem access). */
export function planGlob(pattern: string, root: string, home: string = homedir()): GlobPlan {
  let p = pattern.trim();
  if (p === '~' || p.startsWith('~/')) p = path.join(home, p.slice(1));
  const absolute = p.startsWith('/');
  const segments = p.split('/').filter((s, i) => s !== '' || i === 0);
  if (absolute) segments.shift();
  const staticDirs: string[] = [];
  while (segments.length > 1 && !GLOB_SYNTAX.test(segments[0] as string)) {
    staticDirs.push(segments.shift() as string);
  }
  const start = absolute ? '/' : root;
  const base = path.resolve(start, ...staticDirs);
  const relPattern = segments.filter((s) => s !== '.').join('/') || '*';
  return { base, relPattern };
}

/** VCS directories to exclude: all of them, except those the pattern names as a segment (`**\/.git/hooks/*`). */
export function vcsDirectoriesToExclude(relPattern: string, includeAll: boolean): string[] {
  if (includeAll) return [];
  const segments = new Set(relPattern.split('/'));
  return VCS_DIRECTORIES.filter((d) => !segments.has(d));
}
