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
 * find lack `-printf`) → run `find . ( -name <vcs> -o … ) -prune -o -type f [-name <last segment>]
 * -printf '%T@/%P\0'` with cwd = the verified root → split each record at its first `/` into the
 * mtime and the relative path → keep the paths the pattern matches (globMatcher: ripgrep's `--glob`
 * semantics) → `onFile(rel, mtimeMs)`.
 *
 * Same files as `rg --files --no-ignore --hidden` with the same globs: regular files only (no
 * symbolic links, FIFOs, sockets), hidden files included, symbolic links never followed, VCS
 * directories (and files of those names) pruned. Only case-sensitive listings of patterns whose
 * glob syntax ripgrep and the matcher read alike take this path ({@link findListablePattern}); any
 * other pattern, a case-insensitive listing and one that honours ignore files stay on ripgrep.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { findOnPath } from './resolve-ripgrep.js';
import { globMatcher } from './js-search.js';
import { runRipgrep } from './run-ripgrep.js';
import type { ListFilesRequest, SearchOutcome } from './search-types.js';

let gnuFind: Promise<string | undefined> | undefined;

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

/** Whether `findPath --version` names GNU findutils. */
function isGnuFind(findPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(findPath, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), VERSION_CHECK_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      if (out.length < 4096) out += chunk.toString('utf8');
    });
    child.on('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 && out.includes('GNU findutils'));
    });
  });
}

/** The absolute path of GNU find on `PATH`, looked up once per process; undefined when there is none. */
export function gnuFindPath(
  env: Record<string, string | undefined> = process.env,
): Promise<string | undefined> {
  gnuFind ??= (async () => {
    if (process.platform === 'win32') return undefined;
    const found = findOnPath('find', env.PATH);
    return found && (await isGnuFind(found)) ? found : undefined;
  })();
  return gnuFind;
}

/**
 * True when `pattern` uses only glob syntax that ripgrep's globs and the JavaScript matcher read the
 * same way: literal characters, `*`, `**`, `/`, ASCII bracket classes (`[abc]`, `[!a-z]`) and one
 * level of `{a,b}` alternation. `?` (a byte to ripgrep, a character to the matcher), extglob and
 * regex-like syntax (`(`, `)`, `|`, `+`, `@`, `!`), backslash escapes, POSIX classes, nested or
 * unbalanced braces and brackets are left to ripgrep, which also reports the malformed ones as errors.
 */
export function findListablePattern(pattern: string): boolean {
  let inBraces = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    // `?` is one byte to ripgrep's globs and one character to the matcher (`n?me` and `näme`).
    if ('()|+@!?\\'.includes(c)) return false;
    if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '!' || pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      const close = pattern.indexOf(']', j);
      if (close === -1) return false;
      const body = pattern.slice(i + 1, close);
      // A non-ASCII character in a class is several bytes to ripgrep, one character to the matcher.
      if (/[[/\\]|[^\x20-\x7e]/.test(body)) return false;
      i = close;
    } else if (c === ']') {
      return false;
    } else if (c === '{') {
      if (inBraces) return false;
      inBraces = true;
    } else if (c === '}') {
      if (!inBraces) return false;
      inBraces = false;
    } else if (c === '.' && inBraces && pattern[i + 1] === '.') {
      return false;
    }
  }
  return !inBraces;
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

/** The arguments of find for a listing (exported for the benchmark, which runs the same command). */
export function findListArgs(request: Pick<ListFilesRequest, 'pattern' | 'excludeDirs'>): string[] {
  const prune: string[] = [];
  for (const d of request.excludeDirs) prune.push(...(prune.length ? ['-o'] : []), '-name', d);
  const name = nameFilterOf(request.pattern);
  return [
    '.',
    ...(prune.length ? ['(', ...prune, ')', '-prune', '-o'] : []),
    '-type',
    'f',
    ...(name ? ['-name', name] : []),
    '-printf',
    '%T@/%P\\0',
  ];
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
 * Lists the files under the request's root that match its pattern, each with its mtime.
 * Callers check {@link findListablePattern} and {@link gnuFindPath} first.
 * @throws Error with find's diagnostic when find fails outright (exit > 1 and no record, so nothing
 *   was handed to `onFile`); exit 1 (an unreadable directory on the way) keeps what was listed.
 *   AbortError when `request.signal` aborts.
 */
export async function listFilesWithFind(
  findPath: string,
  request: ListFilesRequest,
  onFile: (relPath: string, mtimeMs: number) => boolean | undefined,
): Promise<SearchOutcome> {
  // `**/<name>` is decided by find's own `-name <name>` test: no second match needed.
  const name = nameFilterOf(request.pattern);
  const matches =
    name !== undefined && request.pattern === `**/${name}` ? undefined : globMatcher(request.pattern, false);
  let sawOutput = false;
  const run = await runRipgrep({
    rgPath: findPath,
    args: findListArgs(request),
    cwd: request.ioRoot ?? request.root,
    delimiter: '\0',
    // Names are matched byte for byte (`-name`), whatever the user's locale.
    extraEnv: { LC_ALL: 'C' },
    signal: request.signal,
    ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
    onRecord: (record) => {
      const slash = record.indexOf('/');
      if (slash === -1) return true;
      sawOutput = true;
      const rel = record.slice(slash + 1);
      if (matches && !matches(rel)) return true;
      return onFile(rel, mtimeMsOf(record.slice(0, slash)));
    },
  });
  if (run.exitCode !== null && run.exitCode > 1 && !sawOutput) {
    throw new Error(`find failed (exit ${run.exitCode}): ${run.stderr || 'no diagnostic'}`);
  }
  return {
    complete: !run.stopped && !run.timedOut,
    timedOut: run.timedOut,
    engine: `find ${findPath}`,
  };
}
