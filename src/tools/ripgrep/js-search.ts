/**
 * The JavaScript fallback for machines without ripgrep (docs/dependencies.md "ripgrep (Glob and Grep)"): the directory walk of
 * walk-files.ts, ripgrep's `--glob`/`--type` semantics from override-globs.ts, and a line-by-line
 * RegExp search (rust-regex.ts) that prints what ripgrep prints for the flags Grep uses.
 *
 * Behaviour kept equal to ripgrep (tested side by side in engine-parity.test.ts): files in path
 * order; binary files (a NUL byte) skipped when found by the walk; an explicitly named binary file
 * that matches yields ripgrep's "binary file matches" notice; UTF-8 and UTF-16 byte-order marks
 * decoded; CRLF line ends stripped before matching (ripgrep `--crlf`); lines longer than
 * `maxColumns` bytes cut to a preview of `maxColumns` characters plus ripgrep's marker; count mode
 * counts matching lines (in multiline mode, matched regions, merged when they share a line).
 * Files larger than 256 MiB are skipped (the fallback reads a file whole). Patterns run on a
 * linear-time engine (linear-regex.ts), so a pathological pattern cannot block the event loop, and
 * the deadline is checked between files and every few thousand lines.
 */
import { getOwn } from '../../core/get-own.js';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { AbortError, ToolInputError } from '../../core/index.js';
import { compileOverrideGlobs, FILE_TYPE_GLOBS } from './override-globs.js';
import type { LinearRegex } from './linear-regex.js';
import { compileRustRegex } from './rust-regex.js';
import {
  LONG_LINE_MARKER,
  type ListFilesRequest,
  type SearchOutcome,
  type SearchRecord,
  type SearchRequest,
} from './search-types.js';
import { walkFiles } from './walk-files.js';

const MAX_FILE_BYTES = 256 * 1024 * 1024;
const ENGINE = 'javascript';

/** A deadline and abort check shared by both entry points. */
function makeClock(signal: AbortSignal, timeoutMs: number | undefined) {
  const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  return {
    expired(): boolean {
      if (signal.aborted) throw new AbortError('The search was aborted.');
      return Date.now() > deadline;
    },
  };
}

/** A matcher for a Glob pattern anchored at the root (ripgrep `--glob=/<pattern>` semantics). */
export function globMatcher(pattern: string, caseInsensitive: boolean): (relPath: string) => boolean {
  const overrides = compileOverrideGlobs([`/${pattern}`], caseInsensitive);
  return (rel) => overrides.fileVerdict(rel) === 'include';
}

/**
 * Lists files under `request.root` whose relative path matches `request.pattern`: what ripgrep's
 * `--files` lists (see listFiles in search-engine.ts), filtered by the pattern.
 */
export async function listFilesWithJavaScript(request: ListFilesRequest): Promise<SearchOutcome> {
  const clock = makeClock(request.signal, request.timeoutMs);
  const matches = globMatcher(request.pattern, request.caseInsensitive);
  for await (const rel of walkFiles({
    root: request.root,
    ...(request.ioRoot !== undefined ? { ioRoot: request.ioRoot } : {}),
    respectIgnore: request.respectIgnore,
    excludeDirs: request.excludeDirs,
    signal: request.signal,
  })) {
    if (clock.expired()) return { complete: false, timedOut: true, engine: ENGINE };
    if (!matches(rel)) continue;
    if (request.onFile(rel) === false) return { complete: false, timedOut: false, engine: ENGINE };
  }
  return { complete: true, timedOut: false, engine: ENGINE };
}

/** Decodes file bytes as ripgrep does: UTF-16 LE/BE and UTF-8 byte-order marks honoured, else UTF-8. */
export function decodeText(bytes: Buffer): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe)
    return bytes.subarray(2).toString('utf16le');
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2));
    swapped.swap16();
    return swapped.toString('utf16le');
  }
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return bytes.subarray(3).toString('utf8');
  }
  return bytes.toString('utf8');
}

/** ripgrep's `--max-columns N --max-columns-preview`: over N bytes → the first N characters plus a marker. */
export function previewLongLine(text: string, maxColumns: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxColumns) return text;
  return Array.from(text).slice(0, maxColumns).join('') + LONG_LINE_MARKER;
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** Index of the line containing character offset `at`, given each line's start offset. */
function lineAt(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Matched line ranges of a multiline search, merged when they share a line: [first, last] inclusive, 0-based. */
function multilineRegions(text: string, regex: LinearRegex): Array<[number, number]> {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const regions: Array<[number, number]> = [];
  for (const m of regex.spans(text)) {
    const s = m.start;
    const e = m.end;
    const first = lineAt(starts, s);
    const last = lineAt(starts, Math.max(s, e - 1));
    const prev = regions[regions.length - 1];
    if (prev && first <= prev[1]) prev[1] = Math.max(prev[1], last);
    else regions.push([first, last]);
  }
  return regions;
}

interface FileSearch {
  rel: string;
  lines: string[];
  /** 0-based indices of matching lines, ascending. */
  matches: number[];
  /** Regions for count mode. */
  regionCount: number;
}

/** Lines between deadline checks inside one file. */
const LINES_PER_CHECK = 4096;

function searchText(
  rel: string,
  text: string,
  regex: LinearRegex,
  multiline: boolean,
  expired: () => boolean,
): FileSearch | 'timeout' {
  if (multiline) {
    const normalised = text.replace(/\r\n/g, '\n');
    const regions = multilineRegions(normalised, regex);
    const matches: number[] = [];
    for (const [a, b] of regions) for (let i = a; i <= b; i++) matches.push(i);
    return { rel, lines: splitLines(normalised), matches, regionCount: regions.length };
  }
  const lines = splitLines(text);
  const matches: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (i % LINES_PER_CHECK === LINES_PER_CHECK - 1 && expired()) return 'timeout';
    if (regex.test(lines[i] as string)) matches.push(i);
  }
  return { rel, lines, matches, regionCount: matches.length };
}

