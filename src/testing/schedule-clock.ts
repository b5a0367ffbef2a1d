/**
 * A clock for the scheduling tools' tests (tools/scheduling/clock.ts `ScheduleClock`): time moves
 * only when the test says so, so a 60-second wake-up or a 30-day expiry runs at once. Tests only.
 *
 * - `advance(ms)`: moves time forward, firing every timer that comes due on the way, in due order
 *   (a timer a fired callback sets is fired too when it is due within the advance);
 * - `auto: true`: every timer set fires on the next macrotask with time jumped to its due moment
 *   (for runs through the real loop, where the test cannot tell when to advance).
 */
import type { ClockTimer, ScheduleClock } from '../tools/scheduling/clock.js';

interface Pending {
  dueAtMs: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

export interface ManualClock extends ScheduleClock {
  advance(ms: number): void;
  /** Moves time to the earliest pending timer and fires it; false when none is pending. */
  runNext(): boolean;
  /** Timers not yet fired or cancelled. */
  readonly pendingTimers: number;
  /** Sets the time (forward only), firing what comes due. */
  setNow(ms: number): void;
}

export function manualClock(startMs: number, options: { auto?: boolean } = {}): ManualClock {
  let now = startMs;
  let seq = 0;
  const timers: Pending[] = [];
  const live = () => timers.filter((t) => !t.cancelled);
  const earliest = (): Pending | undefined =>
    live().sort((a, b) => a.dueAtMs - b.dueAtMs || a.seq - b.seq)[0];
  const fire = (t: Pending) => {
    t.cancelled = true;
    timers.splice(timers.indexOf(t), 1);
    t.fn();
  };
  const clock: ManualClock = {
    now: () => now,
    setTimer(fn, delayMs): ClockTimer {
      const t: Pending = { dueAtMs: now + Math.max(0, delayMs), seq: seq++, fn, cancelled: false };
      timers.push(t);
      if (options.auto)
        setImmediate(() => {
          if (t.cancelled) return;
          now = Math.max(now, t.dueAtMs);
          fire(t);
        });
      return {
        cancel: () => {
          if (t.cancelled) return;
          t.cancelled = true;
          timers.splice(timers.indexOf(t), 1);
        },
      };
    },
    advance(ms) {
      clock.setNow(now + ms);
    },
    setNow(target) {
      for (;;) {
        const next = earliest();
        if (!next || next.dueAtMs > target) break;
        now = Math.max(now, next.dueAtMs);
        fire(next);
      }
      now = Math.max(now, target);
    },
    runNext() {
      const next = earliest();
      if (!next) return false;
      now = Math.max(now, next.dueAtMs);
      fire(next);
      return true;
    },
    get pendingTimers() {
      return live().length;
    },
  };
  return clock;
}
