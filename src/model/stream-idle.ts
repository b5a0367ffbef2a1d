/**
 * A stream-idle watchdog: runs one streamed HTTP call under its own AbortController, linked to the
 * caller's signal, and aborts it when no event arrives for `idleMs`. A stalled connection thus ends
 * in an `IdleTimeoutError` (a `connection` failure) instead of a hang.
 *
 * - The clock runs only while waiting for the next event, never while the consumer handles one.
 *   It costs one timer per call, not one per event: each event only records the time, and the
 *   timer re-arms itself for what is left when it fires early.
 * - After the event `isFinal` accepts (the complete message), the rest of the response is
 *   drained so the connection can be reused, for at most `drainMs`; a server that keeps the
 *   response open past that is cut without an error (the message is already complete).
 * - The call's controller is aborted when the stream ends early for any reason, which releases
 *   the connection.
 */

/** No stream event arrived within the idle limit. */
export class IdleTimeoutError extends Error {
  override readonly name = 'IdleTimeoutError';
  constructor(
    readonly idleMs: number,
    options?: { cause?: unknown },
  ) {
    super(`no stream data for ${idleMs} ms`, options);
  }
}

export interface IdleOptions<E> {
  /** The event after which the response is complete (then only draining remains). */
  isFinal?: (event: E) => boolean;
  /** Longest drain after the final event, in ms (default 2,000). */
  drainMs?: number;
}

/** Starts the call with `start(signal)` and yields its events under the watchdog. */
export async function* withIdleTimeout<E>(
  idleMs: number,
  signal: AbortSignal | undefined,
  start: (signal: AbortSignal) => Promise<AsyncIterable<E>>,
  options: IdleOptions<E> = {},
): AsyncGenerator<E, void, undefined> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  const drainMs = options.drainMs ?? 2_000;
  let limit = idleMs;
  let waitingSince: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let fired = false;
  let final = false;
  let completed = false;
  const check = () => {
    timer = undefined;
    if (waitingSince === undefined) {
      timer = setTimeout(check, limit);
      return;
    }
    const left = limit - (performance.now() - waitingSince);
    if (left > 0) {
      timer = setTimeout(check, left);
      return;
    }
    if (!final) fired = true;
    controller.abort(final ? undefined : new IdleTimeoutError(idleMs));
  };
  try {
    const source = await start(controller.signal);
    waitingSince = performance.now();
    timer = setTimeout(check, limit);
    for await (const event of source) {
      waitingSince = undefined;
      if (!final && options.isFinal?.(event)) {
        final = true;
        limit = drainMs;
        clearTimeout(timer);
        timer = setTimeout(check, limit);
      }
      yield event;
      waitingSince = performance.now();
    }
    completed = true;
  } catch (error) {
    if (fired) throw new IdleTimeoutError(idleMs, { cause: error });
    if (!final) throw error;
    // A failure while draining a complete response is not the caller's concern.
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    if (!completed) controller.abort();
  }
}
