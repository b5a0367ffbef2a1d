/**
 * The Cron tools (feature `CRON`, `GANTRY_FEATURE_CRON=1`): `CronCreate`, `CronDelete`, `CronList`
 * over the session's cron jobs (cron-state.ts). CronCreate also starts the session's state when a
 * session starts (`startSession`): the project's durable jobs are loaded and the due ones fire.
 * See docs/scheduling.md.
 *
 * Outputs: CronCreate `{id, humanSchedule, recurring, durable?, nextFireAt?, maxAgeMs?}`
 * (`nextFireAt` in epoch ms, `maxAgeMs` for recurring jobs); CronDelete `{id, deleted: true}`;
 * CronList `{jobs: [{id, cron, humanSchedule, prompt, recurring, durable, nextFireAt?, expiresAt?}]}`.
 * Errors: a bad expression (InputValidationError with the reason), an unknown id, a broken
 * scheduled-tasks file, a host without a running loop.
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import { buildTool, ToolExecutionError, ToolInputError, type ToolUseContext } from '../../core/index.js';
import { defaultScheduleClock, type ScheduleClock } from '../scheduling/clock.js';
import { sessionState } from '../scheduling/session-state.js';
import { CronPatternError, parseCron } from './cron-expression.js';
import { CRON_MAX_AGE_MS, type CronJobView, CronState } from './cron-state.js';
import { cronCreateDescriber, cronDeleteDescriber, cronListDescriber } from './describe.js';
import { scheduledTasksPath } from './durable-store.js';

export interface CronToolsOptions {
  /** The clock (default: the process's, `GANTRY_SCHEDULE_SPEEDUP` aware). */
  clock?: ScheduleClock;
  /** The key durable jobs are signed with (default `~/.gantry/scheduled-tasks.key`). */
  keyFile?: string;
}

const STATE = 'cron';

/** The session's cron state (made on first use, disposed with the session). */
export function cronStateOf(context: ToolUseContext, options: CronToolsOptions = {}): CronState {
  const inbox = context.services.inbox;
  if (!inbox)
    throw new ToolExecutionError(
      'The Cron tools need a running agent loop to fire into; this host has none.',
    );
  const file = scheduledTasksPath(context.getAppState().projectRoot);
  return sessionState(
    context.services,
    STATE,
    () => new CronState(options.clock ?? defaultScheduleClock(), inbox, file, options.keyFile),
  );
}

const CronCreateInput = z.strictObject({
  cron: z
    .string()
    .min(1)
    .describe(
      'Five fields in local time: minute hour day-of-month month day-of-week (e.g. "*/10 * * * *", "0 9 * * 1-5").',
    ),
  prompt: z.string().min(1).max(20_000).describe('The prompt you receive each time the job fires.'),
  recurring: z
    .boolean()
    .optional()
    .describe(
      'true (default): fire at every matching time, for up to 30 days. false: fire once, at the next matching time.',
    ),
  durable: z
    .boolean()
    .optional()
    .describe(
      'true: also keep the job in the project (.gantry/scheduled_tasks.json) so later sessions run it. Default false.',
    ),
});
type CronCreateInput = z.infer<typeof CronCreateInput>;

export interface CronCreateOutput {
  id: string;
  humanSchedule: string;
  recurring: boolean;
  durable?: boolean;
  nextFireAt?: number;
  maxAgeMs?: number;
}

const CronDeleteInput = z.strictObject({ id: z.string().min(1).describe('The id CronCreate returned.') });
type CronDeleteInput = z.infer<typeof CronDeleteInput>;

export interface CronDeleteOutput {
  id: string;
  deleted: true;
}
export interface CronListOutput {
  jobs: CronJobView[];
}

const iso = (ms: number | undefined) => (ms === undefined ? 'never again' : new Date(ms).toISOString());

