/**
 * Runs one Grep call on the engine and collects the page the model asked for (the Claude Code tools reference).
 *
 * - files_with_matches: every matching file is stat'ed as it arrives and ranked by mtime, newest
 *   first (ties by path; `compat.grepSortOrder = 'oldest-first'` flips it); only `offset + head_limit`
 *   files are kept, the total is counted.
 * - count: all per-file counts (one small row per file) sorted in path order, then paged; the total
 *   counts every file.
 * - content: lines arrive in path order; lines before `offset` are skipped, the page is kept, and the
 *   search stops as soon as one line past the page proves there is more (so the total is only known
 *   when the page reaches the end). `head_limit: 0` (no limit) is still capped at
 *   `GREP_UNLIMITED_MAX_LINES` lines to bound memory.
 */
import path from 'node:path';
import {
  compareRipgrepPaths,
  formatResultPath,
  type MtimeOrder,
  mtimeOf,
  RankedFiles,
  type SearchEngine,
  type SearchPathStyle,
  type SearchRecord,
  type SearchRequest,
  searchFiles,
} from '../ripgrep/index.js';
import type { GrepOutput, GrepOutputMode } from './grep-output.js';

/** Lines kept when head_limit is 0 (no limit), to bound memory; the result is spilled to disk anyway. */
export const GREP_UNLIMITED_MAX_LINES = 100_000;

export interface GrepRun {
  engine: SearchEngine;
  request: Omit<SearchRequest, 'onRecord' | 'mode'>;
  mode: GrepOutputMode;
  /** Entries per page; 0 = no limit. */
  headLimit: number;
  offset: number;
  /** content mode: show line numbers. */
  lineNumbers: boolean;
  /** Absolute directory the record paths are relative to. */
  baseDir: string;
  /** Where a record's file is stat'ed (for mtime order): the verified root's descriptor path, or for a file root the file's. */
  io?: { dir: string } | { file: string };
  /** The resolved cwd, for display. */
  cwd: string;
  pathStyle: SearchPathStyle;
  filesOrder: MtimeOrder;
}

const join = (dir: string, rel: string) => `${dir === '/' ? '' : dir}/${rel}`;

function pageBounds(run: GrepRun): { start: number; end: number } {
  const limit = run.headLimit === 0 ? Number.POSITIVE_INFINITY : run.headLimit;
  return { start: run.offset, end: run.offset + limit };
}

function paging(run: GrepRun, hasMore: boolean): Pick<GrepOutput, 'appliedLimit' | 'appliedOffset'> {
  return {
    ...(hasMore && run.headLimit > 0 ? { appliedLimit: run.headLimit } : {}),
    ...(run.offset > 0 ? { appliedOffset: run.offset } : {}),
  };
}

async function collectFiles(run: GrepRun): Promise<GrepOutput> {
  const { start, end } = pageBounds(run);
  const ranked = new RankedFiles(end, run.filesOrder);
  const outcome = await searchFiles(run.engine, {
    ...run.request,
    mode: 'files',
    onRecord: (record) => {
      if (record.kind !== 'file') return true;
      const abs = join(run.baseDir, record.path);
      const io = run.io === undefined ? abs : 'file' in run.io ? run.io.file : `${run.io.dir}/${record.path}`;
      ranked.add({ path: abs, mtimeMs: mtimeOf(io) });
      return true;
    },
  });
  const page = ranked.sorted().slice(start);
  const filenames = page.map((f) => formatResultPath(f.path, run.cwd, run.pathStyle));
  const hasMore = ranked.total > start + page.length;
  return {
    mode: 'files_with_matches',
    filenames,
    numFiles: filenames.length,
    numEntries: filenames.length,
    totalEntries: ranked.total,
    hasMore,
    ...paging(run, hasMore),
    ...(outcome.timedOut ? { timedOut: true } : {}),
  };
}

