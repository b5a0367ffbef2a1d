/**
 * The admission gate: the one place the concurrency rule is written. One gate per session; every
 * turn of the session (the main loop's, its sub-agents', each MCP request's) asks it before a call
 * starts.
 *
 * The rule:
 * - calls are admitted in the order they were queued (first come, first served, across turns), so
 *   within a turn start order is call order;
 * - a concurrency-safe call starts when no unsafe call is running and fewer than `limit` safe
 *   calls are running;
 * - an unsafe call starts only when nothing is running, and nothing starts while it runs;
 * - a queued call that cannot start blocks every call queued after it (no overtaking), so
 *   consecutive safe calls run together and an unsafe call runs alone.
 *
 * Delegation: a call that runs turns of its own (the Agent tool driving a sub-agent) would
 * otherwise deadlock the session: its sub-agent's calls would wait for it to end. While a turn runs
 * on behalf of a running call (its context descends from that call's context), that call does not
 * count as running; it counts again once its last nested turn has ended (it then resumes without
 * waiting: it is already running).
 */

/** A call waiting for admission. */
export interface AdmissionRequest {
  readonly toolUseId: string;
  readonly concurrencySafe: boolean;
  /** Called once, synchronously, when the call is admitted. Must not throw. */
  start(permit: Permit): void;
}

/** The right to run, held by one admitted call until `release()`. */
export interface Permit {
  readonly toolUseId: string;
  readonly concurrencySafe: boolean;
  /** Ends the call's admission (idempotent); queued calls that may now start are admitted. */
  release(): void;
}

/** A queued request that has not started yet; `cancel()` removes it (false when it already started). */
export interface QueuedAdmission {
  cancel(): boolean;
}

class GatePermit implements Permit {
  released = false;
  /** Turns running on behalf of this call; while > 0 the call does not count as running. */
  nested = 0;
  constructor(
    readonly gate: AdmissionGate,
    readonly toolUseId: string,
    readonly concurrencySafe: boolean,
  ) {}

  release(): void {
    this.gate.release(this);
  }
}

class Waiter implements QueuedAdmission {
  state: 'queued' | 'started' | 'cancelled' = 'queued';
  constructor(
    readonly gate: AdmissionGate,
    readonly request: AdmissionRequest,
  ) {}

  cancel(): boolean {
    if (this.state !== 'queued') return false;
    this.state = 'cancelled';
    this.gate.cancelled();
    return true;
  }
}

export class AdmissionGate {
  /** Safe calls counted as running. */
  private runningSafe = 0;
  /** Unsafe calls counted as running (0 or 1, except while a delegating call resumes). */
  private runningUnsafe = 0;
  private readonly queue: Waiter[] = [];
  private head = 0;
  private pumping = false;

  /** @param limit - the most concurrency-safe calls running at once (a positive integer). */
  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new RangeError(`the admission limit must be a positive integer, got ${limit}`);
    }
  }

  /** Calls counted as running now (delegating calls excluded). */
  get running(): number {
    return this.runningSafe + this.runningUnsafe;
  }

  /** Calls waiting to be admitted. */
  get waiting(): number {
    let n = 0;
    for (let i = this.head; i < this.queue.length; i++) if ((this.queue[i] as Waiter).state === 'queued') n++;
    return n;
  }

  /** Queues a call; `request.start` runs when it is admitted (possibly before `enqueue` returns). */
  enqueue(request: AdmissionRequest): QueuedAdmission {
    const waiter = new Waiter(this, request);
    this.queue.push(waiter);
    this.pump();
    return waiter;
  }

  /**
   * Admits a call at once when no call is waiting and the rule lets it start now (the usual case
   * of a one-call turn); undefined otherwise, and the caller queues it with `enqueue`. Same rule,
   * same order: nothing waiting means nothing is overtaken. Makes no queue entry.
   */
  tryAdmit(toolUseId: string, concurrencySafe: boolean): Permit | undefined {
    if (this.pumping || this.head < this.queue.length || !this.canStart(concurrencySafe)) return undefined;
    const permit = new GatePermit(this, toolUseId, concurrencySafe);
    this.count(permit);
    return permit;
  }

  /** A queued call was cancelled: the calls behind it may start now. */
  cancelled(): void {
    this.pump();
  }

  /** True when `permit` is a live permit of this gate (a context's `runningCall` may come from elsewhere). */
  owns(permit: unknown): permit is Permit {
    return permit instanceof GatePermit && permit.gate === this && !permit.released;
  }

  /**
   * A turn starts on behalf of the running call `permit`: the call stops counting as running until
   * the returned function is called (once, when the turn ends).
   */
  delegate(permit: Permit): () => void {
    if (!(permit instanceof GatePermit) || permit.gate !== this || permit.released) return () => undefined;
    if (permit.nested++ === 0) {
      this.uncount(permit);
      this.pump();
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--permit.nested === 0 && !permit.released) this.count(permit);
      this.pump();
    };
  }

  /** Ends a permit's admission. */
  release(permit: GatePermit): void {
    if (permit.released) return;
    permit.released = true;
    if (permit.nested === 0) this.uncount(permit);
    this.pump();
  }

  private count(permit: GatePermit): void {
    if (permit.concurrencySafe) this.runningSafe++;
    else this.runningUnsafe++;
  }

  private uncount(permit: GatePermit): void {
    if (permit.concurrencySafe) this.runningSafe--;
    else this.runningUnsafe--;
  }

  private canStart(concurrencySafe: boolean): boolean {
    if (concurrencySafe) return this.runningUnsafe === 0 && this.runningSafe < this.limit;
    return this.runningUnsafe === 0 && this.runningSafe === 0;
  }

  /** Admits queued calls from the head while the rule allows. Re-entrant calls are folded into the running loop. */
  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.head < this.queue.length) {
        const waiter = this.queue[this.head] as Waiter;
        if (waiter.state !== 'queued') {
          this.head++;
          continue;
        }
        if (!this.canStart(waiter.request.concurrencySafe)) break;
        this.head++;
        const permit = new GatePermit(this, waiter.request.toolUseId, waiter.request.concurrencySafe);
        this.count(permit);
        waiter.state = 'started';
        try {
          waiter.request.start(permit);
        } catch {
          // `start` must not throw; if it does, the call never ran: free its place so the gate lives on.
          permit.released = true;
          this.uncount(permit);
        }
      }
    } finally {
      if (this.head > 256 && this.head * 2 > this.queue.length) {
        this.queue.splice(0, this.head);
        this.head = 0;
      } else if (this.head === this.queue.length) {
        this.queue.length = 0;
        this.head = 0;
      }
      this.pumping = false;
    }
  }
}
