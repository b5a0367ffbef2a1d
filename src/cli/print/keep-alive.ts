/**
 * Keep-alive lines of `--input-format stream-json` (docs/cli-print.md "Control protocol"): while
 * the session waits for the host with nothing to do — no prompt has come yet, or the last prompt's
 * `result` is out and no other prompt is queued — one `{"type":"keep_alive"}` line is written every
 * `intervalMs`, so a transport between the host and Gantry (a pipe through a proxy, a remote
 * bridge) sees traffic. The Claude Agent SDK drops these lines without yielding them.
 *
 * The timer is one `setInterval`, unref'd (it never keeps the process alive), started by `start()`
 * and cleared by `stop()`; a line is only written while idle and while stdout is open.
 */
import type { LineWriter } from './line-writer.js';

/** Default interval between two keep-alive lines (ms). */
export const KEEP_ALIVE_DEFAULT_MS = 10_000;

/**
 * The interval from the environment: `GANTRY_KEEP_ALIVE_MS` (a whole number of ms; `0` turns the
 * lines off). Anything else (unset, not a number, negative) gives the default.
 */
export function keepAliveIntervalMs(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env.GANTRY_KEEP_ALIVE_MS?.trim();
  if (!raw || !/^\d+$/.test(raw)) return KEEP_ALIVE_DEFAULT_MS;
  return Number(raw);
}

export class KeepAlive {
  private timer: ReturnType<typeof setInterval> | undefined;
  private idle = true;
  private sent = 0;

  constructor(
    private readonly out: LineWriter,
    private readonly intervalMs: number,
  ) {}

  /** Lines written so far. */
  get count(): number {
    return this.sent;
  }

  /** Starts the timer (a no-op with an interval of 0 or when already started). */
  start(): void {
    if (this.timer || this.intervalMs <= 0) return;
    this.timer = setInterval(() => {
      if (!this.idle || this.out.closed) return;
      this.sent++;
      void this.out.writeJson({ type: 'keep_alive' });
    }, this.intervalMs);
    this.timer.unref();
  }

  /** A prompt came or a turn is running: no lines until `setIdle(true)`. */
  setIdle(idle: boolean): void {
    this.idle = idle;
  }

  /** Stops the timer for good. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.idle = false;
  }
}
