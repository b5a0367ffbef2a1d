/**
 * The retry loop around one streamed model call, shared by the providers.
 *
 * - An attempt that fails before it yielded any event is retried when its failure is retryable
 *   and retries remain; a `retry` event (attempt number, delay, status, kind, message) comes first,
 *   then the wait, then the next attempt. So the events of a failed attempt are never yielded.
 * - Once an attempt has yielded an event, its failure is final: the consumer has already seen part
 *   of a message, and a silent restart would duplicate it. (With the Messages API, overload and
 *   rate limits arrive as HTTP statuses before the stream starts, so these are still retried.)
 * - Abort (the caller's signal) ends everything with ModelError `aborted`, during an attempt or a
 *   wait.
 */
import type { ModelError, ModelStreamEvent } from '../core/model-client.js';
import { abortedError, type ClassifiedFailure } from './errors.js';
import { abortableSleep, backoffDelayMs, type ResolvedRetryOptions } from './retry.js';

export interface RetryLoopOptions {
  retry: ResolvedRetryOptions;
  signal?: AbortSignal | undefined;
  /** Source of jitter (default Math.random). */
  random?: () => number;
}

/** Runs `attempt` until it succeeds or fails for good; see the module comment. */
export async function* streamWithRetries(
  attempt: (attemptNumber: number) => AsyncIterable<ModelStreamEvent>,
  classify: (error: unknown) => ClassifiedFailure,
  options: RetryLoopOptions,
): AsyncGenerator<ModelStreamEvent, void, undefined> {
  const { retry, signal } = options;
  for (let n = 0; ; n++) {
    if (signal?.aborted) throw abortedError(signal.reason);
    let yielded = false;
    let failure: ClassifiedFailure;
    try {
      for await (const event of attempt(n)) {
        yielded = true;
        yield event;
      }
      return;
    } catch (error) {
      if (signal?.aborted) throw abortedError(error);
      failure = classify(error);
    }
    const delay = nextDelay(failure, n + 1, options, yielded);
    if (delay === undefined) throw failure.error;
    yield {
      type: 'retry',
      attempt: n + 1,
      maxRetries: retry.maxRetries,
      delayMs: delay,
      ...(failure.error.status !== undefined ? { status: failure.error.status } : {}),
      kind: failure.error.kind,
      message: failure.error.message,
    };
    await abortableSleep(delay, signal);
  }
}

/** Runs a non-streaming call with the same policy; `onRetry` sees what a stream would report. */
export async function callWithRetries<T>(
  call: (attemptNumber: number) => Promise<T>,
  classify: (error: unknown) => ClassifiedFailure,
  options: RetryLoopOptions & { onRetry?: (failure: ModelError, delayMs: number) => void },
): Promise<T> {
  for (let n = 0; ; n++) {
    if (options.signal?.aborted) throw abortedError(options.signal.reason);
    let failure: ClassifiedFailure;
    try {
      return await call(n);
    } catch (error) {
      if (options.signal?.aborted) throw abortedError(error);
      failure = classify(error);
    }
    const delay = nextDelay(failure, n + 1, options, false);
    if (delay === undefined) throw failure.error;
    options.onRetry?.(failure.error, delay);
    await abortableSleep(delay, options.signal);
  }
}

/** The wait before retry `attempt` (1-based), or undefined when the failure is final. */
function nextDelay(
  failure: ClassifiedFailure,
  attempt: number,
  options: RetryLoopOptions,
  yielded: boolean,
): number | undefined {
  const { retry } = options;
  if (yielded || !failure.retryable || attempt > retry.maxRetries) return undefined;
  if (failure.retryAfterMs !== undefined) {
    return failure.retryAfterMs > retry.maxRetryAfterMs ? undefined : failure.retryAfterMs;
  }
  return backoffDelayMs(attempt, retry, options.random);
}