export function createCronTools(options: CronToolsOptions = {}) {
  const CronCreateTool = buildTool({
    name: 'CronCreate',
    description:
      'Schedule a prompt to run later in this session on a cron schedule (five fields, local time). ' +
      'Each time it fires you receive the prompt as a new message, after the current turn. Recurring jobs ' +
      '(the default) stop by themselves after 30 days; recurring: false fires once. durable: true keeps ' +
      'the job in the project so a later session runs it too. Use CronList to see jobs and CronDelete to remove one.',
    inputSchema: CronCreateInput,
    maxResultSizeChars: 2_000,
    // Deferred behind ToolSearch when it is on, as in Claude Code.
    shouldDefer: true,
    isReadOnly: cronCreateDescriber.isReadOnly,
    isConcurrencySafe: () => false,
    userFacingName: () => 'Create cron job',
    toAutoClassifierInput: cronCreateDescriber.toAutoClassifierInput,
    async describeCall(input: CronCreateInput, context: ToolUseContext) {
      return cronCreateDescriber.describe(input, describeWorldOf(context));
    },
    async validateInput(input: CronCreateInput) {
      try {
        parseCron(input.cron);
        return { ok: true };
      } catch (error) {
        return { ok: false, message: (error as Error).message, field: 'cron' };
      }
    },
    async *call(input: CronCreateInput, context: ToolUseContext) {
      const state = cronStateOf(context, options);
      let job: CronJobView;
      try {
        job = await state.create({
          cron: input.cron,
          prompt: input.prompt,
          recurring: input.recurring ?? true,
          durable: input.durable ?? false,
        });
      } catch (error) {
        if (error instanceof CronPatternError) throw new ToolInputError(error.message);
        throw new ToolExecutionError((error as Error).message);
      }
      const data: CronCreateOutput = {
        id: job.id,
        humanSchedule: job.humanSchedule,
        recurring: job.recurring,
        ...(job.durable ? { durable: true } : {}),
        ...(job.nextFireAt !== undefined ? { nextFireAt: job.nextFireAt } : {}),
        ...(job.recurring ? { maxAgeMs: CRON_MAX_AGE_MS } : {}),
      };
      return { data };
    },
    mapToolResultToContent: (o: CronCreateOutput) =>
      `Cron job ${o.id} created: ${o.humanSchedule}, ${o.recurring ? 'recurring (expires after 30 days)' : 'once'}` +
      `${o.durable ? ', durable (kept in .gantry/scheduled_tasks.json)' : ''}. Next fire: ${iso(o.nextFireAt)}.`,
    // A new session in the project picks up the durable jobs saved there.
    async startSession(context: ToolUseContext) {
      if (!context.services.inbox) return;
      if (!existsSync(scheduledTasksPath(context.getAppState().projectRoot))) return;
      const outcome = await cronStateOf(context, options).loadDurable();
      if (outcome.problems.length)
        throw new Error(`some durable cron jobs were not loaded: ${outcome.problems.join('; ')}`);
    },
  });

  const CronDeleteTool = buildTool({
    name: 'CronDelete',
    description:
      'Delete a cron job of this session by the id CronCreate returned (durable jobs leave the project file too).',
    inputSchema: CronDeleteInput,
    maxResultSizeChars: 1_000,
    shouldDefer: true,
    isReadOnly: cronDeleteDescriber.isReadOnly,
    isConcurrencySafe: () => false,
    userFacingName: () => 'Delete cron job',
    toAutoClassifierInput: cronDeleteDescriber.toAutoClassifierInput,
    async describeCall(input: CronDeleteInput, context: ToolUseContext) {
      return cronDeleteDescriber.describe(input, describeWorldOf(context));
    },
    async *call(input: CronDeleteInput, context: ToolUseContext) {
      const state = cronStateOf(context, options);
      let deleted: boolean;
      try {
        deleted = await state.delete(input.id);
      } catch (error) {
        throw new ToolExecutionError((error as Error).message);
      }
      if (!deleted)
        throw new ToolExecutionError(
          `No cron job with id ${input.id} in this session (CronList shows the ids).`,
        );
      return { data: { id: input.id, deleted: true } satisfies CronDeleteOutput };
    },
    mapToolResultToContent: (o: CronDeleteOutput) => `Cron job ${o.id} deleted.`,
  });

  const CronListTool = buildTool({
    name: 'CronList',
    description: 'List the cron jobs of this session: id, schedule, prompt, next fire time.',
    inputSchema: z.strictObject({}),
    maxResultSizeChars: 50_000,
    shouldDefer: true,
    isReadOnly: cronListDescriber.isReadOnly,
    isConcurrencySafe: () => true,
    userFacingName: () => 'List cron jobs',
    toAutoClassifierInput: cronListDescriber.toAutoClassifierInput,
    async describeCall(input: Record<string, never>, context: ToolUseContext) {
      return cronListDescriber.describe(input, describeWorldOf(context));
    },
    async *call(_input: Record<string, never>, context: ToolUseContext) {
      return { data: { jobs: cronStateOf(context, options).list() } satisfies CronListOutput };
    },
    mapToolResultToContent: (o: CronListOutput) =>
      o.jobs.length === 0
        ? 'No cron jobs in this session.'
        : o.jobs
            .map(
              (j) =>
                `${j.id}  ${j.cron}  (${j.humanSchedule}; ${j.recurring ? 'recurring' : 'once'}${j.durable ? ', durable' : ''}; next ${iso(j.nextFireAt)})\n  ${j.prompt}`,
            )
            .join('\n'),
  });

  return [CronCreateTool, CronDeleteTool, CronListTool] as const;
}

/** The tools with the process's clock (what the registry offers). */
export const CRON_TOOLS = [...createCronTools()];
