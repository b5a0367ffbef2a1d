/**
 * The Bash tool's structured output and how the model sees it (the Claude Code tools reference "Structured output",
 * "Exit status"; observed Claude Code transcripts `{stdout, stderr, interrupted, isImage,
 * noOutputExpected?, backgroundTaskId?}`).
 *
 * - `stdout` holds the command's stdout and stderr merged as produced (one file for both fds), cut
 *   to the character budget (tools/tasks/render-output.ts). Claude Code 2.1 transcripts show the same: stderr
 *   empty, everything in stdout.
 * - `stderr` holds the harness's own notes: cwd reset, how a timeout/abort stopped the process
 *   group, sandbox annotations.
 * - Success → `mapBashResult` text. Failure (non-zero exit that is not benign, timeout, abort,
 *   output limit) → the call throws {@link BashCommandError} / {@link BashAbortError} whose message
 *   is the model text (`Exit code N` first) and whose `data` carries the structured output.
 */
import { AbortError, type ToolResultContent, ToolExecutionError } from '../../core/index.js';
import type { GitOperation } from './git-operations.js';

export interface BashOutput {
  /** Merged stdout+stderr as the model sees it (excerpt when truncated), or the image data URL when `isImage`. */
  stdout: string;
  /** Harness notes (cwd reset, kill details, sandbox violations); '' when none. */
  stderr: string;
  /** True when the harness stopped the command (timeout, abort, output limit). */
  interrupted: boolean;
  isImage: boolean;
  /** The command is one that normally prints nothing (mkdir, mv, cp…), so empty output is expected. */
  noOutputExpected?: boolean;
  backgroundTaskId?: string;
  /** Output file of a background task. */
  backgroundOutputFile?: string;
  /** Exit code of the command (null when unknown or still running in the background). */
  exitCode: number | null;
  /** Meaning of a non-zero exit that is not an error (`No matches found`). */
  returnCodeInterpretation?: string;
  timedOutAfterMs?: number;
  /** The last signal the harness sent to stop the process group. */
  killSignal?: 'SIGTERM' | 'SIGKILL';
  /** File holding the full output when `stdout` is an excerpt. */
  persistedOutputPath?: string;
  /** Size of that file, bytes. */
  persistedOutputSize?: number;
  /** Lines of the full output. */
  totalLines?: number;
  /** Git operations the command performed (exit 0 only). */
  gitOperations?: GitOperation[];
  /** User-facing warning for destructive commands; never sent to the model. */
  destructiveWarning?: string;
  dangerouslyDisableSandbox?: boolean;
  /** Working directory the command started in. */
  cwd: string;
}

/** A failed command: the message is what the model sees; `data` is the structured output. */
export class BashCommandError extends ToolExecutionError {
  constructor(
    message: string,
    readonly data: BashOutput,
  ) {
    super(message);
  }
}

/** The command was aborted by the turn's abort signal (after its process group was stopped). */
export class BashAbortError extends AbortError {
  constructor(
    message: string,
    readonly data: BashOutput,
  ) {
    super(message);
  }
}

/** `1.5s`, `45s`, `2m 0s`, `250ms`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  if (ms < 60_000) return `${Math.round(ms / 100) / 10}s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes}m ${Math.round((ms % 60_000) / 1000)}s`;
}

/** The line telling the model where the full output is. */
export function persistedOutputLine(
  output: Pick<BashOutput, 'persistedOutputPath' | 'persistedOutputSize' | 'totalLines'>,
): string {
  if (!output.persistedOutputPath) return '';
  return (
    `[Full output: ${output.totalLines ?? '?'} lines, ${output.persistedOutputSize ?? '?'} bytes, saved to ` +
    `${output.persistedOutputPath}. Use Read with offset/limit or Grep to see the rest.]`
  );
}

/** The text of a result: output excerpt, then notes, then where the full output is. */
export function bashResultText(output: BashOutput): string {
  return [output.stdout, output.stderr, persistedOutputLine(output)].filter((s) => s.length > 0).join('\n');
}

/** Maps the structured output to the `tool_result` content (images as an image block). */
export function mapBashResult(output: BashOutput): ToolResultContent {
  if (output.backgroundTaskId) {
    return `Command running in background with ID: ${output.backgroundTaskId}. Output is being written to: ${output.backgroundOutputFile}`;
  }
  if (output.isImage) {
    const match = /^data:(image\/[a-z]+);base64,(.*)$/s.exec(output.stdout);
    if (match) {
      return [
        {
          type: 'image',
          source: {
            type: 'base64',
            media_type: match[1] as 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp',
            data: match[2]!,
          },
        },
      ];
    }
  }
  const text = bashResultText(output);
  if (text) return text;
  return output.returnCodeInterpretation ?? '(Bash completed with no output)';
}
