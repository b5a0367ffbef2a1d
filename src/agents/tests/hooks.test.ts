/**
 * SubagentStart / SubagentStop hooks of the parent session fire for each sub-agent, with its id
 * and type (matched on the type); SubagentStart's context reaches the child's first prompt. The
 * parent's session-level hooks (UserPromptSubmit, Stop) do not run inside the child.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HookInput } from '../../loop/types.js';
import { agentIdOf, reply } from '../../testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeEngine,
  makeLoopWorld,
  runQuery,
  startFakeModel,
} from '../../testing/loop-fixtures.js';
import { toolsWithAgent } from './test-support.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

describe('sub-agent hooks', () => {
  it('fire once each with the agent id and type; start context reaches the child', async () => {
    world = makeLoopWorld();
    model = await startFakeModel(
      'anthropic',
      [
        reply.toolUse('Agent', { description: 'Look', prompt: 'Look.', subagent_type: 'Explore' }),
        reply.text('done'),
      ],
      { routes: [{ when: (r) => agentIdOf(r) !== undefined, script: [reply.text('explored')] }] },
    );
    const seen: HookInput[] = [];
    const record = async (input: HookInput) => {
      seen.push(input);
      return input.hook_event_name === 'SubagentStart'
        ? {
            hookSpecificOutput: {
              hookEventName: 'SubagentStart' as const,
              additionalContext: 'remember the budget',
            },
          }
        : {};
    };
    await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await toolsWithAgent(),
        permissionEngine: makeEngine(world),
        hooks: {
          SubagentStart: [{ matcher: 'Explore', hooks: [record] }],
          SubagentStop: [{ hooks: [record] }],
          UserPromptSubmit: [{ hooks: [record] }],
          Stop: [{ hooks: [record] }],
        },
      }),
    );
    const events = seen.map((h) => h.hook_event_name);
    expect(events.filter((e) => e === 'SubagentStart')).toHaveLength(1);
    expect(events.filter((e) => e === 'SubagentStop')).toHaveLength(1);
    // Only the parent's own prompt and stop.
    expect(events.filter((e) => e === 'UserPromptSubmit')).toHaveLength(1);
    expect(events.filter((e) => e === 'Stop')).toHaveLength(1);
    const start = seen.find((h) => h.hook_event_name === 'SubagentStart')!;
    expect(start).toMatchObject({
      agent_type: 'Explore',
      agent_id: expect.stringMatching(/^a[0-9a-f]{16}$/),
    });
    const stop = seen.find((h) => h.hook_event_name === 'SubagentStop')!;
    expect(stop).toMatchObject({ agent_id: start.agent_id, last_assistant_message: 'explored' });
    const child = model.requests().find((r) => r.headers['x-gantry-agent-id'])!;
    expect(JSON.stringify(child.body.messages)).toContain('remember the budget');
  });
});
