/**
 * A single-consumer async queue: producers `push` without waiting, the consumer iterates with
 * `for await`. `end()` finishes the iteration after the buffered items; `end(error)` makes the
 * iteration throw `error` after them.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting: ((value: void) => void) | undefined;
  private ended = false;
  private failure: { error: unknown } | undefined;

  push(item: T): void {
    if (this.ended) return;
    this.items.push(item);
    this.wake();
  }

  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    if (error !== undefined) this.failure = { error };
    this.wake();
  }

  private wake(): void {
    const resolve = this.waiting;
    this.waiting = undefined;
    resolve?.();
  }

  /** Buffered items are handed out without waiting; an empty queue waits for the next push or end. */
  [Symbol.asyncIterator](): AsyncIterator<T, void, void> {
    let read = 0;
    const next = async (): Promise<IteratorResult<T, void>> => {
      for (;;) {
        if (read < this.items.length) {
          const value = this.items[read] as T;
          read++;
          if (read > 1024) {
            this.items.splice(0, read);
            read = 0;
          }
          return { value, done: false };
        }
        if (this.ended) {
          if (this.failure) throw this.failure.error;
          return { value: undefined, done: true };
        }
        await new Promise<void>((resolve) => {
          this.waiting = resolve;
        });
      }
    };
    return { next };
  }
}
