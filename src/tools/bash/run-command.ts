/**
 * Runs one foreground command to its end and reports progress while it runs (the Claude Code tools reference
 * "Timeouts and background", docs/architecture.md).
 *
 * Sequence: build the spawn spec (spawn-spec.ts) → let the sandbox wrap it → start the process
 * group writing into `outputFile` → every `tickMs`: follow the file into a bounded
 * {@link OutputAccumulator}, stop the group when the file passes `maxOutputBytes`, and at most once
 * per `progressIntervalMs` yield a progress event → the timeout timer and the abort signal stop the
 * group (SIGTERM, then SIGKILL after `graceMs`) → after the leader exits: read the rest of the file,
 * stop what the command left running in its process group, read the cwd the EXIT trap recorded,
 * run the sandbox cleanup. Returns everything the result
 * mapping needs; never throws for a command that ran (only for one that could not start).
 */
import { randomUUID } from 'node:crypto';
import { readFile, rm, stat } from 'node:fs/promises';
import { type ExitInfo, type StopReason, type StopSignal, startProcess } from './exec.js';
import { FileTail } from '../tasks/file-tail.js';
import { OutputAccumulator } from '../tasks/output-accumulator.js';
import { type BashSandbox, buildShellSpawnSpec, type SandboxCallInfo } from './spawn-spec.js';

/** Progress event of a running Bash command (Claude Code's `bash_progress` shape plus `totalBytes`). */
export interface BashProgress {
  type: 'bash_progress';
  /** The latest output lines (at most 5 lines, 1,000 characters). */
  output: string;
  elapsedTimeSeconds: number;
  totalLines: number;
  totalBytes: number;
  timeoutMs: number;
}

export interface RunCommandOptions {
  command: string;
  /** Absolute directory to start in. */
  cwd: string;
  timeoutMs: number;
  /** Receives stdout+stderr; created, or truncated when it exists. */
  outputFile: string;
  signal: AbortSignal;
  /** SIGTERM → SIGKILL grace period, ms. */
  graceMs: number;
  /** The group is stopped when the output file grows past this many bytes. */
  maxOutputBytes: number;
  /** Head/tail capacity of the accumulator, characters (≥ the largest render budget). */
  keepChars: number;
  /** Minimum time between progress events, ms. */
  progressIntervalMs: number;
  /** How often the output file is followed, ms. */
  tickMs?: number;
  env?: Record<string, string | undefined>;
  envFile?: string;
  sandbox?: BashSandbox;
  sandboxInfo: SandboxCallInfo;
}

export interface CommandRun {
  exit: ExitInfo;
  /** Why the harness stopped the command, when it did. */
  stopReason?: StopReason;
  /** Last signal the harness had to send. */
  stopSignal?: StopSignal;
  durationMs: number;
  output: OutputAccumulator;
  /** Size of the output file at the end (can exceed `output.bytes` past `maxOutputBytes`). */
  fileBytes: number;
  /** `pwd -P` recorded by the EXIT trap, or undefined when it did not run (SIGKILL, exec). */
  finalCwd?: string;
  /** Processes the command left running in its process group, which were stopped when it returned. */
  leftovers?: { count: number; signal: StopSignal };
}

/** Largest slice of the output file read per tick, so progress keeps flowing under heavy output. */
const MAX_BYTES_PER_TICK = 64 * 1024 * 1024;

function delay(ms: number): Promise<'tick'> {
  return new Promise((resolve) => setTimeout(() => resolve('tick'), ms));
}

/** The last ≤ 5 lines (≤ 1,000 characters) of a text, for progress events. */
export function latestLines(text: string): string {
  const trimmed = text.replace(/\n+$/, '');
  const lines = trimmed.split('\n');
  const last = lines.slice(-5).join('\n');
  return last.length > 1000 ? last.slice(last.length - 1000) : last;
}

/** Runs the command; see the module comment. Throws only when the process cannot be started. */
export async function* runCommand(options: RunCommandOptions): AsyncGenerator<BashProgress, CommandRun> {
  const startedAtMs = Date.now();
  // Beside the output file (the session directory), not in the shared temp directory.
  const cwdFile = `${options.outputFile}.cwd-${randomUUID().slice(0, 8)}`;
  const baseSpec = buildShellSpawnSpec({
    command: options.command,
    cwd: options.cwd,
    env: options.env,
    cwdFile,
    envFile: options.envFile,
  });
  const wrapped = options.sandbox
    ? await options.sandbox.wrap(baseSpec, options.sandboxInfo)
    : { spec: baseSpec, cleanup: () => undefined };
  const output = new OutputAccumulator({ headChars: options.keepChars, tailChars: options.keepChars });
  const tail = new FileTail(options.outputFile, (chunk) => output.feed(chunk));
  let proc: Awaited<ReturnType<typeof startProcess>>;
  try {
    proc = await startProcess({
      spec: wrapped.spec,
      outputFile: options.outputFile,
      graceMs: options.graceMs,
    });
  } catch (error) {
    await wrapped.cleanup();
    throw error;
  }
  let stopSignal: Promise<StopSignal> | undefined;
  const stop = (reason: StopReason) => {
    stopSignal ??= proc.terminate(reason);
  };
  const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
  const onAbort = () => stop('abort');
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener('abort', onAbort, { once: true });

  const tickMs = options.tickMs ?? 100;
  let lastProgressMs = startedAtMs;
  let exit: ExitInfo | undefined;
  try {
    while (!exit) {
      const winner = await Promise.race([proc.exited, delay(tickMs)]);
      if (winner !== 'tick') exit = winner;
      if (!exit) {
        const size = (await stat(options.outputFile)).size;
        if (size > options.maxOutputBytes) stop('output-limit');
        await tail.drain(Math.min(MAX_BYTES_PER_TICK, Math.max(0, options.maxOutputBytes - tail.position)));
        const now = Date.now();
        if (now - lastProgressMs >= options.progressIntervalMs) {
          lastProgressMs = now;
          yield {
            type: 'bash_progress',
            output: latestLines(output.tail),
            elapsedTimeSeconds: Math.floor((now - startedAtMs) / 1000),
            totalLines: output.lines,
            totalBytes: output.bytes,
            timeoutMs: options.timeoutMs,
          };
        }
      }
    }
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', onAbort);
    if (!exit) {
      // The consumer stopped iterating (its own abort): do not leave the group running.
      stop('abort');
      await stopSignal;
      await rm(cwdFile, { force: true });
      await wrapped.cleanup();
    }
  }
  const finalSignal = stopSignal ? await stopSignal : undefined;
  // A foreground command ends with its shell: what it started in the background of its own group
  // (`server &`, `nohup x &`) is stopped now; run_in_background is the way to keep something running.
  const leftovers = finalSignal ? undefined : await proc.stopLeftovers();
  await tail.drain(Math.max(0, options.maxOutputBytes - tail.position));
  output.end();
  const fileBytes = (await stat(options.outputFile)).size;
  let finalCwd: string | undefined;
  try {
    finalCwd = (await readFile(cwdFile, 'utf8')).replace(/\n$/, '') || undefined;
  } catch {
    finalCwd = undefined;
  }
  await rm(cwdFile, { force: true });
  await wrapped.cleanup();
  return {
    exit,
    ...(proc.stopReason ? { stopReason: proc.stopReason } : {}),
    ...(finalSignal ? { stopSignal: finalSignal } : {}),
    durationMs: Date.now() - startedAtMs,
    output,
    fileBytes,
    ...(finalCwd ? { finalCwd } : {}),
    ...(leftovers ? { leftovers } : {}),
  };
}
