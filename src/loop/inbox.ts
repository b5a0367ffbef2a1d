/**
 * The prompts waiting for a session's loop (`query()`): filled by the prompt option's pump, by
 * `pushInput`, and by deliveries (a background agent's notification or a scheduled prompt for an
 * idle loop). While work the session waits for is outstanding (`hold`: a background agent, a
 * pending wake-up), the end of the input does not end the session.
 *
 * Arrivals: `onArrival` listeners hear of every message added, so a tool that waits inside a turn
 * (Sleep, through `services.inbox.whenPending`) can stop waiting when the person types.
 */
import { callQuietly } from './session.js';
import type { UserInputMessage } from './types.js';

export class Inbox {
  private readonly items: UserInputMessage[] = [];
  private waiter: ((m: UserInputMessage | undefined) => void) | undefined;
  private readonly arrivalListeners = new Set<() => void>();
  private holds = 0;
  closed = false;

  push(m: UserInputMessage): void {
    if (this.closed) throw new Error('query: input has ended; pushInput() is no longer possible');
    this.deliver(m);
  }

  /** Callbacks of delivered messages, called when the loop takes them (`SessionInbox.deliver`). */
  private readonly onTaken = new WeakMap<UserInputMessage, () => void>();

  /** Adds a message even after the input ended (the loop itself produced it). */
  deliver(m: UserInputMessage, onTaken?: () => void): void {
    this.setOnTaken(m, onTaken);
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w(this.taken(m));
    } else this.items.push(m);
    this.announce();
  }

  /** Remembers `onTaken` for `m`, called once when the loop takes `m` (a message kept elsewhere first). */
  setOnTaken(m: UserInputMessage, onTaken: (() => void) | undefined): void {
    if (onTaken) this.onTaken.set(m, onTaken);
  }

  /** Calls `m`'s taken callback (once) and returns `m`. */
  private taken(m: UserInputMessage): UserInputMessage {
    const f = this.onTaken.get(m);
    if (f) {
      this.onTaken.delete(m);
      callQuietly(f);
    }
    return m;
  }

  /** True while a message waits to be taken. */
  get hasItems(): boolean {
    return this.items.length > 0;
  }

  /** Calls `listener` on every later arrival until the returned function is called. */
  onArrival(listener: () => void): () => void {
    this.arrivalListeners.add(listener);
    return () => this.arrivalListeners.delete(listener);
  }

  /** Tells the listeners something arrived (also used for deliveries kept outside the queue). */
  announce(): void {
    for (const listener of [...this.arrivalListeners]) listener();
  }

  /** Keeps the session open until `until` settles (or `maxMs` passes). */
  hold(until: Promise<unknown>, maxMs: number): void {
    this.holds++;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, maxMs);
      timer.unref?.();
    });
    void Promise.race([until.then(noop, noop), bound]).then(() => {
      clearTimeout(timer);
      this.holds--;
      if (this.holds === 0 && this.closed && this.items.length === 0) this.wake(undefined);
    });
  }

  private wake(m: UserInputMessage | undefined): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.(m);
  }

  close(): void {
    this.closed = true;
    if (this.holds === 0) this.wake(undefined);
  }

  /** Ends the session now, whatever it was waiting for (abort, `close()`). */
  closeNow(): void {
    this.closed = true;
    this.holds = 0;
    this.wake(undefined);
    this.announce();
    this.arrivalListeners.clear();
  }

  /**
   * Takes the waiting messages a running turn may fold into its next request; scheduled prompts
   * (messages with a `source`) stay queued, each to become a turn of its own.
   */
  takeAll(): UserInputMessage[] {
    const taken = this.items.filter((m) => !m.source);
    if (taken.length === 0) return [];
    const kept = this.items.filter((m) => m.source);
    this.items.splice(0, this.items.length, ...kept);
    return taken.map((m) => this.taken(m));
  }

  next(): Promise<UserInputMessage | undefined> {
    const m = this.items.shift();
    if (m) return Promise.resolve(this.taken(m));
    if (this.closed && this.holds === 0) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }
}

const noop = (): void => undefined;
