/**
 * Glob's listing with modification times in one process: GNU find walks the tree and stats each
 * file relative to the directory it is reading (docs/dependencies.md "GNU find (Glob's ordered
 * listing)").
 *
 * Why: Glob orders every match by mtime. ripgrep lists files without their metadata, so each match
 * would be stat'ed again from Node through the verified root's descriptor path
 * (`/proc/<pid>/fd/N/<rel>`): one system call per match whose path lookup re-enters /proc, several
 * times the cost of ripgrep's own walk on a tree of 10,000 matches. GNU find already holds a
 * descriptor of each directory it walks (fts), so `-printf '%T@'` costs one `fstatat` on a single
 * name per file, and it runs with the verified root as its working directory exactly as ripgrep
 * does: nothing is resolved by name from outside the checked directory.
 *
 * Sequence: find GNU find once per process (`find --version` says "GNU findutils"; BSD and busybox
 * find lack `-printf`; 4.9 and later read starting points from stdin) → run `find . ( -name <vcs>
 * -o … ) -prune -o -type f [-name <last segment>] -printf '%T@/%P\0'` with cwd = the verified
 * root, or, with several cores and a find ≥ 4.9, one such find per core, each given its share of
 * the root's entries on stdin (`-files0-from -`, printing `%p`) → split each record at its first
 * `/` into the mtime and the relative path → keep the paths the pattern matches (globMatcher:
 * ripgrep's `--glob` semantics) → `onFile(rel, mtimeMs)`.
 *
 * Same files as `rg --files --no-ignore --hidden` with the same globs: regular files only (no
 * symbolic links, FIFOs, sockets), hidden files included, symbolic links never followed, VCS
 * directories (and files of those names) pruned. Only case-sensitive listings of patterns whose
 * glob syntax ripgrep and the matcher read alike take this path ({@link findListablePattern}); any
 * other pattern, a case-insensitive listing and one that honours ignore files stay on ripgrep.
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { findOnPath } from './resolve-ripgrep.js';
import { globMatcher } from './js-search.js';
import { runRipgrep } from './run-ripgrep.js';
import type { ListFilesRequest, SearchOutcome } from './search-types.js';

/** GNU find found on `PATH`. */
export interface GnuFind {
  /** Absolute path of the binary. */
  path: string;
  /** True for findutils ≥ 4.9, which reads its starting points from a file or stdin (`-files0-from`). */
  files0From: boolean;
}

let gnuFind: Promise<GnuFind | undefined> | undefined;

/**
 * Largest size (bytes, as `stat` reports it for the directory) of a root directory find lists
 * (about 6,000 entries on ext4). GNU find's walk costs more per entry than ripgrep's, which shows on
 * one huge flat directory (43,000 entries: about twice ripgrep's CPU time) more than the stats it
 * saves; such a root is listed by ripgrep. A huge directory deeper in the tree is not detected.
 */
export const FIND_MAX_ROOT_DIR_BYTES = 256 * 1024;

/** Whether find should list the directory at `ioRoot` (see {@link FIND_MAX_ROOT_DIR_BYTES}); false when it cannot be stat'ed. */
export function rootSuitsFind(ioRoot: string): boolean {
  const size = statSync(ioRoot, { throwIfNoEntry: false })?.size;
  return size !== undefined && size <= FIND_MAX_ROOT_DIR_BYTES;
}

/** How long `find --version` may take before GNU find is taken as absent. */
const VERSION_CHECK_TIMEOUT_MS = 5_000;

/** True when a `find --version` text names findutils 4.9 or later (the first with `-files0-from`). */
export function versionHasFiles0From(versionText: string): boolean {
  const m = /GNU findutils\)?\s+(\d+)\.(\d+)/.exec(versionText);
  if (!m) return false;
  const major = Number(m[1]);
  return major > 4 || (major === 4 && Number(m[2]) >= 9);
}

/** `findPath --version`'s text when it names GNU findutils, else undefined. */
function gnuFindVersion(findPath: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(findPath, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), VERSION_CHECK_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      if (out.length < 4096) out += chunk.toString('utf8');
    });
    child.on('error', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 && out.includes('GNU findutils') ? out : undefined);
    });
  });
}

/** GNU find on `PATH`, looked up once per process; undefined when there is none. */
export function gnuFindInfo(
  env: Record<string, string | undefined> = process.env,
): Promise<GnuFind | undefined> {
  gnuFind ??= (async () => {
    if (process.platform === 'win32') return undefined;
    const found = findOnPath('find', env.PATH);
    const version = found ? await gnuFindVersion(found) : undefined;
    return found && version ? { path: found, files0From: versionHasFiles0From(version) } : undefined;
  })();
  return gnuFind;
}

