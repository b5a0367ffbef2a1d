/**
 * SubagentStart / SubagentStop hooks of the parent session fire for each sub-agent, with its id
 * and type (matched on the type); SubagentStart's context reaches the child's first prompt. The
 * parent's session-level hooks (UserPromptSubmit, Stop) do not run inside the child. A SubagentStop
 * hook that blocks (a callback's `decision: "block"`, a command's exit 2) sends the child back to
 * work with its reason, at most `MAX_STOP_HOOK_BLOCKS` times in a row.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_STOP_HOOK_BLOCKS } from '../../loop/prompt-turn.js';
import type { HookInput } from '../../loop/types.js';
import { loadSettings } from '../../permissions/index.js';
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

  it('a SubagentStop block sends the child back with the reason; the next input says so', async () => {
    world = makeLoopWorld();
    model = await startFakeModel(
      'anthropic',
      [reply.toolUse('Agent', { description: 'Work', prompt: 'Do the work.' }), reply.text('done')],
      {
        routes: [
          {
            when: (r) => agentIdOf(r) !== undefined,
            script: [reply.text('Half done.'), reply.text('All done, tests included.')],
          },
        ],
      },
    );
    const seen: HookInput[] = [];
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await toolsWithAgent(),
        permissionEngine: makeEngine(world),
        hooks: {
          SubagentStop: [
            {
              matcher: 'general-purpose',
              hooks: [
                async (input) => {
                  seen.push(input);
                  return seen.length === 1 ? { decision: 'block' as const, reason: 'run the tests too' } : {};
                },
              ],
            },
          ],
        },
      }),
    );
    const child = model.requests().filter((r) => r.headers['x-gantry-agent-id']);
    expect(child).toHaveLength(2);
    expect(JSON.stringify(child[1]!.body.messages.at(-1))).toContain(
      'SubagentStop hook feedback:\\nrun the tests too',
    );
    expect(seen.map((h: any) => h.stop_hook_active)).toEqual([false, true]);
    expect(seen[1]).toMatchObject({
      hook_event_name: 'SubagentStop',
      agent_type: 'general-purpose',
      last_assistant_message: 'All done, tests included.',
      agent_transcript_path: expect.stringMatching(/subagents\/agent-a[0-9a-f]{16}\.jsonl$/),
    });
    const parentLast = model.requests().filter((r) => !r.headers['x-gantry-agent-id'])[1]!;
    expect(JSON.stringify(parentLast.body.messages.at(-1))).toContain('All done, tests included.');
    expect(run.results.at(-1)?.subtype).toBe('success');
  });

  it('a command SubagentStop hook that always blocks (exit 2) is honoured a bounded number of times', async () => {
    world = makeLoopWorld();
    const replies = Array.from({ length: MAX_STOP_HOOK_BLOCKS + 3 }, (_, i) => reply.text(`attempt ${i}`));
    model = await startFakeModel(
      'anthropic',
      [reply.toolUse('Agent', { description: 'Work', prompt: 'Do the work.' }), reply.text('done')],
      { routes: [{ when: (r) => agentIdOf(r) !== undefined, script: replies }] },
    );
    const settings = path.join(world.root, 'hooks.json');
    writeFileSync(
      settings,
      JSON.stringify({
        hooks: { SubagentStop: [{ hooks: [{ type: 'command', command: 'echo never enough >&2; exit 2' }] }] },
      }),
    );
    const loaded = loadSettings({
      projectRoot: world.project,
      home: world.home,
      managedFiles: [],
      settingsFiles: [settings],
      trust: true,
    });
    await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await toolsWithAgent(),
        permissionEngine: makeEngine(world),
        settingsHooks: loaded.eventHooks as never,
      }),
    );
    const child = model.requests().filter((r) => r.headers['x-gantry-agent-id']);
    expect(child).toHaveLength(MAX_STOP_HOOK_BLOCKS + 1);
    expect(JSON.stringify(child.at(-1)!.body.messages.at(-1))).toContain('never enough');
    const parentLast = model.requests().filter((r) => !r.headers['x-gantry-agent-id'])[1]!;
    expect(JSON.stringify(parentLast.body.messages.at(-1))).toContain(`attempt ${MAX_STOP_HOOK_BLOCKS}`);
  });
});
