/**
 * The clock the scheduling tools (ScheduleWakeup, the Cron tools) read and set timers on, so tests
 * inject their own (src/testing/schedule-clock.ts) and never wait a real minute. See
 * docs/scheduling.md.
 *
 * - `realClock`: `Date.now()` and `setTimeout`. Timers are *not* unref'd: a pending wake-up keeps a
 *   `gantry -p` process alive (the session disposes every timer when it ends).
 * - `speedUpClock(factor)`: wall time run `factor` times faster from the moment it is made (virtual
 *   time = start + elapsed × factor); `GANTRY_SCHEDULE_SPEEDUP=<factor>` picks it for a whole
 *   process (demos and the end-to-end tests of `gantry -p`).
 *
 * Long delays: a timer further away than {@link MAX_TIMER_CHUNK_MS} is set in chunks and re-checked
 * against `now()` at each step (`setTimeout` overflows past ~24.8 days, and a laptop that slept
 * must not fire late by a whole chunk).
 */

/** A timer that can be cancelled (idempotent). */
export interface ClockTimer {
  cancel(): void;
}

export interface ScheduleClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once after `delayMs` (≥ 0) of this clock's time. */
  setTimer(fn: () => void, delayMs: number): ClockTimer;
}

/** The longest single timer step (ms): one hour. */
export const MAX_TIMER_CHUNK_MS = 60 * 60_000;

export const realClock: ScheduleClock = {
  now: () => Date.now(),
  setTimer(fn, delayMs) {
    const timer = setTimeout(fn, Math.max(0, delayMs));
    return { cancel: () => clearTimeout(timer) };
  },
};

/** Wall time run `factor` (> 0) times faster, starting now. */
export function speedUpClock(factor: number): ScheduleClock {
  if (!(factor > 0) || !Number.isFinite(factor))
    throw new RangeError(`speed-up factor must be > 0, got ${factor}`);
  const startReal = Date.now();
  return {
    now: () => startReal + (Date.now() - startReal) * factor,
    setTimer(fn, delayMs) {
      const timer = setTimeout(fn, Math.max(0, delayMs) / factor);
      return { cancel: () => clearTimeout(timer) };
    },
  };
}

let processClock: ScheduleClock | undefined;

/**
 * The clock of this process: {@link speedUpClock} when `GANTRY_SCHEDULE_SPEEDUP` is a number > 1,
 * else {@link realClock}. Read once.
 */
export function defaultScheduleClock(env: Record<string, string | undefined> = process.env): ScheduleClock {
  if (processClock) return processClock;
  const factor = Number(env.GANTRY_SCHEDULE_SPEEDUP);
  processClock = Number.isFinite(factor) && factor > 1 ? speedUpClock(factor) : realClock;
  return processClock;
}

/**
 * Calls `fn` once `clock.now()` has reached `dueAtMs` (at once when it has), stepping in chunks of
 * at most {@link MAX_TIMER_CHUNK_MS}.
 */
export function setTimerAt(clock: ScheduleClock, dueAtMs: number, fn: () => void): ClockTimer {
  let current: ClockTimer | undefined;
  let cancelled = false;
  const step = () => {
    if (cancelled) return;
    const left = dueAtMs - clock.now();
    if (left <= 0) {
      fn();
      return;
    }
    current = clock.setTimer(step, Math.min(left, MAX_TIMER_CHUNK_MS));
  };
  const left = dueAtMs - clock.now();
  current = clock.setTimer(step, Math.max(0, Math.min(left, MAX_TIMER_CHUNK_MS)));
  return {
    cancel() {
      cancelled = true;
      current?.cancel();
    },
  };
}
