/**
 * The ONE place where thrown errors become `is_error` tool results. Every failure of a call
 * (unknown tool, schema, validateInput, permission denial, host refusal, tool error, abort, a call
 * never started) flows through `errorToOutcome`. Only `FatalError` escapes: it is rethrown to end
 * the turn.
 *
 * Wording (chosen to match what Claude Code's transcripts show):
 * - unknown tool / schema / validateInput → `<tool_use_error>…</tool_use_error>`, like Claude Code's
 *   `tool_use_error` results;
 * - denials carry the reason or the user's message;
 * - execution errors carry the error text, middle-truncated past 10,000 characters;
 * - aborts say what happened and whether anything ran.
 */
import {
  AbortError,
  errorMessage,
  FatalError,
  isAbortError,
  PermissionDeniedError,
  ToolError,
  ToolInputError,
} from '../core/index.js';
import { MAX_ERROR_MESSAGE_CHARS } from './limits.js';
import type { CallOutcome, CallStatus } from './types.js';

/** The model called a tool that does not exist (or is not offered in this context). */
export class NoSuchToolError extends ToolError {
  override name = 'NoSuchToolError';
}

/** Where a call was when it failed: still being checked, or already running `call`. */
export type CallStage = 'not-started' | 'checking' | 'running';

export interface ErrorOutcomeMeta {
  index: number;
  toolUseId: string;
  toolName: string;
  stage: CallStage;
  durationMs: number;
  /** True when the turn's abort signal fired; any error then reads as an abort. */
  aborted: boolean;
}

/** Keeps the head and tail of a long text around `… [N characters truncated] …`. */
export function middleTruncate(text: string, maxChars: number = MAX_ERROR_MESSAGE_CHARS): string {
  if (text.length <= maxChars) return text;
  const keep = Math.max(0, maxChars - 40);
  const head = Math.ceil(keep / 2);
  const tail = keep - head;
  const dropped = text.length - head - tail;
  return `${text.slice(0, head)}… [${dropped} characters truncated] …${tail > 0 ? text.slice(-tail) : ''}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

function abortText(meta: ErrorOutcomeMeta): string {
  switch (meta.stage) {
    case 'not-started':
      return `Not run: the turn was aborted before this ${meta.toolName} call started. Nothing was executed.`;
    case 'checking':
      return `Interrupted: the turn was aborted while this ${meta.toolName} call was being checked (after ${seconds(meta.durationMs)}). Nothing was executed.`;
    case 'running':
      return `Interrupted: the turn was aborted while ${meta.toolName} was running (after ${seconds(meta.durationMs)}). It may have partly completed; check its effects before running it again.`;
  }
}

/**
 * Converts a thrown value into the call's error outcome. Rethrows `FatalError` (it ends the turn).
 * Never throws otherwise. The content never is empty: it names what failed and, where one exists,
 * the next step.
 */
export function errorToOutcome(error: unknown, meta: ErrorOutcomeMeta): CallOutcome {
  if (error instanceof FatalError) throw error;
  let status: CallStatus = 'error';
  let text: string;
  if (meta.stage === 'not-started') {
    status = 'not-started';
    text = abortText(meta);
  } else if (meta.aborted || isAbortError(error)) {
    status = 'aborted';
    text = abortText(meta);
  } else if (error instanceof NoSuchToolError || error instanceof ToolInputError) {
    text = `<tool_use_error>${middleTruncate(error.message)}</tool_use_error>`;
  } else if (error instanceof PermissionDeniedError || error instanceof ToolError) {
    text = middleTruncate(error.message || `${meta.toolName} failed without a message.`);
  } else {
    const message = errorMessage(error) || 'no message';
    text = middleTruncate(`Error: ${meta.toolName} failed unexpectedly: ${message}`);
  }
  return {
    index: meta.index,
    toolUseId: meta.toolUseId,
    toolName: meta.toolName,
    status,
    content: text,
    isError: true,
    maxResultSizeChars: Number.POSITIVE_INFINITY,
    persisted: false,
    newMessages: [],
    durationMs: meta.durationMs,
  };
}

/** The outcome of a call that never started because the turn was aborted. */
export function notStartedOutcome(
  meta: Omit<ErrorOutcomeMeta, 'stage' | 'durationMs' | 'aborted'>,
): CallOutcome {
  return errorToOutcome(new AbortError(), { ...meta, stage: 'not-started', durationMs: 0, aborted: true });
}