async function collectCounts(run: GrepRun): Promise<GrepOutput> {
  const rows: Array<{ path: string; count: number }> = [];
  const outcome = await searchFiles(run.engine, {
    ...run.request,
    mode: 'count',
    onRecord: (record) => {
      if (record.kind === 'count') rows.push({ path: record.path, count: record.count });
      return true;
    },
  });
  rows.sort((a, b) => compareRipgrepPaths(a.path, b.path));
  const { start, end } = pageBounds(run);
  const page = rows.slice(start, end);
  const filenames = page.map((r) => formatResultPath(join(run.baseDir, r.path), run.cwd, run.pathStyle));
  const hasMore = rows.length > end;
  return {
    mode: 'count',
    filenames,
    numFiles: filenames.length,
    ...(page.length ? { content: page.map((r, i) => `${filenames[i]}:${r.count}`).join('\n') } : {}),
    numMatches: rows.reduce((sum, r) => sum + r.count, 0),
    numEntries: page.length,
    totalEntries: rows.length,
    hasMore,
    ...paging(run, hasMore),
    ...(outcome.timedOut ? { timedOut: true } : {}),
  };
}

async function collectContent(run: GrepRun): Promise<GrepOutput> {
  const { start } = pageBounds(run);
  const end = run.headLimit === 0 ? start + GREP_UNLIMITED_MAX_LINES : pageBounds(run).end;
  const single = run.request.rootIsFile;
  const lines: string[] = [];
  const files: string[] = [];
  const display = new Map<string, string>();
  let seen = 0;
  let matched = 0;
  let hasMore = false;
  let previous: { path: string; lineNumber: number } | undefined;
  const context = run.request.before > 0 || run.request.after > 0;

  const shown = (relPath: string): string => {
    let d = display.get(relPath);
    if (d === undefined) {
      d = formatResultPath(join(run.baseDir, relPath), run.cwd, run.pathStyle);
      display.set(relPath, d);
      files.push(d);
    }
    return d;
  };
  const format = (record: Extract<SearchRecord, { kind: 'line' }>): string => {
    const sep = record.isMatch ? ':' : '-';
    const number = run.lineNumbers ? `${record.lineNumber}${sep}` : '';
    if (single) return `${number}${record.text}`;
    return `${shown(record.path)}${sep}${number}${record.text}`;
  };

  const outcome = await searchFiles(run.engine, {
    ...run.request,
    mode: 'content',
    onRecord: (record) => {
      if (record.kind !== 'line' && record.kind !== 'binary') return true;
      const index = seen++;
      if (index < start) return true;
      if (index >= end) {
        hasMore = true;
        return false;
      }
      if (record.kind === 'binary') {
        lines.push(`${shown(record.path)}: ${record.message}`);
        previous = undefined;
        return true;
      }
      const adjacent =
        previous && previous.path === record.path && previous.lineNumber + 1 === record.lineNumber;
      if (context && previous && !adjacent) lines.push('--');
      lines.push(format(record));
      if (record.isMatch) matched++;
      previous = { path: record.path, lineNumber: record.lineNumber };
      return true;
    },
  });
  if (single && lines.length) shown(path.basename(run.request.root));
  return {
    mode: 'content',
    filenames: files,
    numFiles: files.length,
    ...(lines.length ? { content: lines.join('\n'), numLines: lines.length } : { numLines: 0 }),
    numMatches: matched,
    numEntries: Math.max(0, Math.min(seen, end) - start),
    ...(hasMore ? {} : { totalEntries: seen }),
    hasMore,
    ...paging(run, hasMore),
    ...(outcome.timedOut ? { timedOut: true } : {}),
  };
}

/** Runs the search and returns the structured page. Throws ToolInputError for a bad pattern/glob/type, AbortError on abort. */
export function runGrep(run: GrepRun): Promise<GrepOutput> {
  if (run.mode === 'files_with_matches') return collectFiles(run);
  if (run.mode === 'count') return collectCounts(run);
  return collectContent(run);
}
