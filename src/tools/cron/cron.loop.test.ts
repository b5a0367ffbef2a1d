/**
 * The Cron tools through the real loop on the fake model server: a fired job starts a turn of its
 * own (UserPromptSubmit `source: schedule_wakeup`, the prompt wrapped as scheduled); a durable job
 * made in one session is loaded by the next session in the project (`Tool.startSession`) and its
 * missed fire runs after that session's first prompt. The clock is injected.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HookInput } from '../../loop/types.js';
import { allowAllDecider } from '../../runtime/index.js';
import { lastUserText, reply } from '../../testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeLoopWorld,
  runQuery,
  startFakeModel,
} from '../../testing/loop-fixtures.js';
import { manualClock } from '../../testing/schedule-clock.js';
import { createCronTools } from './cron-tools.js';
import { readDurableJobs, scheduledTasksPath } from './durable-store.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

const START = new Date(2026, 5, 1, 10, 7, 0).getTime(); // local time
/** The signing key inside the test world, never the real home. */
const keyFile = () => path.join(world?.home ?? '/nonexistent', '.gantry', 'scheduled-tasks.key');
const sources = (seen: HookInput[]) => seen.map((h) => (h as { source?: string }).source);

describe('Cron tools in the loop', () => {
  it('a one-shot job fires as a turn of its own, from the schedule', async () => {
    world = makeLoopWorld();
    const clock = manualClock(START, { auto: true });
    const seen: HookInput[] = [];
    model = await startFakeModel('anthropic', [
      reply.toolUse('CronCreate', {
        cron: '30 10 * * *',
        prompt: 'post the stand-up summary',
        recurring: false,
      }),
      reply.text('Scheduled for 10:30.'),
      reply.text('Summary posted.'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'remind me at 10:30',
        tools: [...createCronTools({ clock, keyFile: keyFile() })],
        decide: allowAllDecider,
        hooks: { UserPromptSubmit: [{ hooks: [async (input) => (seen.push(input), {})] }] },
      }),
    );
    expect(run.results.map((r) => r.result)).toEqual(['Scheduled for 10:30.', 'Summary posted.']);
    const requests = model.requests();
    const created = JSON.stringify(requests[1]?.body.messages);
    expect(created).toMatch(/Cron job [0-9a-f]{8} created: every day at 10:30 \(local time\), once\./);
    const fired = lastUserText(requests[2]?.body);
    expect(fired).toContain('<scheduled-prompt origin="cron"');
    expect(fired).toContain('post the stand-up summary');
    expect(sources(seen)).toEqual([undefined, 'schedule_wakeup']);
  });

  it('a bad pattern is an input error the model can read', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [
      reply.toolUse('CronCreate', { cron: '61 * * * *', prompt: 'x' }),
      reply.text('Fixed nothing.'),
    ]);
    await runQuery(
      await loopOptions(world, model, {
        prompt: 'schedule something broken',
        tools: [...createCronTools({ clock: manualClock(START), keyFile: keyFile() })],
        decide: allowAllDecider,
      }),
    );
    const result = JSON.stringify(model.requests()[1]?.body.messages);
    expect(result).toContain('Invalid value for minute: 61');
    expect(result).toContain('"is_error":true');
  });

  it('a durable job survives the session: the next session loads it and fires the missed slot', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [
      reply.toolUse('CronCreate', { cron: '0 12 * * *', prompt: 'water the plants', durable: true }),
      reply.text('I will remind you every day at noon.'),
      reply.toolUse('CronList', {}),
      reply.text('One job.'),
      reply.text('Plants watered.'),
    ]);
    // Session 1: the job is made; nothing fires (its clock never moves), and a durable job does
    // not keep the session open.
    const first = await runQuery(
      await loopOptions(world, model, {
        prompt: 'remind me daily at noon',
        tools: [...createCronTools({ clock: manualClock(START), keyFile: keyFile() })],
        decide: allowAllDecider,
      }),
    );
    expect(first.results).toHaveLength(1);
    const records = await readDurableJobs(scheduledTasksPath(world.project));
    expect(records.map((r) => [r.cron, r.prompt, r.recurring])).toEqual([
      ['0 12 * * *', 'water the plants', true],
    ]);

    // Session 2, the next day at 09:00: the 12:00 slot of day one was missed and fires once.
    const seen: HookInput[] = [];
    const second = await runQuery(
      await loopOptions(world, model, {
        prompt: 'what is scheduled?',
        tools: [...createCronTools({ clock: manualClock(START + 23 * 3_600_000), keyFile: keyFile() })],
        decide: allowAllDecider,
        hooks: { UserPromptSubmit: [{ hooks: [async (input) => (seen.push(input), {})] }] },
      }),
    );
    expect(second.results.map((r) => r.result)).toEqual(['One job.', 'Plants watered.']);
    const requests = model.requests();
    expect(JSON.stringify(requests[3]?.body.messages)).toContain('water the plants');
    expect(lastUserText(requests[4]?.body)).toContain('<scheduled-prompt origin="cron"');
    expect(sources(seen)).toEqual([undefined, 'schedule_wakeup']);
    const after = await readDurableJobs(scheduledTasksPath(world.project));
    expect(after[0]?.lastFiredAt).toBe(new Date(2026, 5, 1, 12, 0, 0).toISOString());
  });
});
