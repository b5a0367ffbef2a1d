/**
 * A session's cron jobs (CronCreate / CronDelete / CronList): each job waits for its next fire
 * time on the session's clock and, when it comes, hands its prompt to the loop as a turn of its
 * own (`services.inbox.deliver` with source `schedule_wakeup`, wrapped so it never reads as the
 * person's words). Rules (docs/scheduling.md):
 *
 * - one-shot (`recurring: false`): fires once at the next matching time, then is gone;
 * - recurring: fires at every matching time until {@link CRON_MAX_AGE_MS} after its creation,
 *   then is gone; a fire that comes due while a turn runs waits for the turn to end;
 * - durable: also kept in the project's scheduled-tasks file (durable-store.ts); a later session
 *   in the project loads it (`loadDurable`) and fires, once, a job whose time came while no session
 *   ran. Before firing a durable job the file is checked, so two sessions of one project do not
 *   both fire the same slot (the one that records it first fires). Only jobs signed with this
 *   user's key (job-signature.ts) are loaded: a file that came with a repository fires nothing;
 * - a session-only job (not durable) keeps a `gantry -p` session open until its next fire
 *   (`services.inbox.hold`, bounded by the host's background wait): it exists nowhere else.
 *   Durable jobs do not: they are saved, and a later session in the project runs them;
 * - `dispose()` (the session's end) cancels every timer and releases every hold.
 */
import { randomBytes } from 'node:crypto';
import type { SessionDisposable, SessionInbox } from '../../core/services.js';
import { type ClockTimer, type ScheduleClock, setTimerAt } from '../scheduling/clock.js';
import { scheduledPromptText } from '../scheduling/session-state.js';
import { assertFires, humanSchedule, type ParsedCron, parseCron } from './cron-expression.js';
import { type DurableJobRecord, readDurableJobs, updateDurableJobs } from './durable-store.js';
import { defaultSigningKeyFile, loadSigningKey, signJob, verifyJob } from './job-signature.js';

/** How long a recurring job lives (ms): 30 days. */
export const CRON_MAX_AGE_MS = 30 * 24 * 60 * 60_000;
/** Most jobs one session keeps (memory stays bounded). */
export const MAX_CRON_JOBS = 50;

export interface CronJobView {
  id: string;
  cron: string;
  humanSchedule: string;
  prompt: string;
  recurring: boolean;
  durable: boolean;
  /** Epoch ms of the next fire; absent when none is left. */
  nextFireAt?: number;
  /** Epoch ms after which a recurring job is gone. */
  expiresAt?: number;
}

interface Job {
  id: string;
  cron: ParsedCron;
  prompt: string;
  recurring: boolean;
  durable: boolean;
  createdAtMs: number;
  lastFiredAtMs?: number;
  /** Session-only: its pending fire holds a `-p` session open. */
  holdsSession: boolean;
  nextFireAt?: number;
  timer?: ClockTimer;
  release?: () => void;
}

export interface CreateJobInput {
  cron: string;
  prompt: string;
  recurring: boolean;
  durable: boolean;
}

export class CronState implements SessionDisposable {
  private readonly jobs = new Map<string, Job>();
  /** Fires and file updates still running (awaited by `idle()` and `dispose()`). */
  private readonly inFlight = new Set<Promise<unknown>>();
  private disposed = false;

  constructor(
    private readonly clock: ScheduleClock,
    private readonly inbox: SessionInbox,
    /** The project's scheduled-tasks file. */
    readonly durableFile: string,
    /** The key durable jobs are signed with (job-signature.ts). */
    private readonly keyFile: string = defaultSigningKeyFile(),
  ) {}

