/**
 * A stream-idle watchdog: runs one streamed HTTP call under its own AbortController, linked to the
 * caller's signal, and aborts it when no event arrives for `idleMs`. A stalled connection thus ends
 * in an `IdleTimeoutError` (a `connection` failure) instead of a hang. The clock runs only while
 * waiting for the next event, never while the consumer handles one. The call's controller is
 * aborted when the stream ends for any reason, which releases the connection.
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

/** Starts the call with `start(signal)` and yields its events under the watchdog. */
export async function* withIdleTimeout<E>(
  idleMs: number,
  signal: AbortSignal | undefined,
  start: (signal: AbortSignal) => Promise<AsyncIterable<E>>,
): AsyncGenerator<E, void, undefined> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  let fired = false;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      fired = true;
      controller.abort(new IdleTimeoutError(idleMs));
    }, idleMs);
  };
  try {
    const source = await start(controller.signal);
    arm();
    for await (const event of source) {
      clearTimeout(timer);
      yield event;
      arm();
    }
  } catch (error) {
    if (fired) throw new IdleTimeoutError(idleMs, { cause: error });
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    controller.abort();
  }
}
