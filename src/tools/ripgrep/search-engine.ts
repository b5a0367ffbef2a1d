/**
 * Runs a Glob listing or a Grep search on the resolved engine (resolve-ripgrep.ts): ripgrep when
 * there is one, else the JavaScript fallback (js-search.ts). Both produce the records of
 * search-types.ts, so callers never depend on which one ran.
 *
 * ripgrep sequence: build the argument array from the request (never a shell string; the pattern
 * goes after `-e` and the path after `--`, so a leading `-` is never read as a flag) → run with the
 * search root's directory as cwd → parse records (`--null` separates the path, so colons or dashes
 * in names are unambiguous) → exit 1 and "no files were searched" = no matches; exit 2 with a
 * diagnostic and no output = the caller's input was wrong (ToolInputError with ripgrep's words).
 *
 * Content mode must deliver lines in path order (stable paging) without paying for ripgrep's
 * single-threaded `--sort=path`: the parallel output is buffered per file and sorted; when the buffer
 * passes `CONTENT_SORT_BUFFER_CHARS`, the run is abandoned and repeated with `--sort=path`, streaming
 * (memory stays bounded either way).
 */
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { AbortError, ToolExecutionError, ToolInputError } from '../../core/index.js';
import { findListablePattern, gnuFindInfo, listFilesWithFind, rootSuitsFind } from './find-listing.js';
import { listFilesWithRipgrepAndFind } from './find-stat.js';
import { globMatcher, listFilesWithJavaScript, searchWithJavaScript } from './js-search.js';
import { compareRipgrepPaths } from './path-order.js';
import type { SearchEngine } from './resolve-ripgrep.js';
import { type RipgrepRunResult, runRipgrep } from './run-ripgrep.js';
import type { ListFilesRequest, SearchOutcome, SearchRecord, SearchRequest } from './search-types.js';

/** Characters of content-mode output buffered for sorting before switching to `--sort=path`. */
export const CONTENT_SORT_BUFFER_CHARS = 8 * 1024 * 1024;
const CONTENT_SORT_BUFFER_RECORDS = 200_000;

function stripDotSlash(p: string): string {
  return p.startsWith('./') ? p.slice(2) : p;
}

const NEXT_STEP: Record<'pattern' | 'glob' | 'type', string> = {
  pattern:
    'Fix the regular expression (ripgrep / Rust syntax): escape literal characters such as { } ( ) [ ] . * + ? | with a backslash, e.g. `interface\\{\\}`.',
  glob: 'Fix the glob, e.g. "*.ts", "src/**/*.js" or "*.{ts,tsx}".',
  type: 'Use a type name ripgrep knows (js, ts, py, rust, go, java, …) or filter with the glob option instead.',
};

/** Throws the right error for a failed ripgrep run, or returns when the run counts as a success. */
function checkExit(run: RipgrepRunResult, sawOutput: boolean, what: 'pattern' | 'glob'): void {
  if (run.exitCode === 0 || run.exitCode === 1 || run.exitCode === null || run.noFilesSearched) return;
  if (sawOutput || !run.stderr) return;
  const diagnostic = run.stderr.replace(/^rg: /gm, '');
  if (
    /regex parse error|error parsing glob|unrecognized file type|invalid|error parsing|not allowed in a regex/i.test(
      diagnostic,
    )
  ) {
    const field = /unrecognized file type/.test(diagnostic)
      ? 'type'
      : /glob/.test(diagnostic)
        ? 'glob'
        : what;
    throw new ToolInputError(`Invalid ${field}: ${diagnostic}\n${NEXT_STEP[field]}`, field);
  }
  throw new ToolExecutionError(
    `ripgrep failed (exit ${run.exitCode}): ${diagnostic}\nCheck the path and pattern, or search a smaller directory.`,
  );
}

/** The ripgrep arguments of a Glob listing (exported for the benchmark, which runs raw ripgrep with the same flags). */
export function ripgrepListArgs(request: Omit<ListFilesRequest, 'onFile' | 'signal'>): string[] {
  return [
    '--files',
    '--no-config',
    '--hidden',
    '--no-messages',
    ...(request.respectIgnore ? [] : ['--no-ignore', `--glob=/${request.pattern}`]),
    ...(request.caseInsensitive ? ['--glob-case-insensitive'] : []),
    ...request.excludeDirs.map((d) => `--glob=!${d}`),
    '--',
    '.',
  ];
}

