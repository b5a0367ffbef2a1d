/**
 * `reminders.afterCall` (core/reminders.ts): after a call that succeeded, each tool of the session
 * may add text about it (the LSP tool's diagnostics after an Edit); the loop adds it right after
 * that turn's tool results as a `<system-reminder>` block. Failed calls get none; a provider that
 * throws adds nothing and breaks nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AfterCallView, buildTool } from '../../core/index.js';
import { allowAllDecider } from '../../runtime/index.js';
import { reply } from '../../testing/fake-model-script.js';
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

describe('afterCall reminders', () => {
  it('text about a successful call of another tool follows the results; failed calls get none', async () => {
    world = makeLoopWorld();
    const seen: AfterCallView[] = [];
    const change = buildTool({
      name: 'Change',
      description: 'Changes a thing, or fails when asked to.',
      inputSchema: z.strictObject({ target: z.string(), fail: z.boolean().optional() }),
      async *call(input) {
        if (input.fail) throw new Error('could not change it');
        return { data: { changed: input.target } };
      },
    });
    const observer = buildTool({
      name: 'Observer',
      description: 'Says something after every other call.',
      inputSchema: z.strictObject({}),
      isReadOnly: () => true,
      async *call() {
        return { data: 'nothing' };
      },
      reminders: {
        afterCall: async (view) => {
          seen.push(view);
          return `${view.toolName} changed ${String((view.input as { target?: string }).target)}`;
        },
      },
    });
    const broken = buildTool({
      name: 'Broken',
      description: 'Its reminder always throws.',
      inputSchema: z.strictObject({}),
      isReadOnly: () => true,
      async *call() {
        return { data: 'nothing' };
      },
      reminders: {
        afterCall: async () => {
          throw new Error('reminder failed');
        },
      },
    });
    model = await startFakeModel('anthropic', [
      reply.toolUse('Change', { target: 'a.ts' }),
      reply.toolUse('Change', { target: 'b.ts', fail: true }),
      reply.text('Done.'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'change things',
        tools: [change, observer, broken],
        decide: allowAllDecider,
      }),
    );
    expect(run.results.map((r) => r.result)).toEqual(['Done.']);
    const lastUser = (i: number) => JSON.stringify(model?.requests()[i]?.body.messages.at(-1));
    expect(lastUser(1)).toContain('"type":"tool_result"');
    expect(lastUser(1)).toContain('<system-reminder>\\nChange changed a.ts\\n</system-reminder>');
    expect(lastUser(2)).toContain('could not change it');
    expect(lastUser(2)).not.toContain('<system-reminder>');
    expect(seen.map((v) => [v.toolName, v.data, v.cwd])).toEqual([
      ['Change', { changed: 'a.ts' }, world.project],
    ]);
    expect(seen[0]?.services.resources).toBeDefined();
  });
});
