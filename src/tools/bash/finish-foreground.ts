/**
 * Turns a finished foreground run into the Bash result, or the error the model sees (the Claude Code tools reference
 * "Output and limits", "Exit status"; docs/architecture.md).
 *
 * Sequence: image data URL? → success or failure (semantic exit codes: `grep` 1 is not an error)
 * → notes (cwd reset, how the group was stopped, processes left behind and stopped, sandbox annotations) → the output rendered within
 * the budget left after the notes (30,000 characters on success, 10,000 on failure) → the output
 * file kept as the spilled full output when the excerpt is not the whole output, deleted otherwise
 * → git operations (exit 0 only) → {@link BashOutput}, or a thrown {@link BashCommandError} /
 * {@link BashAbortError} carrying it.
 */
import { readFile, rm } from 'node:fs/promises';
import { type BashLimits } from './bash-input.js';
import {
  BashAbortError,
  type BashOutput,
  BashCommandError,
  formatDuration,
  persistedOutputLine,
} from './bash-output.js';
import { detectGitOperations } from './git-operations.js';
import { looksLikeImageDataUrl, MAX_IMAGE_OUTPUT_BYTES, parseImageDataUrl } from './image-output.js';
import { renderOutput } from '../tasks/render-output.js';
import type { CommandRun } from './run-command.js';
import type { SubcommandInfo } from '../../core/index.js';
import type { BashSandbox, SandboxCallInfo } from './spawn-spec.js';

/** Meaning of an exit code for a command (E's `interpretExitCode`). */
export interface ExitCodeInterpretation {
  isError: boolean;
  /** e.g. `No matches found`, `Files differ`. */
  message?: string;
}

export interface FinishOptions {
  command: string;
  run: CommandRun;
  outputFile: string;
  limits: BashLimits;
  timeoutMs: number;
  /** Directory the command started in. */
  cwd: string;
  /** Notes decided before the result (cwd reset). */
  notes: string[];
  /** Sub-commands from the analysis (git operations, noOutputExpected); empty when unavailable. */
  subcommands: readonly SubcommandInfo[];
  interpretExitCode: (command: string, code: number) => ExitCodeInterpretation;
  destructiveWarning?: string;
  sandbox?: BashSandbox;
  sandboxInfo: SandboxCallInfo;
}

/** Programs that normally print nothing on success. */
const SILENT_PROGRAMS = new Set([
  'mv',
  'cp',
  'rm',
  'mkdir',
  'rmdir',
  'chmod',
  'chown',
  'chgrp',
  'touch',
  'ln',
  'cd',
  'export',
  'unset',
  'true',
  'false',
  'kill',
  'sleep',
  'wait',
]);

function stopNote(run: CommandRun, options: FinishOptions): string {
  const how =
    run.stopSignal === 'SIGKILL'
      ? `it did not exit within ${formatDuration(options.limits.killGraceMs)} of SIGTERM and was killed with SIGKILL`
      : 'its process group was stopped with SIGTERM';
  switch (run.stopReason) {
    case 'timeout':
      return `Command timed out after ${formatDuration(options.timeoutMs)}; ${how}.`;
    case 'abort':
      return `Command was aborted after ${formatDuration(run.durationMs)}; ${how}.`;
    case 'output-limit':
      return `Command output exceeded ${options.limits.maxOutputBytes} bytes; ${how}.`;
    default:
      return '';
  }
}

/**
 * The note for processes a command left running, in its group or moved into a new session
 * (`setsid`; exec.ts), which were stopped when it returned.
 */
export function leftoverNote(leftovers: { count: number; signal: 'SIGTERM' | 'SIGKILL' }): string {
  const what = leftovers.count === 1 ? '1 process' : `${leftovers.count} processes`;
  return (
    `The command left ${what} running in the background; ` +
    `${leftovers.count === 1 ? 'it was' : 'they were'} stopped with ${leftovers.signal} when the command returned. ` +
    'To keep a process running after the command returns, start it with run_in_background: true.'
  );
}

/** Builds the result; throws BashCommandError (failure) or BashAbortError (abort). */
export async function finishForeground(options: FinishOptions): Promise<BashOutput> {
  const { run, limits, command } = options;
  const code = run.exit.code;
  const interrupted = run.stopReason !== undefined;
  const interpretation =
    !interrupted && code !== null && code !== 0 ? options.interpretExitCode(command, code) : undefined;
  const failed = interrupted || code === null || (code !== 0 && interpretation?.isError !== false);
  const base: BashOutput = {
    stdout: '',
    stderr: '',
    interrupted,
    isImage: false,
    exitCode: code,
    cwd: options.cwd,
    ...(interpretation?.isError === false && interpretation.message
      ? { returnCodeInterpretation: interpretation.message }
      : {}),
    ...(run.stopReason === 'timeout' ? { timedOutAfterMs: options.timeoutMs } : {}),
    ...(run.stopSignal ? { killSignal: run.stopSignal } : {}),
    ...(options.destructiveWarning ? { destructiveWarning: options.destructiveWarning } : {}),
    ...(options.sandboxInfo.dangerouslyDisableSandbox ? { dangerouslyDisableSandbox: true } : {}),
  };
  const subcommands = options.subcommands;
  if (subcommands.length > 0 && subcommands.every((s) => SILENT_PROGRAMS.has(s.program.split('/').pop()!))) {
    base.noOutputExpected = true;
  }

  if (!failed && looksLikeImageDataUrl(run.output.head) && run.fileBytes <= MAX_IMAGE_OUTPUT_BYTES) {
    const image = await parseImageDataUrl(await readFile(options.outputFile, 'utf8'));
    if (image) {
      await rm(options.outputFile, { force: true });
      return { ...base, stdout: `data:${image.mediaType};base64,${image.data}`, isImage: true };
    }
  }

  const notes = [...options.notes];
  if (run.leftovers) notes.push(leftoverNote(run.leftovers));
  if (run.fileBytes > run.output.bytes && run.stopReason !== 'output-limit') {
    notes.push(`Only the first ${run.output.bytes} of ${run.fileBytes} output bytes were examined.`);
  }
  let notesText = notes.join('\n');
  if (options.sandbox) {
    notesText = options.sandbox.annotate(notesText, { ...options.sandboxInfo, output: run.output.tail });
  }
  const stop = stopNote(run, options);
  const stderr = [stop, notesText].filter((s) => s.length > 0).join('\n');
  const budget = failed ? limits.failureOutputChars : limits.maxOutputChars;
  const prefix = failed ? stop || `Exit code ${code ?? 'unknown'}` : '';
  const spill = {
    persistedOutputPath: options.outputFile,
    persistedOutputSize: run.fileBytes,
    totalLines: run.output.lines,
  };
  const overhead = prefix.length + notesText.length + persistedOutputLine(spill).length + 3;
  const rendered = renderOutput(run.output, Math.max(256, budget - overhead));
  const output: BashOutput = { ...base, stdout: rendered.text, stderr };
  if (rendered.truncated) Object.assign(output, spill);
  else await rm(options.outputFile, { force: true });

  if (!failed && code === 0) {
    const gitOperations = detectGitOperations(subcommands, `${run.output.head}\n${run.output.tail}`);
    if (gitOperations.length) output.gitOperations = gitOperations;
  }
  if (!failed) return output;
  const text = [prefix, output.stdout, notesText, persistedOutputLine(output)]
    .filter((s) => s.length > 0)
    .join('\n');
  if (run.stopReason === 'abort') throw new BashAbortError(text, output);
  throw new BashCommandError(text, output);
}
