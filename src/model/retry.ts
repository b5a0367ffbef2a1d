/**
 * Retry policy shared by the providers: which failures are retried, how long to wait, and an
 * abortable sleep. The SDKs' own retries are switched off (`maxRetries: 0`) so these are the only
 * retries and each one is reported as a `retry` stream event (docs/agent-wire.md, "Retries").
 *
 * - Retried: HTTP 408, 409, 429, 529 and every other 5xx, connection errors and timeouts — unless
 *   the server sends `x-should-retry: false`; `x-should-retry: true` makes any status retryable.
 * - Delay for attempt n (1-based): `retry-after-ms` (milliseconds) or `retry-after` (seconds or an
 *   HTTP date) when the server sends one, else min(maxDelayMs, baseDelayMs × 2^(n−1)) reduced by up
 *   to `jitter` (a fraction) at random, so concurrent clients spread out.
 * - A server-requested wait longer than `maxRetryAfterMs` is not waited out: the error is final
 *   (a session should not hang silently for an hour on a quota reset).
 */
import { ModelError } from '../core/model-client.js';

export interface RetryOptions {
  /** Retries after the first attempt (default 10, 0 disables retries). */
  maxRetries?: number;
  /** First backoff delay in ms (default 500). */
  baseDelayMs?: number;
  /** Cap of the exponential backoff in ms (default 32,000). */
  maxDelayMs?: number;
  /** Random reduction of a backoff delay, as a fraction in [0, 1] (default 0.25). */
  jitter?: number;
  /** The longest `retry-after` honoured, in ms (default 300,000); longer waits end the call. */
  maxRetryAfterMs?: number;
}

export interface ResolvedRetryOptions {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  jitter: number;
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: Readonly<ResolvedRetryOptions> = Object.freeze({
  maxRetries: 10,
  baseDelayMs: 500,
  maxDelayMs: 32_000,
  jitter: 0.25,
  maxRetryAfterMs: 300_000,
});

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) {
    throw new TypeError(`retry.${name} must be a non-negative number (got ${String(value)})`);
  }
  return value;
}

/** Validates `options` and fills in the defaults. Throws TypeError on a negative or non-finite value. */
export function resolveRetryOptions(options: RetryOptions = {}): ResolvedRetryOptions {
  const jitter = nonNegative('jitter', options.jitter, DEFAULT_RETRY.jitter);
  if (jitter > 1) throw new TypeError(`retry.jitter must be at most 1 (got ${jitter})`);
  return {
    maxRetries: Math.floor(nonNegative('maxRetries', options.maxRetries, DEFAULT_RETRY.maxRetries)),
    baseDelayMs: nonNegative('baseDelayMs', options.baseDelayMs, DEFAULT_RETRY.baseDelayMs),
    maxDelayMs: nonNegative('maxDelayMs', options.maxDelayMs, DEFAULT_RETRY.maxDelayMs),
    jitter,
    maxRetryAfterMs: nonNegative('maxRetryAfterMs', options.maxRetryAfterMs, DEFAULT_RETRY.maxRetryAfterMs),
  };
}

/** Minimal view of response headers (a fetch `Headers` or a plain record). */
export type HeaderSource = { get(name: string): string | null } | Record<string, string> | undefined;

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const rec = headers as Record<string, string>;
  return rec[name] ?? rec[name.toLowerCase()];
}

/** The wait the server asked for, in ms (`retry-after-ms`, then `retry-after`), or undefined. */
export function retryAfterMs(headers: HeaderSource, now: number = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined) {
    const v = Number.parseFloat(ms);
    if (Number.isFinite(v) && v >= 0) return v;
  }
  const after = header(headers, 'retry-after');
  if (after !== undefined) {
    const seconds = Number(after.trim());
    if (after.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(after);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  return undefined;
}

/** Whether a failure with this status (undefined: no HTTP response) and headers is retried. */
export function isRetryableStatus(status: number | undefined, headers: HeaderSource): boolean {
  const should = header(headers, 'x-should-retry');
  if (should === 'false') return false;
  if (should === 'true') return true;
  if (status === undefined) return true;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Backoff for retry `attempt` (1-based) without a server hint, jitter applied with `random()`. */
export function backoffDelayMs(
  attempt: number,
  options: ResolvedRetryOptions,
  random: () => number = Math.random,
): number {
  const exp = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp * (1 - options.jitter * random()));
}

/** Resolves after `ms`, or rejects with ModelError `aborted` as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new ModelError('aborted', 'The request was aborted.'));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ModelError('aborted', 'The request was aborted.'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