/** Emits a file's content-mode records; returns false when the consumer stopped. */
function emitContent(found: FileSearch, request: SearchRequest, regex: LinearRegex): boolean {
  const { lines, matches, rel } = found;
  const emit = (record: SearchRecord) => request.onRecord(record) !== false;
  if (request.onlyMatching) {
    for (const i of matches) {
      const line = lines[i] as string;
      for (const m of regex.spans(line)) {
        if (m.text === '') continue;
        const text = previewLongLine(m.text, request.maxColumns);
        if (!emit({ kind: 'line', path: rel, lineNumber: i + 1, text, isMatch: true })) return false;
      }
    }
    return true;
  }
  const isMatch = new Set(matches);
  let printedUpTo = -1;
  let afterUntil = -1;
  const print = (i: number, match: boolean) => {
    printedUpTo = i;
    const text = previewLongLine(lines[i] as string, request.maxColumns);
    return emit({ kind: 'line', path: rel, lineNumber: i + 1, text, isMatch: match });
  };
  for (const i of matches) {
    for (let j = Math.max(printedUpTo + 1, i - request.before); j < i; j++) {
      if (!print(j, isMatch.has(j))) return false;
    }
    if (i > printedUpTo && !print(i, true)) return false;
    afterUntil = Math.max(afterUntil, i + request.after);
    for (let j = i + 1; j <= afterUntil && j < lines.length && !isMatch.has(j); j++) {
      if (j > printedUpTo && !print(j, false)) return false;
    }
  }
  return true;
}

function typeFilterFor(type: string | undefined): ((rel: string) => boolean) | undefined {
  if (type === undefined) return undefined;
  const globs = getOwn(FILE_TYPE_GLOBS, type);
  if (!globs) {
    throw new ToolInputError(
      `Unknown file type "${type}" for the JavaScript search fallback (ripgrep is not available). ` +
        `Known types: ${Object.keys(FILE_TYPE_GLOBS).join(', ')}. Use the glob option instead (e.g. glob: "*.ext").`,
      'type',
    );
  }
  const matcher = compileOverrideGlobs(globs);
  return (rel) => matcher.fileVerdict(rel) === 'include';
}

/** Searches file contents like ripgrep with the flags Grep passes (see search-types.ts). */
export async function searchWithJavaScript(request: SearchRequest): Promise<SearchOutcome> {
  const clock = makeClock(request.signal, request.timeoutMs);
  const regex = compileRustRegex(request.pattern, {
    caseInsensitive: request.caseInsensitive,
    multiline: request.multiline,
  });
  const typeFilter = typeFilterFor(request.type);
  const baseDir = request.rootIsFile ? path.dirname(request.root) : (request.ioRoot ?? request.root);
  const files: AsyncIterable<string> | string[] = request.rootIsFile
    ? [path.basename(request.root)]
    : walkFiles({
        root: request.root,
        ...(request.ioRoot !== undefined ? { ioRoot: request.ioRoot } : {}),
        respectIgnore: request.respectIgnore,
        excludeDirs: request.excludeDirs,
        signal: request.signal,
        ...(request.globs.length ? { overrides: compileOverrideGlobs(request.globs) } : {}),
        ...(typeFilter ? { typeFilter } : {}),
      });
  const stopped = { complete: false, timedOut: false, engine: ENGINE };
  for await (const rel of files) {
    if (clock.expired()) return { complete: false, timedOut: true, engine: ENGINE };
    // A file root is read through its verified descriptor when the caller gave one.
    const abs = request.rootIsFile && request.ioRoot !== undefined ? request.ioRoot : path.join(baseDir, rel);
    let bytes: Buffer;
    try {
      if ((await stat(abs)).size > MAX_FILE_BYTES) continue;
      bytes = await readFile(abs);
    } catch {
      continue;
    }
    let text = decodeText(bytes);
    const nulAt = text.indexOf('\0');
    if (nulAt !== -1 && !request.rootIsFile) continue;
    if (nulAt !== -1) text = text.replace(/\0/g, '\n');
    const found = searchText(rel, text, regex, request.multiline, () => clock.expired());
    if (found === 'timeout') return { complete: false, timedOut: true, engine: ENGINE };
    if (found.matches.length === 0) continue;
    if (request.mode === 'files') {
      if (request.onRecord({ kind: 'file', path: rel }) === false) return stopped;
    } else if (request.mode === 'count') {
      if (request.onRecord({ kind: 'count', path: rel, count: found.regionCount }) === false) return stopped;
    } else if (nulAt !== -1) {
      const message = `binary file matches (found "\\0" byte around offset ${bytes.indexOf(0)})`;
      if (request.onRecord({ kind: 'binary', path: rel, message }) === false) return stopped;
    } else if (!emitContent(found, request, regex)) {
      return stopped;
    }
  }
  return { complete: true, timedOut: false, engine: ENGINE };
}
