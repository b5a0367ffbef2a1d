/**
 * Sleep inside the real loop: a long sleep ends early when something arrives for the model — a
 * message the person sends during the turn (`pushInput`), or a delivery from a tool's background
 * work (`services.inbox.deliver`, as a task notification arrives) — and the model sees what
 * arrived in the next request. Without an arrival it would sleep ten minutes (the test would time out).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool } from '../../core/index.js';
import { createInputQueue } from '../../loop/input-queue.js';
import type { Query } from '../../loop/types.js';
import { allowAllDecider } from '../../runtime/index.js';
import { lastUserText, reply, toolUse } from '../../testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeLoopWorld,
  runQuery,
  startFakeModel,
} from '../../testing/loop-fixtures.js';
import { manualClock } from '../../testing/schedule-clock.js';
import { createScheduleWakeupTool } from '../schedule-wakeup/schedule-wakeup.tool.js';
import { SleepTool } from './sleep.tool.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

/** A concurrency-safe tool that runs `after` once Sleep has started (the next macrotask after its call). */
function sideTool(name: string, after: (deliver: (text: string) => void) => void) {
  return buildTool({
    name,
    description: `${name} (test tool)`,
    inputSchema: z.strictObject({}),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async *call(_input, context) {
      const inbox = context.services.inbox;
      if (!inbox) throw new Error('no inbox');
      setTimeout(() => after((text) => inbox.deliver(text)), 20);
      return { data: 'started' };
    },
  });
}

describe('Sleep in the loop', () => {
  it('a delivery (a background task notification) wakes it, and the model reads the notification', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [
      reply.message([toolUse('Notifier', {}), toolUse('Sleep', { duration_ms: 600_000 })]),
      reply.text('The build finished while I waited.'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'wait for the build',
        tools: [
          sideTool('Notifier', (deliver) => deliver('<task-notification>build done</task-notification>')),
          SleepTool,
        ],
        decide: allowAllDecider,
      }),
    );
    expect(run.results.map((r) => r.result)).toEqual(['The build finished while I waited.']);
    const second = JSON.stringify(model.requests()[1]?.body.messages);
    expect(second).toMatch(/Woke after \d+ ms: a message or a notification arrived for you\./);
    expect(second).toContain('<task-notification>build done</task-notification>');
  });

  it('a scheduled prompt coming due wakes it and says to end the turn; the prompt is the next turn', async () => {
    world = makeLoopWorld();
    const clock = manualClock(Date.UTC(2026, 5, 1, 12), { auto: true });
    model = await startFakeModel('anthropic', [
      reply.message([
        toolUse('ScheduleWakeup', { delaySeconds: 60, reason: 'poll', prompt: 'POLL AGAIN' }),
        toolUse('Sleep', { duration_ms: 600_000 }),
      ]),
      reply.text('Ending the turn for the wake-up.'),
      reply.text('Polled.'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'poll',
        tools: [createScheduleWakeupTool({ clock }), SleepTool],
        decide: allowAllDecider,
      }),
    );
    expect(run.results.map((r) => r.result)).toEqual(['Ending the turn for the wake-up.', 'Polled.']);
    const second = JSON.stringify(model.requests()[1]?.body.messages);
    expect(second).toMatch(/Woke after \d+ ms: a scheduled prompt is due\. End your turn to receive it\./);
    expect(second).not.toContain('<scheduled-prompt');
    expect(lastUserText(model.requests()[2]?.body)).toContain('POLL AGAIN');
  });

  it('a message the person sends during the turn wakes it, and the model reads the message', async () => {
    world = makeLoopWorld();
    const input = createInputQueue();
    input.push('wait for the deploy');
    let q: Query | undefined;
    model = await startFakeModel('anthropic', [
      reply.message([toolUse('Typist', {}), toolUse('Sleep', { duration_ms: 600_000 })]),
      reply.text('You asked me to stop waiting.'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: input,
        tools: [
          sideTool('Typist', () => {
            q?.pushInput('stop waiting, the deploy is cancelled');
            input.close();
          }),
          SleepTool,
        ],
        decide: allowAllDecider,
      }),
      (_event, query) => {
        q = query;
      },
    );
    expect(run.results[0]?.result).toBe('You asked me to stop waiting.');
    const second = JSON.stringify(model.requests()[1]?.body.messages);
    expect(second).toMatch(/Woke after \d+ ms/);
    expect(second).toContain('stop waiting, the deploy is cancelled');
  });
});
