/**
 * `Sleep`: waits a given number of milliseconds, then reports how long it waited. A conditional
 * tool behind the `SLEEP` feature flag (`GANTRY_FEATURE_SLEEP=1`), mirroring docs/architecture.md where
 * SleepTool is loaded only under `feature('PROACTIVE')`; it exists here to prove the registry's
 * feature-flag path (the module is imported only when the flag is on).
 *
 * Sequence: wait `duration_ms` (honouring the abort signal) → yield one progress event when the
 * wait starts → return `{ sleptMs }`. Read-only and concurrency-safe: it touches nothing.
 */
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import { AbortError, buildTool } from '../../core/index.js';
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
}
export interface SleepProgress {
  type: 'sleep-started';
  durationMs: number;
}

/** Resolves after `ms`, or rejects with AbortError as soon as `signal` aborts. */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new AbortError('Sleep was aborted before it started.'));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError('Sleep was aborted.'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export const SleepTool = buildTool({
  name: 'Sleep',
  description:
    'Wait for a given number of milliseconds before continuing. Use it when you must wait for something ' +
    'outside your control (a server starting, a file appearing) and have nothing else to do meanwhile. ' +
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
    await wait(input.duration_ms, context.abortController.signal);
    return { data: { sleptMs: Date.now() - startedAtMs } satisfies SleepOutput };
  },
  mapToolResultToContent: (output: SleepOutput) => `Slept for ${output.sleptMs} ms.`,
});