/**
 * Glob: lists files whose path relative to `root` matches `pattern`. With `wantMtime`, without
 * ignore rules, case-sensitively, for a pattern both read alike and a root that is not one huge
 * directory, GNU find lists with each file's mtime
 * (find-listing.ts). Otherwise, without ignore rules the pattern goes to ripgrep as an anchored
 * `--glob` (fast filtering in the walker); with `wantMtime` and a find that reads names from stdin,
 * ripgrep's output goes straight to find, which stats each listed file (find-stat.ts), else the
 * caller stats them. With ignore rules
 * it cannot: an including `--glob` overrides .gitignore for files (ripgrep's override semantics), so
 * ripgrep lists the non-ignored files and the pattern is matched here.
 */
export async function listFiles(engine: SearchEngine, request: ListFilesRequest): Promise<SearchOutcome> {
  if (engine.kind === 'javascript') return listFilesWithJavaScript(request);
  const find = request.wantMtime ? await gnuFindInfo() : undefined;
  if (
    find &&
    !request.respectIgnore &&
    !request.caseInsensitive &&
    findListablePattern(request.pattern) &&
    rootSuitsFind(request.ioRoot ?? request.root)
  ) {
    try {
      return await listFilesWithFind(find, request, request.onFile);
    } catch (error) {
      // find failed before listing anything: ripgrep lists instead.
      if (error instanceof AbortError) throw error;
    }
  }
  const args = ripgrepListArgs(request);
  if (find?.files0From && !request.respectIgnore) {
    // ripgrep lists, find stats what it lists (find-stat.ts).
    const piped = await listFilesWithRipgrepAndFind(
      engine.rgPath,
      [...args.slice(0, -2), '--null', '--', '.'],
      find,
      request,
      request.onFile,
    );
    checkExit(piped.ripgrep, piped.records > 0, 'glob');
    const timedOut = piped.find.timedOut || piped.ripgrep.timedOut;
    return {
      complete: !piped.stopped && !timedOut && !piped.find.stopped,
      timedOut,
      engine: `ripgrep ${engine.rgPath} with find ${find.path}`,
    };
  }
  const filter = request.respectIgnore ? globMatcher(request.pattern, request.caseInsensitive) : undefined;
  let sawOutput = false;
  const run = await runRipgrep({
    rgPath: engine.rgPath,
    args,
    cwd: request.ioRoot ?? request.root,
    signal: request.signal,
    ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
    onRecord: (record) => {
      if (record.length === 0) return true;
      sawOutput = true;
      const rel = stripDotSlash(record);
      if (filter && !filter(rel)) return true;
      return request.onFile(rel);
    },
  });
  checkExit(run, sawOutput, 'glob');
  return {
    complete: !run.stopped && !run.timedOut,
    timedOut: run.timedOut,
    engine: `ripgrep ${engine.rgPath}`,
  };
}

/** The ripgrep arguments for a search request (exported for the benchmark, which runs raw ripgrep with the same flags). */
export function ripgrepSearchArgs(
  request: Omit<SearchRequest, 'onRecord' | 'signal'>,
  sortByPath = false,
): string[] {
  const args = ['--no-config', '--hidden', '--no-messages', '--crlf'];
  if (!request.respectIgnore) args.push('--no-ignore');
  if (request.caseInsensitive) args.push('--ignore-case');
  if (request.multiline) args.push('--multiline', '--multiline-dotall');
  for (const g of request.globs) args.push(`--glob=${g}`);
  if (request.type !== undefined) args.push(`--type=${request.type}`);
  for (const d of request.excludeDirs) args.push(`--glob=!${d}`);
  if (request.mode === 'files') args.push('--files-with-matches', '--null');
  else if (request.mode === 'count') args.push('--count', '--with-filename', '--null');
  else {
    args.push('--line-number', '--with-filename', '--null');
    args.push(`--max-columns=${request.maxColumns}`, '--max-columns-preview');
    if (request.onlyMatching) args.push('--only-matching');
    if (request.before > 0) args.push(`--before-context=${request.before}`);
    if (request.after > 0) args.push(`--after-context=${request.after}`);
    if (sortByPath) args.push('--sort=path');
  }
  if (request.rootIsFile && request.ioRoot !== undefined) {
    // The verified file arrives on stdin (records name it `<stdin>`; searchFiles renames them).
    args.push('-e', request.pattern, '--', '-');
    return args;
  }
  const target = request.rootIsFile ? `./${path.basename(request.root)}` : '.';
  args.push('-e', request.pattern, '--', target);
  return args;
}

/** The path ripgrep prints for what it read from stdin. */
const STDIN_LABEL = '<stdin>';

const BINARY_NOTICE = /^(.*): (binary file matches .*)$/;

