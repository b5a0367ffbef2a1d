/**
 * The requests and records both search engines (ripgrep and the JavaScript fallback) speak, so Glob
 * and Grep never depend on which one ran. Paths in records are relative to the search root and
 * `/`-separated; for a single-file search the path is the file's name.
 */

/** VCS metadata directories never searched (Grep always; Glob unless the pattern names them). */
export const VCS_DIRECTORIES: readonly string[] = ['.git', '.svn', '.hg', '.bzr', '.jj', '.sl'];

/** Longest line (bytes) printed in full; longer lines are cut to a preview (ripgrep `--max-columns`). */
export const DEFAULT_MAX_COLUMNS = 500;

/** The marker ripgrep appends to a cut line (`--max-columns-preview`). */
export const LONG_LINE_MARKER = ' [... omitted end of long line]';

/** List files whose relative path matches a glob (Glob). */
export interface ListFilesRequest {
  /** Absolute directory (symlink-resolved): names and parent ignore files are found from it. */
  root: string;
  /**
   * Where the directory is read from: a path to a verified descriptor of `root` (`/proc/<pid>/fd/N`),
   * so a swapped symlink cannot redirect the search (docs/reliability.md). Default: `root`.
   */
  ioRoot?: string;
  /** Glob anchored at `root` (`src/**\/*.ts`, `*.md`), `/`-separated, no leading `/`. */
  pattern: string;
  caseInsensitive: boolean;
  /** Honour .gitignore / .ignore / .rgignore (ripgrep's default); false = `--no-ignore`. */
  respectIgnore: boolean;
  /** Directory names never entered. */
  excludeDirs: readonly string[];
  signal: AbortSignal;
  /** Stop after this many ms and report `timedOut` (partial results kept). */
  timeoutMs?: number;
  /**
   * Asks for each file's modification time with the listing: when the listing can read it as it
   * walks (GNU find, see find-listing.ts), `onFile` gets it and the caller need not stat the file.
   */
  wantMtime?: boolean;
  /**
   * One call per file. Return false to stop. `mtimeMs` (as Node's `Stats.mtimeMs`) is given when
   * `wantMtime` was set and the listing read it; otherwise it is undefined.
   */
  onFile(relPath: string, mtimeMs?: number): boolean | undefined;
}

/** What Grep asks for. */
export type SearchMode = 'files' | 'count' | 'content';

/** Search file contents (Grep). */
export interface SearchRequest {
  /** Absolute directory or file (symlink-resolved). */
  root: string;
  /** As ListFilesRequest.ioRoot; for a file root, a path to the verified descriptor of the file. */
  ioRoot?: string;
  rootIsFile: boolean;
  /** ripgrep regex. */
  pattern: string;
  caseInsensitive: boolean;
  /** `-U --multiline-dotall`. */
  multiline: boolean;
  /** ripgrep `--glob` arguments, in order (a later glob wins). */
  globs: readonly string[];
  /** ripgrep `--type` name. */
  type?: string;
  respectIgnore: boolean;
  excludeDirs: readonly string[];
  mode: SearchMode;
  /** Content mode: print only the matched parts (`-o`). */
  onlyMatching: boolean;
  /** Content mode: context lines before / after each match. */
  before: number;
  after: number;
  /** Content mode: lines longer than this many bytes are cut to a preview. */
  maxColumns: number;
  signal: AbortSignal;
  timeoutMs?: number;
  /**
   * One call per record. Content-mode line records arrive in ripgrep's path order (files by path,
   * lines ascending), so paging is stable across calls; file and count records arrive in any order.
   * Return false to stop.
   */
  onRecord(record: SearchRecord): boolean | undefined;
}

export type SearchRecord =
  | { kind: 'file'; path: string }
  | { kind: 'count'; path: string; count: number }
  | { kind: 'line'; path: string; lineNumber: number; text: string; isMatch: boolean }
  /** An explicitly searched binary file matched; ripgrep prints a notice instead of its lines. */
  | { kind: 'binary'; path: string; message: string };

/** How a search ended. Errors (bad regex, unknown type) are thrown as ToolInputError instead. */
export interface SearchOutcome {
  /** False when the consumer stopped early or the search timed out. */
  complete: boolean;
  timedOut: boolean;
  /** Which engine ran (`ripgrep <path>` or `javascript`). */
  engine: string;
}