/** The absolute path of GNU find on `PATH` (see {@link gnuFindInfo}); undefined when there is none. */
export async function gnuFindPath(
  env: Record<string, string | undefined> = process.env,
): Promise<string | undefined> {
  return (await gnuFindInfo(env))?.path;
}

/**
 * True when `pattern` uses only glob syntax that ripgrep's globs and the JavaScript matcher read the
 * same way: literal characters, `*`, `**`, `/`, ASCII bracket classes (`[abc]`, `[!a-z]`) and one
 * level of `{a,b}` alternation. `?` (a byte to ripgrep, a character to the matcher), extglob and
 * regex-like syntax (`(`, `)`, `|`, `+`, `@`, `!`), backslash escapes, POSIX classes, nested or
 * unbalanced braces and brackets are left to ripgrep, which also reports the malformed ones as errors.
 */
export function findListablePattern(pattern: string): boolean {
  let braceStart = -1;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    // `?` is one byte to ripgrep's globs and one character to the matcher (`n?me` and `näme`).
    if ('()|+@!?\\'.includes(c)) return false;
    if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '!' || pattern[j] === '^') j++;
      const close = pattern.indexOf(']', j);
      if (close === -1) return false;
      // Only classes both readers take alike: ASCII letters and digits, and ranges of them
      // (`[a-c-e]`, `[]x]`, a non-ASCII character — several bytes to ripgrep — stay on ripgrep).
      if (!/^(?:[A-Za-z0-9](?:-[A-Za-z0-9])?)+$/.test(pattern.slice(j, close))) return false;
      i = close;
    } else if (c === ']') {
      return false;
    } else if (c === '{') {
      if (braceStart !== -1) return false;
      braceStart = i;
    } else if (c === '}') {
      if (braceStart === -1) return false;
      // Two or more non-empty alternatives: `{ts}` and `{,.ts}` are read differently by the two.
      const alternatives = pattern.slice(braceStart + 1, i).split(',');
      if (alternatives.length < 2 || alternatives.some((a) => a === '')) return false;
      braceStart = -1;
    } else if (c === '.' && braceStart !== -1 && pattern[i + 1] === '.') {
      return false;
    }
  }
  return braceStart === -1;
}

/**
 * A `-name` test every match satisfies, from the pattern's last segment when it holds only literal
 * characters and `*` (fnmatch reads those as ripgrep does within a name, byte for byte in any
 * locale): find then stats only the files whose name can match. Undefined when no such test is
 * certain (`**`, `?` — one byte, not one character, in the C locale —, braces, brackets) or useful (`*`).
 */
export function nameFilterOf(pattern: string): string | undefined {
  const last = pattern.slice(pattern.lastIndexOf('/') + 1);
  if (last === '' || last === '*' || last.includes('**') || /[?[\]{}\\]/.test(last)) return undefined;
  return last;
}

/**
 * The arguments of find for a listing (exported for the benchmark, which runs the same command).
 * `'tree'` walks `.` and prints paths without it (`%P`); `'stdin'` reads NUL-separated starting
 * points (root entries, or files listed by ripgrep) from stdin and prints them as given (`%p`).
 */
export function findListArgs(
  request: Pick<ListFilesRequest, 'pattern' | 'excludeDirs'>,
  start: 'tree' | 'stdin' = 'tree',
): string[] {
  const prune: string[] = [];
  for (const d of request.excludeDirs) prune.push(...(prune.length ? ['-o'] : []), '-name', d);
  const name = nameFilterOf(request.pattern);
  return [
    ...(start === 'tree' ? ['.'] : ['-files0-from', '-']),
    ...(prune.length ? ['(', ...prune, ')', '-prune', '-o'] : []),
    '-type',
    'f',
    ...(name ? ['-name', name] : []),
    '-printf',
    start === 'tree' ? '%T@/%P\\0' : '%T@/%p\\0',
  ];
}

/** Most find processes one listing runs side by side. */
const MAX_WALKERS = 4;

/**
 * Walkers for one listing: one per core, at most {@link MAX_WALKERS}; one while the machine is
 * already busy (a one-minute load average at or above the core count), where walkers side by side
 * only add process starts (each `spawn` forks this process, milliseconds for a large one). The
 * listing is the same whatever the count; only its speed differs.
 */
export function walkerCount(cores = availableParallelism(), load = loadavg()[0] ?? 0): number {
  if (load >= cores) return 1;
  return Math.max(1, Math.min(MAX_WALKERS, cores));
}

/**
 * The root's entries dealt round-robin into `count` groups of NUL-terminated names (directories and
 * other entries dealt separately, so each group gets a share of the subtrees), for walkers that
 * each take one group as their starting points. Names stay the bytes the directory holds (read as
 * Buffers), so a name that is not UTF-8 reaches find unchanged. Only single names relative to the
 * verified root are handed out: find looks each up inside the directory it runs in, without following
 * a symbolic link, exactly as it does for the entries of `.`. Undefined when the root has fewer
 * entries than `count` or cannot be read (one walker on `.` then).
 */
