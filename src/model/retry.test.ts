/** The retry policy's pure parts: server waits, retryable statuses, backoff, option validation. */
import { describe, expect, it } from 'vitest';
import { kindFor } from './errors.js';
import {
  backoffDelayMs,
  DEFAULT_RETRY,
  isRetryableStatus,
  resolveRetryOptions,
  retryAfterMs,
} from './retry.js';

describe('retryAfterMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it.each([
    { headers: { 'retry-after-ms': '250' }, ms: 250, why: 'milliseconds header' },
    { headers: { 'retry-after-ms': '40', 'retry-after': '9' }, ms: 40, why: 'ms header wins over seconds' },
    { headers: { 'retry-after': '2' }, ms: 2000, why: 'seconds' },
    { headers: { 'retry-after': '0.5' }, ms: 500, why: 'fractional seconds' },
    { headers: { 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }, ms: 3000, why: 'HTTP date' },
    { headers: { 'retry-after': 'soon' }, ms: undefined, why: 'garbage is ignored' },
    { headers: {}, ms: undefined, why: 'no header' },
  ])('$why', ({ headers, ms }) => {
    expect(retryAfterMs(headers as Record<string, string>, now)).toBe(ms);
  });
});

describe('isRetryableStatus', () => {
  it.each([
    { status: 429, headers: {}, retry: true, why: 'rate limit' },
    { status: 529, headers: {}, retry: true, why: 'overloaded' },
    { status: 500, headers: {}, retry: true, why: 'server error' },
    { status: 503, headers: {}, retry: true, why: 'unavailable' },
    { status: 408, headers: {}, retry: true, why: 'request timeout' },
    { status: undefined, headers: {}, retry: true, why: 'no response: connection error' },
    { status: 400, headers: {}, retry: false, why: 'invalid request' },
    { status: 401, headers: {}, retry: false, why: 'refused key' },
    { status: 404, headers: {}, retry: false, why: 'unknown model' },
    { status: 500, headers: { 'x-should-retry': 'false' }, retry: false, why: 'the server says no' },
    { status: 400, headers: { 'x-should-retry': 'true' }, retry: true, why: 'the server says yes' },
  ])('$status → $retry ($why)', ({ status, headers, retry }) => {
    expect(isRetryableStatus(status, headers as Record<string, string>)).toBe(retry);
  });
});

describe('backoffDelayMs', () => {
  it('doubles from the base, caps at maxDelayMs, and jitter only shortens', () => {
    const opts = resolveRetryOptions({ baseDelayMs: 100, maxDelayMs: 1000, jitter: 0.5 });
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelayMs(n, opts, () => 0))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
    expect(backoffDelayMs(3, opts, () => 1)).toBe(200);
  });

  it('validates options', () => {
    expect(resolveRetryOptions()).toEqual(DEFAULT_RETRY);
    expect(() => resolveRetryOptions({ maxRetries: -1 })).toThrow(TypeError);
    expect(() => resolveRetryOptions({ jitter: 2 })).toThrow(/at most 1/);
    expect(() => resolveRetryOptions({ baseDelayMs: Number.POSITIVE_INFINITY })).toThrow(TypeError);
  });
});

describe('kindFor', () => {
  it.each([
    { status: 529, type: undefined, message: '', kind: 'overloaded' },
    { status: 503, type: 'overloaded_error', message: '', kind: 'overloaded' },
    {
      status: 400,
      type: 'invalid_request_error',
      message: 'prompt is too long: 300000 tokens',
      kind: 'prompt_too_long',
    },
    {
      status: 400,
      type: 'invalid_request_error',
      message: 'messages: field required',
      kind: 'invalid_request',
    },
    { status: undefined, type: 'overloaded_error', message: '', kind: 'overloaded' },
    { status: undefined, type: 'rate_limit_exceeded', message: '', kind: 'rate_limit' },
    { status: undefined, type: 'something_new', message: '', kind: 'server' },
  ] as const)('$status/$type → $kind', ({ status, type, message, kind }) => {
    expect(kindFor(status, type, message)).toBe(kind);
  });
});