  /** Creates a job. @throws CronPatternError for a bad expression, Error when full or the file fails. */
  async create(input: CreateJobInput): Promise<CronJobView> {
    if (this.disposed) throw new Error('the session has ended; no cron job can be created');
    if (this.jobs.size >= MAX_CRON_JOBS)
      throw new Error(`this session already has ${MAX_CRON_JOBS} cron jobs; delete one first (CronDelete)`);
    const cron = parseCron(input.cron);
    const now = this.clock.now();
    assertFires(cron, now);
    const job: Job = {
      id: randomBytes(4).toString('hex'),
      cron,
      prompt: input.prompt,
      recurring: input.recurring,
      durable: input.durable,
      createdAtMs: now,
      holdsSession: !input.durable,
    };
    if (job.durable) {
      const key = await loadSigningKey(this.keyFile, { create: true });
      if (!key) throw new Error(`no signing key at ${this.keyFile}`);
      const record = toRecord(job, key);
      await updateDurableJobs(this.durableFile, (jobs) => [...jobs.filter((j) => j.id !== job.id), record]);
    }
    this.jobs.set(job.id, job);
    this.arm(job, now);
    return this.view(job);
  }

  /** Deletes a job of this session (and from the file when durable); false when the id is unknown. */
  async delete(id: string): Promise<boolean> {
    const job = this.jobs.get(id);
    if (!job) return false;
    this.drop(job);
    if (job.durable) await updateDurableJobs(this.durableFile, (jobs) => jobs.filter((j) => j.id !== id));
    return true;
  }

  list(): CronJobView[] {
    return [...this.jobs.values()].map((j) => this.view(j));
  }

  /**
   * Loads the durable jobs of the project's file that this session does not have yet: drops the
   * expired ones (from the file too), fires once each job whose time came since it last fired,
   * arms the rest. Resolves with what happened and the records it could not read.
   */
  async loadDurable(): Promise<{ loaded: number; firedNow: number; expired: number; problems: string[] }> {
    const records = await readDurableJobs(this.durableFile);
    const key = records.length ? await loadSigningKey(this.keyFile, { create: false }) : undefined;
    const now = this.clock.now();
    const expired: string[] = [];
    const problems: string[] = [];
    const due: { job: Job; slot: number }[] = [];
    let loaded = 0;
    for (const r of records) {
      if (this.jobs.has(r.id)) continue;
      if (!key || !verifyJob(r, key)) {
        problems.push(
          `job ${r.id} in ${this.durableFile} was not saved by your Gantry (no valid signature), so it does not run; recreate it with CronCreate if you want it`,
        );
        continue;
      }
      let cron: ParsedCron;
      try {
        cron = parseCron(r.cron);
      } catch (error) {
        problems.push(`job ${r.id}: ${(error as Error).message}`);
        continue;
      }
      const createdAtMs = Date.parse(r.createdAt);
      if (r.recurring && now >= createdAtMs + CRON_MAX_AGE_MS) {
        expired.push(r.id);
        continue;
      }
      const job: Job = {
        id: r.id,
        cron,
        prompt: r.prompt,
        recurring: r.recurring,
        durable: true,
        createdAtMs,
        ...(r.lastFiredAt ? { lastFiredAtMs: Date.parse(r.lastFiredAt) } : {}),
        holdsSession: false,
      };
      this.jobs.set(job.id, job);
      loaded++;
      const slot = cron.nextAfter(job.lastFiredAtMs ?? createdAtMs);
      if (slot !== undefined && slot <= now && !this.pastExpiry(job, slot)) due.push({ job, slot });
      else this.arm(job, now);
    }
    if (expired.length)
      await updateDurableJobs(this.durableFile, (jobs) => jobs.filter((j) => !expired.includes(j.id)));
    for (const { job, slot } of due) await this.fire(job, slot);
    return { loaded, firedNow: due.length, expired: expired.length, problems };
  }

  private pastExpiry(job: Job, atMs: number): boolean {
    return job.recurring && atMs > job.createdAtMs + CRON_MAX_AGE_MS;
  }

  /** Sets the job's timer for its next fire after `afterMs`, or drops it when none is left. */
  private arm(job: Job, afterMs: number): void {
    if (this.disposed) return;
    const next = job.cron.nextAfter(afterMs);
    if (next === undefined || this.pastExpiry(job, next)) {
      this.drop(job);
      if (job.durable)
        void this.track(updateDurableJobs(this.durableFile, (jobs) => jobs.filter((j) => j.id !== job.id)));

      return;
    }
    const previousRelease = job.release;
    job.release = undefined;
    if (job.holdsSession) {
      const held = new Promise<void>((resolve) => {
        job.release = resolve;
      });
      this.inbox.hold(held);
    }
    previousRelease?.();
    job.nextFireAt = next;
    job.timer = setTimerAt(this.clock, next, () => void this.track(this.fire(job, next)));
  }

