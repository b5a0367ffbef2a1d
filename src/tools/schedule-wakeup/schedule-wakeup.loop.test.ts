/**
 * ScheduleWakeup through the real loop on the fake model server: a self-paced loop of turns, each
 * started by the wake-up the previous one scheduled (source `loop_wakeup`, wrapped as a scheduled
 * prompt), ended by `stop: true`; one pending wake-up per session. The clock is injected and
 * jumps to each timer at once, so no test waits a minute.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HookInput } from '../../loop/types.js';
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
import { createScheduleWakeupTool } from './schedule-wakeup.tool.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

const START = Date.UTC(2026, 5, 1, 12, 0, 0);

function promptSources(seen: HookInput[]): (string | undefined)[] {
  return seen.map((h) => (h as { source?: string }).source);
}

describe('ScheduleWakeup in the loop', () => {
  it('drives two self-paced turns and ends when the model calls it with stop: true', async () => {
    world = makeLoopWorld();
    const clock = manualClock(START, { auto: true });
    const seen: HookInput[] = [];
    model = await startFakeModel('anthropic', [
      reply.toolUse('ScheduleWakeup', {
        delaySeconds: 5,
        reason: 'CI is slow',
        prompt: 'check the CI run again',
      }),
      reply.text('Waiting for CI.'),
      reply.toolUse('ScheduleWakeup', {
        delaySeconds: 7200,
        reason: 'still running',
        prompt: 'check the CI run again',
      }),
      reply.text('Still running; checking later.'),
      reply.toolUse('ScheduleWakeup', { stop: true }),
      reply.text('CI passed; the loop is over.'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'watch the CI run until it passes',
        tools: [createScheduleWakeupTool({ clock })],
        decide: allowAllDecider,
        hooks: { UserPromptSubmit: [{ hooks: [async (input) => (seen.push(input), {})] }] },
      }),
    );
    expect(run.results.map((r) => r.result)).toEqual([
      'Waiting for CI.',
      'Still running; checking later.',
      'CI passed; the loop is over.',
    ]);
    const requests = model.requests();
    expect(requests).toHaveLength(6);
    // The delays were clamped to the accepted range.
    const bodies = requests.map((r) => JSON.stringify(r.body.messages));
    expect(bodies[1]).toContain('Wake-up scheduled in 60 s');
    expect(bodies[3]).toContain('Wake-up scheduled in 3600 s');
    // Each later turn starts with the wake-up's prompt, marked as scheduled, not as the person's.
    for (const i of [2, 4]) {
      const text = lastUserText(requests[i]?.body);
      expect(text).toContain('<scheduled-prompt origin="wakeup"');
      expect(text).toContain('check the CI run again');
      expect(text).toContain('not from a new message of the person');
    }
    expect(lastUserText(requests[4]?.body)).toContain('reason="still running"');
    expect(bodies[5]).toContain('The self-paced loop has ended (no wake-up was pending).');
    expect(promptSources(seen)).toEqual([undefined, 'loop_wakeup', 'loop_wakeup']);
    expect(clock.pendingTimers).toBe(0);
  });

  it('keeps one wake-up per session: a second call replaces the first', async () => {
    world = makeLoopWorld();
    const clock = manualClock(START, { auto: true });
    model = await startFakeModel('anthropic', [
      reply.message([
        toolUse('ScheduleWakeup', { delaySeconds: 60, reason: 'first', prompt: 'FIRST PROMPT' }),
        toolUse('ScheduleWakeup', { delaySeconds: 120, reason: 'second', prompt: 'SECOND PROMPT' }),
      ]),
      reply.text('Scheduled.'),
      reply.text('Woke once.'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'schedule twice',
        tools: [createScheduleWakeupTool({ clock })],
        decide: allowAllDecider,
      }),
    );
    expect(run.results.map((r) => r.result)).toEqual(['Scheduled.', 'Woke once.']);
    const requests = model.requests();
    expect(requests).toHaveLength(3);
    expect(JSON.stringify(requests[1]?.body.messages)).toContain('It replaces the wake-up that was pending.');
    const woke = lastUserText(requests[2]?.body);
    expect(woke).toContain('SECOND PROMPT');
    expect(JSON.stringify(requests[2]?.body.messages)).not.toMatch(
      /<scheduled-prompt[^>]*>[^<]*FIRST PROMPT/,
    );
  });

  it('stop: true cancels a pending wake-up, and the session ends without it', async () => {
    world = makeLoopWorld();
    const clock = manualClock(START);
    model = await startFakeModel('anthropic', [
      reply.message([
        toolUse('ScheduleWakeup', { delaySeconds: 600, reason: 'later', prompt: 'look again' }),
        toolUse('ScheduleWakeup', { stop: true }),
      ]),
      reply.text('Nothing left to watch.'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'watch, then change your mind',
        tools: [createScheduleWakeupTool({ clock })],
        decide: allowAllDecider,
      }),
    );
    expect(run.results.map((r) => r.result)).toEqual(['Nothing left to watch.']);
    expect(JSON.stringify(model.requests()[1]?.body.messages)).toContain(
      'The self-paced loop has ended: the pending wake-up was cancelled.',
    );
    expect(clock.pendingTimers).toBe(0);
    expect(model.requests()).toHaveLength(2);
  });

  it('rejects a call without prompt or delay unless it stops the loop', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [
      reply.toolUse('ScheduleWakeup', { delaySeconds: 60 }),
      reply.text('ok'),
    ]);
    await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: [createScheduleWakeupTool({ clock: manualClock(START) })],
        decide: allowAllDecider,
      }),
    );
    const result = JSON.stringify(model.requests()[1]?.body.messages);
    expect(result).toContain('prompt is required unless stop is true');
    expect(result).toContain('"is_error":true');
  });
});
