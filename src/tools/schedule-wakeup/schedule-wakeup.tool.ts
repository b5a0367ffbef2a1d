/**
 * `ScheduleWakeup` (feature `WAKEUP`, `GANTRY_FEATURE_WAKEUP=1`): the self-paced loop's next step.
 * The model ends its turn after asking to be woken in `delaySeconds` (clamped to 60–3600) with
 * `prompt`; when the delay has passed, the prompt comes back as a new turn (a synthetic user
 * message with source `loop_wakeup`, wrapped so it never reads as the person's words). Meanwhile
 * the session stays open (`gantry -p` too, bounded by its background wait). One pending wake-up per
 * session: a new call replaces it; `stop: true` cancels it and so ends the loop. See
 * docs/scheduling.md.
 *
 * Output: `{ scheduledFor, delaySeconds, reason, replaced }` (ISO time, clamped seconds), or
 * `{ stopped: true, cancelled }`. Errors: a missing `prompt` or `delaySeconds` without `stop`; a
 * host without a running loop (no `services.inbox`).
 */
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import { buildTool, ToolExecutionError, type ToolUseContext } from '../../core/index.js';
import { defaultScheduleClock, type ScheduleClock } from '../scheduling/clock.js';
import { sessionState } from '../scheduling/session-state.js';
import { scheduleWakeupDescriber } from './describe.js';
import { WakeupState } from './wakeup-state.js';

/** The accepted delay range, in seconds. */
export const MIN_WAKEUP_DELAY_SECONDS = 60;
export const MAX_WAKEUP_DELAY_SECONDS = 3600;

const ScheduleWakeupInput = z.strictObject({
  delaySeconds: z
    .number()
    .finite()
    .optional()
    .describe(
      `Seconds from now until the wake-up (clamped to ${MIN_WAKEUP_DELAY_SECONDS}–${MAX_WAKEUP_DELAY_SECONDS}). Required unless stop is true.`,
    ),
  reason: z.string().optional().describe('Why you wait this long, in a few words (shown to the person).'),
  prompt: z
    .string()
    .max(20_000)
    .optional()
    .describe('What to do when you wake up: the prompt you receive then. Required unless stop is true.'),
  stop: z.boolean().optional().describe('true ends the self-paced loop: the pending wake-up is cancelled.'),
  noop: z
    .boolean()
    .optional()
    .describe('true when this iteration found nothing to do; the wake-up is scheduled as usual.'),
});
export type ScheduleWakeupInput = z.infer<typeof ScheduleWakeupInput>;

export type ScheduleWakeupOutput =
  | { scheduledFor: string; delaySeconds: number; reason: string; replaced: boolean; noop?: boolean }
  | { stopped: true; cancelled: boolean };

/** `delaySeconds` rounded and clamped to the accepted range. */
export function clampDelaySeconds(seconds: number): number {
  return Math.min(MAX_WAKEUP_DELAY_SECONDS, Math.max(MIN_WAKEUP_DELAY_SECONDS, Math.round(seconds)));
}

export interface ScheduleWakeupToolOptions {
  /** The clock (default: the process's, `GANTRY_SCHEDULE_SPEEDUP` aware). */
  clock?: ScheduleClock;
}

const STATE = 'schedule-wakeup';

/** The session's wake-up state (made on first use, disposed with the session). */
export function wakeupStateOf(context: ToolUseContext, clock?: ScheduleClock): WakeupState {
  const inbox = context.services.inbox;
  if (!inbox)
    throw new ToolExecutionError('ScheduleWakeup needs a running agent loop to wake up; this host has none.');
  return sessionState(context.services, STATE, () => new WakeupState(clock ?? defaultScheduleClock(), inbox));
}

export function createScheduleWakeupTool(options: ScheduleWakeupToolOptions = {}) {
  return buildTool({
    name: 'ScheduleWakeup',
    description:
      'Schedule when to continue a self-paced loop. Call it at the end of an iteration of recurring work ' +
      '(checking a build, watching a deploy, polling for a change), then end your turn: after delaySeconds ' +
      `(${MIN_WAKEUP_DELAY_SECONDS} to ${MAX_WAKEUP_DELAY_SECONDS}) you receive prompt as a new message and ` +
      'carry on. Pick the delay from how fast the thing you watch changes. Only one wake-up is pending at a ' +
      'time: a new call replaces the previous one. Call it with stop: true once the work is done, to end the loop.',
    inputSchema: ScheduleWakeupInput,
    maxResultSizeChars: 2_000,
    isReadOnly: scheduleWakeupDescriber.isReadOnly,
    isConcurrencySafe: () => false,
    userFacingName: () => 'Schedule wake-up',
    toAutoClassifierInput: scheduleWakeupDescriber.toAutoClassifierInput,
    async describeCall(input: ScheduleWakeupInput, context: ToolUseContext) {
      return scheduleWakeupDescriber.describe(input, describeWorldOf(context));
    },
    async validateInput(input: ScheduleWakeupInput) {
      if (input.stop === true) return { ok: true };
      if (input.delaySeconds === undefined)
        return { ok: false, message: 'delaySeconds is required unless stop is true.', field: 'delaySeconds' };
      if (!input.prompt?.trim())
        return { ok: false, message: 'prompt is required unless stop is true.', field: 'prompt' };
      return { ok: true };
    },
    async *call(input: ScheduleWakeupInput, context: ToolUseContext) {
      const state = wakeupStateOf(context, options.clock);
      if (input.stop === true) {
        const cancelled = state.cancel();
        return { data: { stopped: true, cancelled } satisfies ScheduleWakeupOutput };
      }
      const delaySeconds = clampDelaySeconds(input.delaySeconds ?? MIN_WAKEUP_DELAY_SECONDS);
      const reason = input.reason?.trim() || 'continue the loop';
      const replaced = state.schedule(delaySeconds * 1000, input.prompt ?? '', reason);
      const dueAtMs = state.pending?.dueAtMs ?? 0;
      const data: ScheduleWakeupOutput = {
        scheduledFor: new Date(dueAtMs).toISOString(),
        delaySeconds,
        reason,
        replaced,
        ...(input.noop ? { noop: true } : {}),
      };
      return { data };
    },
    mapToolResultToContent: (output: ScheduleWakeupOutput) => {
      if ('stopped' in output)
        return output.cancelled
          ? 'The self-paced loop has ended: the pending wake-up was cancelled.'
          : 'The self-paced loop has ended (no wake-up was pending).';
      return (
        `Wake-up scheduled in ${output.delaySeconds} s (at ${output.scheduledFor}): ${output.reason}.` +
        (output.replaced ? ' It replaces the wake-up that was pending.' : '') +
        ' End your turn now; the prompt comes back to you then.'
      );
    },
  });
}

/** The tool with the process's clock (what the registry offers). */
export const ScheduleWakeupTool = createScheduleWakeupTool();
