/**
 * A session's pending wake-up (ScheduleWakeup): at most one; a new one replaces the old. When it
 * comes due, its prompt is delivered to the loop as a turn of its own (`services.inbox.deliver`
 * with source `loop_wakeup`); until then `services.inbox.hold` keeps a `gantry -p` session open.
 * Stopping or disposing (the session's end) cancels the timer and releases the hold.
 */
import type { SessionDisposable, SessionInbox } from '../../core/services.js';
import { type ClockTimer, type ScheduleClock, setTimerAt } from '../scheduling/clock.js';
import { scheduledPromptText } from '../scheduling/session-state.js';

export interface PendingWakeup {
  dueAtMs: number;
  prompt: string;
  reason: string;
}

interface Armed extends PendingWakeup {
  timer: ClockTimer;
  /** Settles the hold that keeps the session open for this wake-up. */
  release(): void;
}

export class WakeupState implements SessionDisposable {
  private armed: Armed | undefined;
  private disposed = false;

  constructor(
    private readonly clock: ScheduleClock,
    private readonly inbox: SessionInbox,
  ) {}

  /** The wake-up waiting to come due, if any. */
  get pending(): PendingWakeup | undefined {
    const a = this.armed;
    return a ? { dueAtMs: a.dueAtMs, prompt: a.prompt, reason: a.reason } : undefined;
  }

  /** Arms a wake-up `delayMs` from now; returns true when it replaced a pending one. */
  schedule(delayMs: number, prompt: string, reason: string): boolean {
    if (this.disposed) throw new Error('the session has ended; no wake-up can be scheduled');
    const dueAtMs = this.clock.now() + delayMs;
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Hold for the new one before releasing the old, so the session never looks idle in between.
    this.inbox.hold(held);
    const replaced = this.cancel();
    const armed: Armed = {
      dueAtMs,
      prompt,
      reason,
      release,
      timer: setTimerAt(this.clock, dueAtMs, () => this.fire(armed)),
    };
    this.armed = armed;
    return replaced;
  }

  /** Cancels the pending wake-up; true when there was one. */
  cancel(): boolean {
    const a = this.armed;
    if (!a) return false;
    this.armed = undefined;
    a.timer.cancel();
    a.release();
    return true;
  }

  private fire(a: Armed): void {
    if (this.armed !== a) return;
    this.armed = undefined;
    try {
      this.inbox.deliver(scheduledPromptText({ kind: 'wakeup', label: a.reason }, a.prompt), {
        source: 'loop_wakeup',
      });
    } catch {
      // The session ended meanwhile: nobody is left to wake.
    } finally {
      a.release();
    }
  }

  dispose(): void {
    this.disposed = true;
    this.cancel();
  }
}
