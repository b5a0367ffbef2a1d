/**
 * The one writer of stdout in stream-json mode: events, control requests and control responses all
 * go through it, one JSON object per line, in the order they were handed over.
 *
 * Backpressure: `write` resolves when the line is handed to the stream; when the stream's buffer is
 * full it waits for `drain`, so a slow reader slows the session instead of growing memory.
 * A closed reader (EPIPE) makes every later write a no-op; `closed` tells the session to stop.
 */
import type { Writable } from 'node:stream';

export class LineWriter {
  private chain: Promise<void> = Promise.resolve();
  private broken = false;

  constructor(private readonly stream: Writable) {
    stream.on('error', () => {
      this.broken = true;
    });
  }

  /** True once the reader went away. */
  get closed(): boolean {
    return this.broken;
  }

  /** Writes `JSON.stringify(value)` and a newline. */
  writeJson(value: unknown): Promise<void> {
    return this.writeRaw(`${JSON.stringify(value)}\n`);
  }

  /** Writes `text` as is (text output). */
  writeRaw(text: string): Promise<void> {
    this.chain = this.chain.then(() => this.put(text));
    return this.chain;
  }

  /** Resolves once everything handed over so far has been written out. */
  flush(): Promise<void> {
    this.chain = this.chain.then(
      () =>
        new Promise<void>((resolve) => {
          if (this.broken || this.stream.writableEnded) return resolve();
          this.stream.write('', () => resolve());
        }),
    );
    return this.chain;
  }

  private put(text: string): Promise<void> {
    if (this.broken || this.stream.writableEnded) return Promise.resolve();
    return new Promise((resolve) => {
      let ok: boolean;
      try {
        ok = this.stream.write(text);
      } catch {
        this.broken = true;
        return resolve();
      }
      if (ok) return resolve();
      const done = (): void => {
        this.stream.off('drain', done);
        this.stream.off('close', done);
        this.stream.off('error', done);
        resolve();
      };
      this.stream.once('drain', done);
      this.stream.once('close', done);
      this.stream.once('error', done);
    });
  }
}
