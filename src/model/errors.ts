/**
 * Provider failures → `ModelError` kinds, the same way for both providers (docs/agent-wire.md,
 * "Errors"):
 *
 * | HTTP status / error type                         | kind              | retried |
 * |---|---|---|
 * | 401 / `authentication_error`                     | `authentication`  | no |
 * | 403 / `permission_error`                         | `permission`      | no |
 * | 404 / `not_found_error`                          | `not_found`       | no |
 * | 413 / `request_too_large`                        | `prompt_too_long` | no |
 * | 400 whose message says the prompt is too long    | `prompt_too_long` | no |
 * | other 4xx / `invalid_request_error`              | `invalid_request` | no (408, 409: yes) |
 * | 429 / `rate_limit_error`                         | `rate_limit`      | yes |
 * | 529 / `overloaded_error`                         | `overloaded`      | yes |
 * | other 5xx / `api_error`                          | `server`          | yes |
 * | no response (refused, reset, timeout)            | `connection`      | yes |
 * | unparsable stream, missing `message_stop`        | `malformed_response` | no |
 *
 * 413 maps to `prompt_too_long` because the remedy is the same: send less.
 */
import { ModelError, type ModelErrorKind } from '../core/model-client.js';
import { type HeaderSource, isRetryableStatus, retryAfterMs } from './retry.js';

/** A failure with what the retry loop needs to decide. */
export interface ClassifiedFailure {
  error: ModelError;
  retryable: boolean;
  /** The server's requested wait, in ms. */
  retryAfterMs?: number;
}

const PROMPT_TOO_LONG =
  /prompt is too long|input is too long|context[ _-]length|maximum context|context window|too many (input )?tokens/i;

const TYPE_KINDS: Readonly<Record<string, ModelErrorKind>> = {
  authentication_error: 'authentication',
  permission_error: 'permission',
  not_found_error: 'not_found',
  request_too_large: 'prompt_too_long',
  rate_limit_error: 'rate_limit',
  overloaded_error: 'overloaded',
  api_error: 'server',
  invalid_request_error: 'invalid_request',
  // OpenAI-compatible codes and types.
  insufficient_quota: 'rate_limit',
  rate_limit_exceeded: 'rate_limit',
  context_length_exceeded: 'prompt_too_long',
  server_error: 'server',
  invalid_api_key: 'authentication',
};

/** The kind for an HTTP status (undefined: no response) and the body's error type/code. */
export function kindFor(
  status: number | undefined,
  errorType: string | undefined,
  message: string,
): ModelErrorKind {
  if (status === 401) return 'authentication';
  if (status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 413) return 'prompt_too_long';
  if (status === 429) return 'rate_limit';
  if (status === 529) return 'overloaded';
  if (status !== undefined && status >= 500)
    return errorType === 'overloaded_error' ? 'overloaded' : 'server';
  const byType = errorType ? TYPE_KINDS[errorType] : undefined;
  if (byType === 'invalid_request' || (byType === undefined && status !== undefined)) {
    return PROMPT_TOO_LONG.test(message) ? 'prompt_too_long' : 'invalid_request';
  }
  return byType ?? 'server';
}

/** Kinds worth another attempt when the failure came inside a stream (no HTTP status). */
const RETRYABLE_STREAM_KINDS: ReadonlySet<ModelErrorKind> = new Set([
  'rate_limit',
  'overloaded',
  'server',
  'connection',
]);

export interface HttpFailure {
  status: number | undefined;
  headers: HeaderSource;
  errorType: string | undefined;
  /** The server's own message (from the error body), or the client's. */
  message: string;
  cause: unknown;
  /** True for an error event inside a 200 stream (retry decided by kind, not status). */
  inStream?: boolean;
}

/**
 * Builds the classified failure. `hint` adds what a user can do about the kind (e.g. which
 * environment variable holds the key); it is appended to the message.
 */
export function classifyHttpFailure(
  failure: HttpFailure,
  hint: (kind: ModelErrorKind) => string | undefined,
): ClassifiedFailure {
  const kind =
    failure.status === undefined && !failure.inStream
      ? 'connection'
      : kindFor(failure.status, failure.errorType, failure.message);
  const statusPart = failure.status !== undefined ? ` (HTTP ${failure.status})` : '';
  const extra = hint(kind);
  const message = `${describeKind(kind)}${statusPart}: ${failure.message}${extra ? ` ${extra}` : ''}`;
  const error = new ModelError(kind, message, failure.status, { cause: failure.cause });
  const retryable = failure.inStream
    ? RETRYABLE_STREAM_KINDS.has(kind)
    : isRetryableStatus(failure.status, failure.headers);
  const after = retryAfterMs(failure.headers);
  return after === undefined ? { error, retryable } : { error, retryable, retryAfterMs: after };
}

function describeKind(kind: ModelErrorKind): string {
  switch (kind) {
    case 'authentication':
      return 'The API key or token was refused';
    case 'permission':
      return 'The API key has no permission for this request';
    case 'not_found':
      return 'Not found (check the model name and the base URL)';
    case 'prompt_too_long':
      return 'The request is too large for the model';
    case 'invalid_request':
      return 'The API rejected the request';
    case 'rate_limit':
      return 'Rate limited';
    case 'overloaded':
      return 'The API is overloaded';
    case 'server':
      return 'The API had an internal error';
    case 'connection':
      return 'Could not reach the API';
    case 'malformed_response':
      return 'The API sent a response Gantry cannot read';
    case 'aborted':
      return 'The request was aborted';
  }
}

/** A `malformed_response` error. */
export function malformed(message: string, cause?: unknown): ModelError {
  return new ModelError(
    'malformed_response',
    `${describeKind('malformed_response')}: ${message}`,
    undefined,
    {
      cause,
    },
  );
}

/** The `aborted` error every provider throws when the caller's signal fires. */
export function abortedError(cause?: unknown): ModelError {
  return new ModelError('aborted', 'The request was aborted.', undefined, { cause });
}