export function splitRootEntries(ioRoot: string, count: number): Buffer[] | undefined {
  if (count < 2) return undefined;
  let entries: { name: Buffer; isDirectory(): boolean }[];
  try {
    entries = readdirSync(ioRoot, { withFileTypes: true, encoding: 'buffer' }) as unknown as typeof entries;
  } catch {
    return undefined;
  }
  if (entries.length < count) return undefined;
  const groups: Buffer[][] = Array.from({ length: count }, () => []);
  const zero = Buffer.from([0]);
  let dirs = 0;
  let others = 0;
  for (const entry of entries) {
    const group = groups[entry.isDirectory() ? dirs++ % count : count - 1 - (others++ % count)] as Buffer[];
    group.push(entry.name, zero);
  }
  return groups.map((g) => Buffer.concat(g));
}

/**
 * `%T@` (seconds since the epoch with up to nine fractional digits) as Node's `mtimeMs`
 * (`seconds * 1e3 + nanoseconds / 1e6`, so a time compares equal to the one statSync gives).
 */
export function mtimeMsOf(field: string): number {
  const dot = field.indexOf('.');
  if (dot === -1 || field.startsWith('-')) return Number(field) * 1000;
  const seconds = Number(field.slice(0, dot));
  const nanos = Number(field.slice(dot + 1, dot + 10).padEnd(9, '0'));
  return seconds * 1e3 + nanos / 1e6;
}

/**
 * {@link mtimeMsOf} for a stream of fields, remembering the last one: the files of a checkout or an
 * unpacked archive mostly share a few mtimes, so most records skip the parse.
 */
export class MtimeFields {
  private field = '';
  private ms = 0;

  /** The mtime in ms of one `%T@` field. */
  of(field: string): number {
    if (field !== this.field) {
      this.field = field;
      this.ms = mtimeMsOf(field);
    }
    return this.ms;
  }
}

/**
 * Lists the files under the request's root that match its pattern, each with its mtime: one find
 * walking `.`, or — when find reads starting points from stdin ({@link GnuFind.files0From}) and
 * the machine has several cores — {@link walkerCount} finds side by side, each walking its share of
 * the root's entries ({@link splitRootEntries}). Callers check {@link findListablePattern} and
 * {@link gnuFindInfo} first. `walkers` is the number of finds to run (default {@link walkerCount}).
 * @throws Error with find's diagnostic when find fails outright (exit > 1 and no record from any
 *   walker, so nothing was handed to `onFile`); exit 1 (an unreadable directory on the way) keeps
 *   what was listed. AbortError when `request.signal` aborts.
 */
export async function listFilesWithFind(
  find: GnuFind,
  request: ListFilesRequest,
  onFile: (relPath: string, mtimeMs: number) => boolean | undefined,
  walkers: number = walkerCount(),
): Promise<SearchOutcome> {
  // `**/<name>` is decided by find's own `-name <name>` test: no second match needed.
  const name = nameFilterOf(request.pattern);
  const matches =
    name !== undefined && request.pattern === `**/${name}` ? undefined : globMatcher(request.pattern, false);
  const cwd = request.ioRoot ?? request.root;
  const groups = find.files0From ? splitRootEntries(cwd, walkers) : undefined;
  let sawOutput = false;
  let stop = false;
  const mtime = new MtimeFields();
  const walk = (group: Buffer | undefined) =>
    runRipgrep({
      rgPath: find.path,
      args: findListArgs(request, group ? 'stdin' : 'tree'),
      cwd,
      delimiter: '\0',
      // Names are matched byte for byte (`-name`), whatever the user's locale.
      extraEnv: { LC_ALL: 'C' },
      signal: request.signal,
      ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
      ...(group ? { onStdin: (stdin) => stdin.end(group) } : {}),
      onRecord: (record) => {
        if (stop) return false;
        const slash = record.indexOf('/');
        if (slash === -1) return true;
        sawOutput = true;
        const rel = record.slice(slash + 1);
        if (matches && !matches(rel)) return true;
        if (onFile(rel, mtime.of(record.slice(0, slash))) === false) stop = true;
        return !stop;
      },
    });
  const runs = await Promise.all(groups ? groups.filter((g) => g.length > 0).map(walk) : [walk(undefined)]);
  const failed = runs.find((run) => run.exitCode !== null && run.exitCode > 1);
  if (failed && !sawOutput) {
    throw new Error(`find failed (exit ${failed.exitCode}): ${failed.stderr || 'no diagnostic'}`);
  }
  const timedOut = runs.some((run) => run.timedOut);
  return {
    complete: !stop && !timedOut && !runs.some((run) => run.stopped),
    timedOut,
    engine: `find ${find.path}${runs.length > 1 ? ` (${runs.length} walkers)` : ''}`,
  };
}
