/** A promise with its resolve/reject exposed, for concurrency tests that control when things finish. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
  settled: boolean;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const d: Deferred<T> = {
    promise,
    settled: false,
    resolve(value) {
      d.settled = true;
      resolve(value);
    },
    reject(error) {
      d.settled = true;
      reject(error);
    },
  };
  return d;
}

/** Resolves after every already-queued microtask and one macrotask turn (lets promise chains settle). */
export function flushAsync(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Polls `predicate` across macrotask turns until true; throws after `maxTurns` (a bug, not a timing assertion). */
export async function waitUntil(predicate: () => boolean, what: string, maxTurns = 10_000): Promise<void> {
  for (let i = 0; i < maxTurns; i++) {
    if (predicate()) return;
    await flushAsync();
  }
  throw new Error(`waitUntil: never became true: ${what}`);
}
