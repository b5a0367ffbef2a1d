/**
 * Runs a ripgrep binary and streams its output as records (docs/dependencies.md "ripgrep (Glob and Grep)").
 *
 * Sequence: spawn the binary asynchronously with an argument array (never a shell), stdin closed,
 * `RIPGREP_CONFIG_PATH` removed so a user's config cannot change the flags → decode stdout as UTF-8
 * chunk by chunk (a character split across chunks is kept whole; invalid bytes become U+FFFD) and
 * split it into records on the delimiter as it arrives (memory stays bounded: a record is handed to
 * `onRecord` and dropped) → `onRecord` returns `false` to stop early (the process is killed) → on
 * abort or timeout the process is killed → resolve with the exit code and the first 8 KiB of stderr.
 *
 * Exit codes: 0 = matches, 1 = no matches (not an error), 2 = an error (ripgrep's diagnostic in stderr;
 * with `--no-messages` unreadable files do not cause it). "No files were searched" (exit 2 with
 * nothing searched) is reported as `noFilesSearched`, which callers treat as no matches.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { AbortError } from '../../core/index.js';

/** Outcome of one ripgrep run. */
export interface RipgrepRunResult {
  /** Process exit code; null when it was killed (early stop, abort, timeout). */
  exitCode: number | null;
  /** First 8 KiB of stderr, trimmed. */
  stderr: string;
  /** True when `onRecord` asked to stop and the process was killed. */
  stopped: boolean;
  /** True when `timeoutMs` elapsed and the process was killed. */
  timedOut: boolean;
  /** True when ripgrep reported that no file was searched (every file filtered out, or an empty tree). */
  noFilesSearched: boolean;
  /** Bytes the process wrote to stdout. */
  stdoutBytes: number;
}

export interface RipgrepRunOptions {
  rgPath: string;
  args: readonly string[];
  /** Working directory of the process (absolute). */
  cwd: string;
  /** Record delimiter: `'\n'` (default) or `'\0'` (for `--files-with-matches --null`). */
  delimiter?: '\n' | '\0';
  /** Called once per record, in output order, without the delimiter. Return `false` to stop. */
  onRecord(record: string): boolean | undefined;
  /** Aborting kills the process and rejects with AbortError. */
  signal: AbortSignal;
  /** Kill the process after this many ms and resolve with `timedOut: true` (partial output kept). */
  timeoutMs?: number;
  /**
   * An open file descriptor to give ripgrep as its stdin (searched with `-`), or a stream whose
   * descriptor the process gets as its stdin (another process's stdout pipe, which then flows from
   * process to process without passing through this one); default: none.
   */
  stdinFd?: number | Readable;
  /** Variables set on top of this process's environment (e.g. `LC_ALL` for another binary run this way). */
  extraEnv?: Readonly<Record<string, string>>;
  /**
   * Gives the process a stdin pipe and hands it over right after the spawn (synchronously, before
   * `runRipgrep` returns); the caller writes and ends it. Write errors (the process ended first) are
   * swallowed. Not combinable with `stdinFd`.
   */
  onStdin?(stdin: Writable): void;
  /**
   * Hands the stdout pipe over right after the spawn (synchronously, before `runRipgrep` returns),
   * for the caller to give to another process as its stdin (`stdinFd`); this process's end is closed
   * just after, so the output is never read here (`onRecord` is not called, `stdoutBytes` stays 0)
   * and the process sees a closed pipe once its reader ends. Not combinable with `pipeTo`.
   */
  handOffStdout?(stdout: Readable): void;
  /**
   * Streams stdout unchanged into this writable (backpressure honoured; ended with stdout) instead
   * of splitting it into records: `onRecord` is not called.
   */
  pipeTo?: Writable;
}

const STDERR_KEEP_BYTES = 8 * 1024;
const NO_FILES_SEARCHED = 'No files were searched';

/** Runs ripgrep, streaming records to `onRecord`. Rejects with AbortError when `signal` aborts; never rejects for exit codes. */
export function runRipgrep(options: RipgrepRunOptions): Promise<RipgrepRunResult> {
  const { signal } = options;
  if (signal.aborted) return Promise.reject(new AbortError('The search was aborted before it started.'));
  const delimiter = options.delimiter ?? '\n';
  const env = { ...process.env, ...options.extraEnv };
  delete env.RIPGREP_CONFIG_PATH;

  return new Promise<RipgrepRunResult>((resolve, reject) => {
    const child = spawn(options.rgPath, [...options.args], {
      cwd: options.cwd,
      env,
      stdio: [options.onStdin ? 'pipe' : (options.stdinFd ?? 'ignore'), 'pipe', 'pipe'],
      windowsHide: true,
    }) as unknown as ChildProcessByStdio<Writable | null, Readable, Readable>;
    if (options.onStdin && child.stdin) {
      child.stdin.on('error', () => {});
      options.onStdin(child.stdin);
    }
    let stdoutBytes = 0;
    const decoder = new StringDecoder('utf8');
    let pending = '';
    let stopped = false;
    let timedOut = false;
    let aborted = false;
    let stderrBytes = 0;
    const stderrChunks: Buffer[] = [];
    let settled = false;

    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const onAbort = () => {
      aborted = true;
      kill();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const timer =
      options.timeoutMs !== undefined
        ? setTimeout(() => {
            timedOut = true;
            kill();
          }, options.timeoutMs)
        : undefined;

    const emit = (record: string): void => {
      if (stopped || aborted) return;
      if (options.onRecord(record) === false) {
        stopped = true;
        kill();
      }
    };

    if (options.handOffStdout) {
      options.handOffStdout(child.stdout);
      child.stdout.destroy();
    } else if (options.pipeTo) {
      const sink = options.pipeTo;
      child.stdout.on('data', (chunk: Buffer) => {
        stdoutBytes += chunk.length;
      });
      child.stdout.pipe(sink);
    } else {
      child.stdout.on('data', (chunk: Buffer) => {
        stdoutBytes += chunk.length;
        if (stopped || aborted || timedOut) return;
        const text = pending + decoder.write(chunk);
        const records = text.split(delimiter);
        pending = records.pop() as string;
        for (const record of records) {
          emit(record);
          if (stopped || aborted) return;
        }
      });
    }
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderrBytes >= STDERR_KEEP_BYTES) return;
      stderrChunks.push(chunk.subarray(0, STDERR_KEEP_BYTES - stderrBytes));
      stderrBytes += chunk.length;
    });

    const finish = (error: Error | undefined, exitCode: number | null) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (aborted) {
        reject(new AbortError('The search was aborted.'));
        return;
      }
      if (error) {
        reject(error);
        return;
      }
      const rest = options.pipeTo || options.handOffStdout ? '' : pending + decoder.end();
      if (rest.length > 0 && !stopped && !timedOut) emit(rest);
      pending = '';
      const stderr = Buffer.concat(stderrChunks).toString('utf8').trim();
      resolve({
        exitCode,
        stderr,
        stopped,
        timedOut,
        noFilesSearched: exitCode === 2 && stderr.includes(NO_FILES_SEARCHED),
        stdoutBytes,
      });
    };
    child.on('error', (error) => finish(error, null));
    child.on('close', (code) => finish(undefined, code));
  });
}