/** Parses one content-mode record (`path\0N:text`, `path\0N-text`, `--`, or a binary notice). */
export function parseContentRecord(record: string): SearchRecord | undefined {
  const zero = record.indexOf('\0');
  if (zero === -1) {
    const m = BINARY_NOTICE.exec(record);
    return m ? { kind: 'binary', path: stripDotSlash(m[1] as string), message: m[2] as string } : undefined;
  }
  const filePath = stripDotSlash(record.slice(0, zero));
  let i = zero + 1;
  let lineNumber = 0;
  for (let c = record.charCodeAt(i); c >= 0x30 && c <= 0x39; c = record.charCodeAt(++i)) {
    lineNumber = lineNumber * 10 + (c - 0x30);
  }
  const isMatch = record.charCodeAt(i) === 0x3a; // ':' match, '-' context
  let text = record.slice(i + 1);
  if (text.endsWith('\r')) text = text.slice(0, -1);
  return { kind: 'line', path: filePath, lineNumber, text, isMatch };
}

function ripgrepRun(
  engine: Extract<SearchEngine, { kind: 'ripgrep' }>,
  request: SearchRequest,
  args: string[],
  delimiter: '\n' | '\0',
  onRecord: (record: string) => boolean | undefined,
) {
  const viaStdin = request.rootIsFile && request.ioRoot !== undefined;
  const stdinFd = viaStdin ? openSync(request.ioRoot as string, 'r') : undefined;
  const run = runRipgrep({
    rgPath: engine.rgPath,
    args,
    cwd: request.rootIsFile ? path.dirname(request.root) : (request.ioRoot ?? request.root),
    delimiter,
    signal: request.signal,
    ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
    ...(stdinFd !== undefined ? { stdinFd } : {}),
    onRecord,
  });
  if (stdinFd === undefined) return run;
  return run.finally(() => closeSync(stdinFd));
}

/** Grep: searches file contents; records as documented on SearchRequest.onRecord. */
export async function searchFiles(engine: SearchEngine, outer: SearchRequest): Promise<SearchOutcome> {
  if (engine.kind === 'javascript') return searchWithJavaScript(outer);
  // A file searched through stdin is named as ripgrep names a file root given as `./<name>`.
  const request: SearchRequest =
    outer.rootIsFile && outer.ioRoot !== undefined
      ? {
          ...outer,
          onRecord: (record) =>
            outer.onRecord(
              record.path === STDIN_LABEL ? { ...record, path: path.basename(outer.root) } : record,
            ),
        }
      : outer;
  const name = `ripgrep ${engine.rgPath}`;
  let sawOutput = false;

  if (request.mode !== 'content') {
    const files = request.mode === 'files';
    const run = await ripgrepRun(
      engine,
      request,
      ripgrepSearchArgs(request),
      files ? '\0' : '\n',
      (record) => {
        if (record.length === 0) return true;
        sawOutput = true;
        if (files) return request.onRecord({ kind: 'file', path: stripDotSlash(record) });
        const zero = record.indexOf('\0');
        const count = Number(record.slice(zero + 1));
        return request.onRecord({ kind: 'count', path: stripDotSlash(record.slice(0, zero)), count });
      },
    );
    checkExit(run, sawOutput, 'pattern');
    return { complete: !run.stopped && !run.timedOut, timedOut: run.timedOut, engine: name };
  }

  // Content: buffer the parallel output per file, sort by path, emit; fall back to --sort=path on overflow.
  const byFile = new Map<string, SearchRecord[]>();
  let bufferedChars = 0;
  let bufferedRecords = 0;
  let overflow = false;
  const first = await ripgrepRun(engine, request, ripgrepSearchArgs(request), '\n', (record) => {
    const parsed = parseContentRecord(record);
    if (!parsed) return true;
    sawOutput = true;
    let list = byFile.get(parsed.path);
    if (!list) byFile.set(parsed.path, (list = []));
    list.push(parsed);
    bufferedChars += record.length;
    bufferedRecords++;
    if (bufferedChars > CONTENT_SORT_BUFFER_CHARS || bufferedRecords > CONTENT_SORT_BUFFER_RECORDS) {
      overflow = true;
      return false;
    }
    return true;
  });
  checkExit(first, sawOutput, 'pattern');
  if (!overflow) {
    const paths = [...byFile.keys()].sort(compareRipgrepPaths);
    for (const p of paths) {
      for (const record of byFile.get(p) as SearchRecord[]) {
        if (request.onRecord(record) === false)
          return { complete: false, timedOut: first.timedOut, engine: name };
      }
    }
    return { complete: !first.timedOut, timedOut: first.timedOut, engine: name };
  }
  byFile.clear();
  const sorted = await ripgrepRun(engine, request, ripgrepSearchArgs(request, true), '\n', (record) => {
    const parsed = parseContentRecord(record);
    return parsed ? request.onRecord(parsed) : true;
  });
  checkExit(sorted, true, 'pattern');
  return { complete: !sorted.stopped && !sorted.timedOut, timedOut: sorted.timedOut, engine: name };
}
