/**
 * `services.inbox` (core/services.ts `SessionInbox`): a tool hands text to the model after its
 * call returned. While the loop is idle the text starts a new turn; `hold` keeps a session whose
 * input has ended open until the tool's work settles; once the session ended, a delivery throws.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool, type SessionInbox } from '../../core/index.js';
import { reply } from '../../testing/fake-model-script.js';
import { allowAllDecider } from '../../runtime/index.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeLoopWorld,
  runQuery,
  startFakeModel,
} from '../../testing/loop-fixtures.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

describe('services.inbox', () => {
  it('a delivery after the call returned becomes the next turn, and the session waits for it', async () => {
    world = makeLoopWorld();
    let kept: SessionInbox | undefined;
    const watcher = buildTool({
      name: 'Watch',
      description: 'Reports an event a little later.',
      inputSchema: z.strictObject({}),
      isReadOnly: () => true,
      async *call(_input, context) {
        const inbox = context.services.inbox;
        if (!inbox) throw new Error('no inbox');
        kept = inbox;
        const fired = new Promise<void>((resolve) => {
          setTimeout(() => {
            inbox.deliver('<event>build finished</event>');
            resolve();
          }, 30);
        });
        inbox.hold(fired);
        return { data: 'watching' };
      },
    });
    model = await startFakeModel('anthropic', [
      reply.toolUse('Watch', {}),
      reply.text('Waiting for the build.'),
      reply.text('The build finished.'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'watch the build',
        tools: [watcher],
        decide: allowAllDecider,
      }),
    );
    const bodies = model.requests().map((r) => JSON.stringify(r.body.messages));
    expect(bodies).toHaveLength(3);
    expect(bodies[2]).toContain('<event>build finished</event>');
    expect(run.results.map((r) => r.result)).toEqual(['Waiting for the build.', 'The build finished.']);
    expect(() => kept?.deliver('too late')).toThrow(/no running loop/);
  });
});

describe('services.inbox: onTaken', () => {
  it('is called once the text is in a message for the model: in the running turn, and for an idle loop', async () => {
    world = makeLoopWorld();
    const taken: string[] = [];
    const watcher = buildTool({
      name: 'Watch',
      description: 'Reports an event now and one later.',
      inputSchema: z.strictObject({}),
      isReadOnly: () => true,
      async *call(_input, context) {
        const inbox = context.services.inbox!;
        inbox.deliver('<event>first</event>', { onTaken: () => taken.push('first') });
        const later = new Promise<void>((resolve) => {
          setTimeout(() => {
            inbox.deliver('<event>second</event>', { onTaken: () => taken.push('second') });
            resolve();
          }, 30);
        });
        inbox.hold(later);
        return { data: 'watching' };
      },
    });
    let seenAtSecondRequest: string[] = [];
    model = await startFakeModel('anthropic', [
      reply.toolUse('Watch', {}),
      () => {
        seenAtSecondRequest = [...taken];
        return reply.text('Got the first event.');
      },
      reply.text('Got the second event.'),
    ]);
    await runQuery(
      await loopOptions(world, model, { prompt: 'watch', tools: [watcher], decide: allowAllDecider }),
    );
    const bodies = model.requests().map((r) => JSON.stringify(r.body.messages));
    expect(bodies[1]).toContain('<event>first</event>');
    expect(seenAtSecondRequest).toEqual(['first']);
    expect(bodies[2]).toContain('<event>second</event>');
    expect(taken).toEqual(['first', 'second']);
  });
});
