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
 * Sequence: run ripgrep (`--files --null`, cwd = the verified root), then find with ripgrep's stdout
 * pipe as its stdin (the kernel's pipe carries the names and holds back ripgrep while find is
 * behind: memory stays bounded, and this process never copies them) → find, in the same verified root,
 * runs `-files0-from - -maxdepth 0 -type f -printf '%T@/%p\0'` → each record is split at its first
 * `/` into the mtime and the `./`-prefixed path → `onFile(rel, mtimeMs)`. A file that is gone or no
 * longer a regular file by the time find looks (a swap to a symbolic link included: find never
 * follows one) is left out. When find stops (early stop, timeout, abort) ripgrep is stopped too; a
 * failure of ripgrep (a malformed glob) is reported by the caller from ripgrep's own result.
 */
import { AbortError } from '../../core/index.js';
import type { GnuFind } from './find-listing.js';
import { MtimeFields } from './find-listing.js';
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
  /** Records find printed (files listed with their mtime); ripgrep's own output is never read here. */
  records: number;
}

/**
 * Lists files with ripgrep (`rgArgs` must make it print NUL-terminated `./`-prefixed paths:
 * `--files --null -- .`) and hands each with its mtime to `onFile`. ripgrep starts first (its walk
 * is the longer part) and its stdout pipe becomes find's stdin, so the names go from one process
 * to the other without passing through this one.
 * Rejects with AbortError when `request.signal` aborts.
 */
export async function listFilesWithRipgrepAndFind(
  rgPath: string,
  rgArgs: readonly string[],
  find: GnuFind,
  request: Pick<ListFilesRequest, 'root' | 'ioRoot' | 'signal' | 'timeoutMs'>,
  onFile: (relPath: string, mtimeMs: number) => boolean | undefined,
): Promise<RipgrepFindRun> {
  if (request.signal.aborted) throw new AbortError('The search was aborted before it started.');
  const cwd = request.ioRoot ?? request.root;
  const timeout = request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {};
  // Stops ripgrep when find ended without reading all of its names (or the caller aborted).
  const ripgrepStop = new AbortController();
  const onAbort = () => ripgrepStop.abort();
  request.signal.addEventListener('abort', onAbort, { once: true });
  let stopped = false;
  let records = 0;
  let findRun: Promise<RipgrepRunResult> | undefined;
  const mtime = new MtimeFields();
  // Settles once ripgrep is done: its result, or the error that ended it (never rejects).
  const rgRun: Promise<RipgrepRunResult | Error> = runRipgrep({
    rgPath,
    args: rgArgs,
    cwd,
    delimiter: '\0',
    signal: ripgrepStop.signal,
    ...timeout,
    onRecord: () => true,
    // A ripgrep that never ran leaves find an empty pipe: it reads the end of its names at once.
    handOffStdout: (stdout) => {
      findRun = runRipgrep({
        rgPath: find.path,
        args: FIND_STAT_ARGS,
        cwd,
        delimiter: '\0',
        extraEnv: { LC_ALL: 'C' },
        signal: request.signal,
        ...timeout,
        stdinFd: stdout,
        onRecord: (record) => {
          const slash = record.indexOf('/');
          if (slash === -1) return true;
          records++;
          // Paths come back as ripgrep printed them: `./<relative path>`.
          const rel = record.startsWith('./', slash + 1) ? record.slice(slash + 3) : record.slice(slash + 1);
          if (onFile(rel, mtime.of(record.slice(0, slash))) === false) stopped = true;
          return !stopped;
        },
      });
    },
  }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  try {
    if (!findRun) {
      const early = await rgRun;
      throw early instanceof Error ? early : new Error('ripgrep ended before find started');
    }
    const found = await findRun.catch(async (error: unknown) => {
      ripgrepStop.abort();
      await rgRun;
      throw error;
    });
    // find exits on its own (0 or 1) only after the end of its stdin, i.e. once ripgrep's output
    // ended; any other end could leave ripgrep blocked on a full pipe, so it is stopped.
    const findReadAll = !found.stopped && !found.timedOut && (found.exitCode === 0 || found.exitCode === 1);
    if (!findReadAll) ripgrepStop.abort();
    const rg = await rgRun;
    if (rg instanceof Error) {
      if (ripgrepStop.signal.aborted)
        return { ripgrep: stoppedRun(found.timedOut), find: found, stopped, records };
      throw rg;
    }
    return { ripgrep: rg, find: found, stopped, records };
  } finally {
    request.signal.removeEventListener('abort', onAbort);
  }
}

/** The result recorded for a ripgrep stopped because find ended first. */
function stoppedRun(timedOut: boolean): RipgrepRunResult {
  return { exitCode: null, stderr: '', stopped: true, timedOut, noFilesSearched: false, stdoutBytes: 0 };
}
