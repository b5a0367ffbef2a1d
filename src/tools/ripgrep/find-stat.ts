/**
 * Glob's ordered listing where find does not walk (a huge root directory, patterns or case rules
 * only ripgrep reads, see find-listing.ts): ripgrep's walker lists the names and GNU find takes
 * each listed file's mtime, reading the names from its stdin (`-files0-from -`, findutils ≥ 4.9;
 * docs/dependencies.md "GNU find (Glob's ordered listing)").
 *
 * Why: stat'ing each match from Node through the verified root's descriptor path
 * (`/proc/<pid>/fd/N/<rel>`) costs several microseconds per file (the lookup re-enters /proc, and
 * a Stats object is built for one field); find does one `fstatat` per name in C, on the other core,
 * while ripgrep is still walking.
 *
 * Sequence: run ripgrep (`--files --null`, cwd = the verified root) with its stdout piped unchanged
 * into find's stdin (backpressure honoured: memory stays bounded) → find, in the same verified root,
 * runs `-files0-from - -maxdepth 0 -type f -printf '%T@/%p\0'` → each record is split at its first
 * `/` into the mtime and the `./`-prefixed path → `onFile(rel, mtimeMs)`. A file that is gone or no
 * longer a regular file by the time find looks (a swap to a symbolic link included: find never
 * follows one) is left out. When find stops (early stop, timeout, abort) ripgrep is stopped too; a
 * failure of ripgrep (a malformed glob) is reported by the caller from ripgrep's own result.
 */
import type { GnuFind } from './find-listing.js';
import { mtimeMsOf } from './find-listing.js';
import { type RipgrepRunResult, runRipgrep } from './run-ripgrep.js';
import type { ListFilesRequest } from './search-types.js';

/** The find arguments that stat each name read from stdin (exported for the benchmark). */
export const FIND_STAT_ARGS: readonly string[] = [
  '-files0-from',
  '-',
  '-maxdepth',
  '0',
  '-type',
  'f',
  '-printf',
  '%T@/%p\\0',
];

/** Both processes' results. */
export interface RipgrepFindRun {
  ripgrep: RipgrepRunResult;
  find: RipgrepRunResult;
  /** True when `onFile` asked to stop. */
  stopped: boolean;
}

/**
 * Lists files with ripgrep (`rgArgs` must make it print NUL-terminated `./`-prefixed paths:
 * `--files --null -- .`) and hands each with its mtime to `onFile`.
 * Rejects with AbortError when `request.signal` aborts.
 */
export async function listFilesWithRipgrepAndFind(
  rgPath: string,
  rgArgs: readonly string[],
  find: GnuFind,
  request: Pick<ListFilesRequest, 'root' | 'ioRoot' | 'signal' | 'timeoutMs'>,
  onFile: (relPath: string, mtimeMs: number) => boolean | undefined,
): Promise<RipgrepFindRun> {
  const cwd = request.ioRoot ?? request.root;
  const timeout = request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {};
  // Stops ripgrep when find ended without reading all of its names (or the caller aborted).
  const ripgrepStop = new AbortController();
  const onAbort = () => ripgrepStop.abort();
  request.signal.addEventListener('abort', onAbort, { once: true });
  let stopped = false;
  // Settles once ripgrep is done: its result, or the error that ended it (never rejects).
  let rgRun: Promise<RipgrepRunResult | Error> = Promise.resolve(new Error('ripgrep did not start'));
  try {
    const findRun = await runRipgrep({
      rgPath: find.path,
      args: FIND_STAT_ARGS,
      cwd,
      delimiter: '\0',
      extraEnv: { LC_ALL: 'C' },
      signal: request.signal,
      ...timeout,
      onStdin: (stdin) => {
        rgRun = runRipgrep({
          rgPath,
          args: rgArgs,
          cwd,
          delimiter: '\0',
          signal: ripgrepStop.signal,
          ...timeout,
          pipeTo: stdin,
          onRecord: () => true,
        }).catch((error: unknown) => {
          // A ripgrep that never ran leaves find waiting for names: end them.
          stdin.end();
          return error instanceof Error ? error : new Error(String(error));
        });
      },
      onRecord: (record) => {
        const slash = record.indexOf('/');
        if (slash === -1) return true;
        const path = record.slice(slash + 1);
        const rel = path.startsWith('./') ? path.slice(2) : path;
        if (onFile(rel, mtimeMsOf(record.slice(0, slash))) === false) stopped = true;
        return !stopped;
      },
    }).catch(async (error: unknown) => {
      ripgrepStop.abort();
      await rgRun;
      throw error;
    });
    // find exits on its own (0 or 1) only after the end of its stdin, i.e. once ripgrep's output
    // ended; any other end leaves ripgrep blocked on a full pipe, so it is stopped.
    const findReadAll =
      !findRun.stopped && !findRun.timedOut && (findRun.exitCode === 0 || findRun.exitCode === 1);
    if (!findReadAll) ripgrepStop.abort();
    const rg = await rgRun;
    if (rg instanceof Error) {
      if (ripgrepStop.signal.aborted)
        return { ripgrep: stoppedRun(findRun.timedOut), find: findRun, stopped };
      throw rg;
    }
    return { ripgrep: rg, find: findRun, stopped };
  } finally {
    request.signal.removeEventListener('abort', onAbort);
  }
}

/** The result recorded for a ripgrep stopped because find ended first. */
function stoppedRun(timedOut: boolean): RipgrepRunResult {
  return { exitCode: null, stderr: '', stopped: true, timedOut, noFilesSearched: false, stdoutBytes: 0 };
}
