/**
 * `Sleep`: waits a given number of milliseconds, then reports how long it waited. A conditional
 * tool behind the `SLEEP` feature flag (`GANTRY_FEATURE_SLEEP=1`), mirroring docs/architecture.md where
 * SleepTool is loaded only under `feature('PROACTIVE')`: the wait of a self-paced session between
 * two checks (docs/scheduling.md).
 *
 * Sequence: yield one progress event when the wait starts → wait `duration_ms`, ending early when
 * something arrives for the model (the person's next message, a background task's notification,
 * a scheduled prompt: `services.inbox.whenPending`) or the call is aborted → return
 * `{ sleptMs, wokenEarly? }`. Read-only and concurrency-safe: it touches nothing.
 */
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import { AbortError, buildTool, type PendingKind } from '../../core/index.js';
import { sleepDescriber } from './describe.js';

/** Longest wait accepted, in ms (10 minutes, the longest Bash timeout; the Claude Code tools reference). */
export const SLEEP_MAX_DURATION_MS = 600_000;

const SleepInput = z.strictObject({
  duration_ms: z
    .number()
    .int()
    .min(0)
    .max(SLEEP_MAX_DURATION_MS)
    .describe(`How long to wait, in milliseconds (0 to ${SLEEP_MAX_DURATION_MS}).`),
});

export type SleepInput = z.infer<typeof SleepInput>;
export interface SleepOutput {
  sleptMs: number;
  /** True when the wait ended before `duration_ms` because something arrived for the model. */
  wokenEarly?: boolean;
  /** What ended it: a message or delivery (in the next request), or a scheduled prompt (after the turn). */
  wokenBy?: PendingKind;
}
export interface SleepProgress {
  type: 'sleep-started';
  durationMs: number;
}

/**
 * Resolves `'timer'` after `ms`, or what `arrival` found as soon as it finds something, or rejects
 * with AbortError as soon as `signal` aborts.
 */
function wait(
  ms: number,
  signal: AbortSignal,
  arrival: ((signal: AbortSignal) => Promise<PendingKind | undefined>) | undefined,
): Promise<'timer' | PendingKind> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new AbortError('Sleep was aborted before it started.'));
      return;
    }
    // Ends the arrival watch whichever way the wait ends.
    const watch = new AbortController();
    const finish = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      watch.abort();
    };
    const onAbort = () => {
      finish();
      reject(new AbortError('Sleep was aborted.'));
    };
    const timer = setTimeout(() => {
      finish();
      resolve('timer');
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
    arrival?.(watch.signal).then(
      (found) => {
        if (!found || watch.signal.aborted) return;
        finish();
        resolve(found);
      },
      () => undefined,
    );
  });
}

export const SleepTool = buildTool({
  name: 'Sleep',
  description:
    'Wait for a given number of milliseconds before continuing. Use it when you must wait for something ' +
    'outside your control (a server starting, a file appearing) and have nothing else to do meanwhile. ' +
    'The wait ends early when a new message or a background task notification arrives. ' +
    'Prefer doing useful work over sleeping.',
  inputSchema: SleepInput,
  maxResultSizeChars: 1_000,
  isReadOnly: sleepDescriber.isReadOnly,
  isConcurrencySafe: (_input: SleepInput) => true,
  userFacingName: () => 'Sleep',
  toAutoClassifierInput: sleepDescriber.toAutoClassifierInput,
  async describeCall(input: SleepInput, context) {
    return sleepDescriber.describe(input, describeWorldOf(context));
  },
  async *call(input: SleepInput, context) {
    const startedAtMs = Date.now();
    yield { type: 'sleep-started', durationMs: input.duration_ms } satisfies SleepProgress;
    const inbox = context.services.inbox;
    const ended = await wait(
      input.duration_ms,
      context.abortController.signal,
      inbox?.whenPending ? (signal) => inbox.whenPending?.(signal) ?? Promise.resolve(undefined) : undefined,
    );
    const sleptMs = Date.now() - startedAtMs;
    const data: SleepOutput = ended === 'timer' ? { sleptMs } : { sleptMs, wokenEarly: true, wokenBy: ended };
    return { data };
  },
  mapToolResultToContent: (output: SleepOutput) =>
    output.wokenBy === 'scheduled'
      ? `Woke after ${output.sleptMs} ms: a scheduled prompt is due. End your turn to receive it.`
      : output.wokenEarly
        ? `Woke after ${output.sleptMs} ms: a message or a notification arrived for you.`
        : `Slept for ${output.sleptMs} ms.`,
});
