/**
 * Asks from a sub-agent bubble to whoever answers the parent, labelled with the child's agent id
 * and type; with nobody to ask they are denied and listed in the parent's permission_denials with
 * the agent id.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CanUseToolOptions, PermissionResult } from '../../loop/types.js';
import { deferred } from '../../testing/deferred.js';
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
import { parentToolResult, resultText, toolsWithAgent } from './test-support.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

async function childAsks(
  canUseTool?: (
    name: string,
    input: Record<string, unknown>,
    o: CanUseToolOptions,
  ) => Promise<PermissionResult>,
  extra: { subagent_type?: string; run_in_background?: boolean } = {},
) {
  world = makeLoopWorld();
  // A background child answers only once the parent's second request was sent, so its
  // notification cannot be folded into that request: it comes as a turn of its own.
  const parentSecond = deferred();
  const gate = extra.run_in_background ? parentSecond.promise : Promise.resolve();
  model = await startFakeModel(
    'anthropic',
    [
      reply.toolUse('Agent', { description: 'Run tests', prompt: 'Run the tests.', ...extra }),
      () => {
        parentSecond.resolve();
        return reply.text('Parent done.');
      },
      reply.text('Parent saw the notification.'),
    ],
    {
      routes: [
        {
          when: (r) => agentIdOf(r) !== undefined,
          script: [
            async () => {
              await gate;
              return reply.toolUse('Bash', {
                command: 'touch made-by-child.txt',
                description: 'make a file',
              });
            },
            reply.text('Child done.'),
          ],
        },
      ],
    },
  );
  return runQuery(
    await loopOptions(world, model, {
      prompt: 'Run the tests through an agent',
      tools: await toolsWithAgent(),
      permissionEngine: makeEngine(world),
      ...(canUseTool ? { canUseTool } : {}),
    }),
  );
}

describe('a foreground child asks', () => {
  it('the parent host answers allow; the ask carries the agent id and type', async () => {
    const asks: { name: string; o: CanUseToolOptions }[] = [];
    const run = await childAsks(async (name, _input, o) => {
      asks.push({ name, o });
      return { behavior: 'allow' };
    });
    expect(asks).toHaveLength(1);
    expect(asks[0]!.name).toBe('Bash');
    expect(asks[0]!.o.agentID).toMatch(/^a[0-9a-f]{16}$/);
    expect(asks[0]!.o.agentType).toBe('general-purpose');
    expect(run.results[0]!.permission_denials).toEqual([]);
    expect(resultText(parentToolResult(run))).toContain('Child done.');
  });

  it('the parent host refuses: the child gets the refusal, the parent lists it with the agent id', async () => {
    const run = await childAsks(async () => ({ behavior: 'deny', message: 'not now' }));
    const denials = run.results[0]!.permission_denials;
    expect(denials).toHaveLength(1);
    expect(denials[0]).toMatchObject({
      tool_name: 'Bash',
      agent_id: expect.stringMatching(/^a[0-9a-f]{16}$/),
    });
    const childResult = model!
      .requests()
      .filter((r) => r.headers['x-gantry-agent-id'])
      .at(-1)!;
    expect(JSON.stringify(childResult.body.messages)).toContain('not now');
  });

  it('headless, nobody to ask: denied, and listed in permission_denials with the agent id and input', async () => {
    const run = await childAsks(undefined);
    const denials = run.results[0]!.permission_denials;
    expect(denials).toEqual([
      {
        tool_name: 'Bash',
        tool_use_id: expect.any(String),
        tool_input: expect.objectContaining({ command: 'touch made-by-child.txt' }),
        agent_id: expect.stringMatching(/^a[0-9a-f]{16}$/),
      },
    ]);
    expect(resultText(parentToolResult(run))).toContain('denied in the agent: Bash');
  });
});

describe('a background child asks', () => {
  it('the ask reaches the parent host (never hangs, never silently denied)', async () => {
    const asks: CanUseToolOptions[] = [];
    const run = await childAsks(
      async (_n, _i, o) => {
        asks.push(o);
        return { behavior: 'allow' };
      },
      { run_in_background: true },
    );
    expect(asks).toHaveLength(1);
    expect(asks[0]!.agentType).toBe('general-purpose');
    // The launch returned at once; the notification came as a second turn.
    expect(run.results).toHaveLength(2);
    expect(run.results[1]!.result).toBe('Parent saw the notification.');
    const launch = resultText(parentToolResult(run));
    expect(launch).toContain('in the background');
    expect(launch).toContain('output_file:');
    const last = model!
      .requests()
      .filter((r) => !r.headers['x-gantry-agent-id'])
      .at(-1)!;
    const lastUser = JSON.stringify(last.body.messages.at(-1));
    expect(lastUser).toContain('<task-notification>');
    expect(lastUser).toContain('<status>completed</status>');
    expect(lastUser).toContain('Child done.');
  });
});