  private async fire(job: Job, slot: number): Promise<void> {
    if (this.disposed || this.jobs.get(job.id) !== job) return;
    job.timer = undefined;
    if (job.durable) {
      const claimed = await this.claimSlot(job, slot);
      if (claimed === 'gone') return this.drop(job);
      if (claimed === 'taken') return this.arm(job, Math.max(slot, this.clock.now()));
    }
    if (this.disposed || this.jobs.get(job.id) !== job) return;
    try {
      this.inbox.deliver(scheduledPromptText({ kind: 'cron', label: job.id }, job.prompt), {
        source: 'schedule_wakeup',
      });
    } catch {
      // The session ended: stop every timer.
      void this.dispose();
      return;
    }
    job.lastFiredAtMs = slot;
    if (!job.recurring) this.drop(job);
    else this.arm(job, Math.max(slot, this.clock.now()));
  }

  /**
   * Records in the file that `slot` of a durable job fired (or removes a one-shot job): `taken`
   * when another session recorded it first, `gone` when the job left the file (deleted elsewhere).
   * A file that cannot be read or written does not stop the fire.
   */
  private async claimSlot(job: Job, slot: number): Promise<'ok' | 'taken' | 'gone'> {
    let outcome: 'ok' | 'taken' | 'gone' = 'ok';
    try {
      await updateDurableJobs(this.durableFile, (jobs) => {
        const record = jobs.find((j) => j.id === job.id);
        if (!record) {
          outcome = 'gone';
          return undefined;
        }
        if (record.lastFiredAt && Date.parse(record.lastFiredAt) >= slot) {
          outcome = 'taken';
          return undefined;
        }
        if (!job.recurring) return jobs.filter((j) => j.id !== job.id);
        return jobs.map((j) => (j.id === job.id ? { ...j, lastFiredAt: new Date(slot).toISOString() } : j));
      });
    } catch {
      outcome = 'ok';
    }
    return outcome;
  }

  /** Forgets a job here: cancels its timer and releases its hold. */
  private drop(job: Job): void {
    job.timer?.cancel();
    job.timer = undefined;
    job.nextFireAt = undefined;
    const release = job.release;
    job.release = undefined;
    if (this.jobs.get(job.id) === job) this.jobs.delete(job.id);
    release?.();
  }

  private view(job: Job): CronJobView {
    return {
      id: job.id,
      cron: job.cron.expression,
      humanSchedule: humanSchedule(job.cron.expression),
      prompt: job.prompt,
      recurring: job.recurring,
      durable: job.durable,
      ...(job.nextFireAt !== undefined ? { nextFireAt: job.nextFireAt } : {}),
      ...(job.recurring ? { expiresAt: job.createdAtMs + CRON_MAX_AGE_MS } : {}),
    };
  }

  /** Runs `work` in the background, remembered until it settles; never rejects. */
  private track(work: Promise<unknown>): Promise<void> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.add(settled);
    void settled.then(() => this.inFlight.delete(settled));
    return settled;
  }

  /** Resolves once no fire or file update is running. */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  /** Cancels every timer, releases every hold, then waits for file updates still running. */
  async dispose(): Promise<void> {
    if (!this.disposed) {
      this.disposed = true;
      for (const job of [...this.jobs.values()]) this.drop(job);
    }
    await this.idle();
  }
}

function toRecord(job: Job, key: Buffer): DurableJobRecord {
  const signed = { id: job.id, cron: job.cron.expression, prompt: job.prompt, recurring: job.recurring };
  return {
    ...signed,
    createdAt: new Date(job.createdAtMs).toISOString(),
    ...(job.lastFiredAtMs !== undefined ? { lastFiredAt: new Date(job.lastFiredAtMs).toISOString() } : {}),
    signature: signJob(signed, key),
  };
}
