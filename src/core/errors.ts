/**
 * Typed errors. Tools throw these; exactly one place in the runtime turns them into
 * `is_error` tool results. Messages are written for the model and
 * name the next step.
 */

/** Base class: a message the model should see. */
export class ToolError extends Error {
  override name = 'ToolError';
}

/** The input failed the schema or `validateInput`. `field` names the offending field when known. */
export class ToolInputError extends ToolError {
  override name = 'InputValidationError';
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The permission engine or the host refused the call. */
export class PermissionDeniedError extends ToolError {
  override name = 'PermissionDeniedError';
}

/** The tool ran and failed (non-zero exit, I/O error…). */
export class ToolExecutionError extends ToolError {
  override name = 'ToolExecutionError';
}

/** The call was aborted (user interrupt, timeout of the turn). */
export class AbortError extends Error {
  override name = 'AbortError';
  constructor(message = 'The operation was aborted.') {
    super(message);
  }
}

/** An error that must end the turn instead of becoming a tool result (e.g. corrupted session state). */
export class FatalError extends Error {
  override name = 'FatalError';
}

/** True for our AbortError and for DOM-style AbortErrors thrown by Node APIs. */
export function isAbortError(e: unknown): boolean {
  return e instanceof AbortError || (e instanceof Error && e.name === 'AbortError');
}

/** Short description of any thrown value. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
