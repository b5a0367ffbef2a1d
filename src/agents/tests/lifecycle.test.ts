/**
 * How sub-agents end: a child whose model fails, the parent aborted mid-child (the child's loop is
 * closed, its meta file says killed), nesting up to the depth limit, and background agents seen
 * through TaskOutput and stopped with TaskStop, finishing while the parent is busy.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueryEvent } from '../../loop/types.js';
import { agentIdOf, reply, type ScriptRequest } from '../../testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeEngine,
  makeLoopWorld,
  runQuery,
  startFakeModel,
} from '../../testing/loop-fixtures.js';
import {
  parentToolResult,
  parentToolResults,
  resultText,
  toolNames,
  toolsWithAgent,
} from './test-support.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

function metaFiles(transcript: string): any[] {
  const dir = path.join(transcript.replace(/\.jsonl$/, ''), 'subagents');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.meta.json'))
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')));
}

describe('sub-agent endings', () => {
  it('a child whose model fails: the parent gets a failed result and goes on', async () => {
    world = makeLoopWorld();
    model = await startFakeModel(
      'anthropic',
      [reply.toolUse('Agent', { description: 'Doomed', prompt: 'x' }), reply.text('Handled the failure.')],
      { routes: [{ when: (r) => agentIdOf(r) !== undefined, script: [reply.error(400)] }] },
    );
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await toolsWithAgent(),
        permissionEngine: makeEngine(world),
      }),
    );
    expect(run.results[0]).toMatchObject({ is_error: false, result: 'Handled the failure.' });
    expect(parentToolResult(run)!.tool_use_result).toMatchObject({ status: 'failed' });
    expect(resultText(parentToolResult(run))).toContain('API Error: 400');
    expect(metaFiles(run.result.transcriptPath!)[0]).toMatchObject({ finished: true, status: 'failed' });
  });

  it('the parent aborted while the child runs: every tool_use answered, the child killed and recorded', async () => {
    world = makeLoopWorld();
    model = await startFakeModel(
      'anthropic',
      [reply.toolUse('Agent', { description: 'Long', prompt: 'x' }), reply.text('never reached')],
      { routes: [{ when: (r) => agentIdOf(r) !== undefined, script: [reply.stall()] }] },
    );
    const controller = new AbortController();
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await toolsWithAgent(),
        permissionEngine: makeEngine(world),
        abortSignal: controller.signal,
      }),
      (e: QueryEvent) => {
        if (
          e.type === 'assistant' &&
          (e as any).agent_id === undefined &&
          e.message.content[0]?.type === 'tool_use'
        )
          setTimeout(() => controller.abort(), 100);
      },
    );
    expect(run.results[0]).toMatchObject({
      is_error: true,
      terminal_reason: expect.stringMatching(/^aborted/),
    });
    expect(parentToolResults(run)).toHaveLength(1);
    const meta = metaFiles(run.result.transcriptPath!)[0];
    expect(meta).toMatchObject({ finished: true, status: 'killed' });
  });

  it('nested agents: the chain stops at the depth limit (no Agent tool at depth 3)', async () => {
    world = makeLoopWorld();
    const depthOf = new Map<string, number>();
    const childScript = (r: ScriptRequest) => {
      const hasAgent = toolNames(r.body).includes('Agent');
      const last = JSON.stringify(r.body.messages.at(-1));
      if (hasAgent && !last.includes('tool_result'))
        return reply.toolUse('Agent', { description: 'Deeper', prompt: 'go deeper' });
      return reply.text(hasAgent ? 'nested done' : 'bottom reached');
    };
    model = await startFakeModel(
      'anthropic',
      [reply.toolUse('Agent', { description: 'Level 1', prompt: 'go deeper' }), reply.text('top done')],
      { routes: [{ when: (r) => agentIdOf(r) !== undefined, script: childScript }] },
    );
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await toolsWithAgent(),
        permissionEngine: makeEngine(world),
      }),
    );
    expect(run.results[0]!.result).toBe('top done');
    const ids = new Set(
      model
        .requests()
        .map((r) => r.headers['x-gantry-agent-id'])
        .filter(Boolean),
    );
    expect(ids.size).toBe(3);
    for (const r of model.requests()) {
      const id = r.headers['x-gantry-agent-id'];
      if (id) depthOf.set(id, toolNames(r.body).includes('Agent') ? 1 : 3);
    }
    expect([...depthOf.values()].filter((d) => d === 3)).toHaveLength(1);
    expect(
      metaFiles(run.result.transcriptPath!)
        .map((m) => m.spawnDepth)
        .sort(),
    ).toEqual([1, 2, 3]);
  });
});

describe('background agent tasks', () => {
  it('TaskOutput waits for the agent and returns its report; the notification lands while the parent is busy', async () => {
    world = makeLoopWorld();
    let agentTask = '';
    model = await startFakeModel(
      'anthropic',
      [
        reply.toolUse('Agent', { description: 'Bg', prompt: 'x', run_in_background: true }),
        (r) => {
          const launch = JSON.stringify(r.body.messages.at(-1));
          agentTask = /agentId: (a[0-9a-f]{16})/.exec(launch)?.[1] ?? '';
          return reply.toolUse('TaskOutput', { task_id: agentTask, block: true, timeout: 30000 });
        },
        reply.text('Read the output.'),
        reply.text('extra'),
      ],
      {
        routes: [
          {
            when: (r) => agentIdOf(r) !== undefined,
            script: [reply.text('background report', { delayMs: 20 })],
          },
        ],
      },
    );
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await toolsWithAgent(),
        permissionEngine: makeEngine(world),
      }),
    );
    expect(agentTask).toMatch(/^a[0-9a-f]{16}$/);
    const outputs = parentToolResults(run).map((e) => resultText(e));
    expect(outputs[1]).toContain('background report');
    // Delivered inside the busy turn (the next request after TaskOutput), not as a second turn.
    const third = model.requests().filter((r) => !r.headers['x-gantry-agent-id'])[2]!;
    expect(JSON.stringify(third.body.messages.at(-1))).toContain('<task-notification>');
    expect(run.results).toHaveLength(1);
  });

  it('TaskStop stops a running background agent; its notification says killed', async () => {
    world = makeLoopWorld();
    model = await startFakeModel(
      'anthropic',
      [
        reply.toolUse('Agent', { description: 'Bg', prompt: 'x', run_in_background: true }),
        (r) => {
          const id = /agentId: (a[0-9a-f]{16})/.exec(JSON.stringify(r.body.messages.at(-1)))?.[1] ?? '';
          return reply.toolUse('TaskStop', { task_id: id });
        },
        reply.text('Stopped it.'),
        reply.text('Saw the notification.'),
      ],
      { routes: [{ when: (r) => agentIdOf(r) !== undefined, script: [reply.stall()] }] },
    );
    const tools = await toolsWithAgent();
    const run = await runQuery(
      await loopOptions(world, model, { prompt: 'go', tools, permissionEngine: makeEngine(world) }),
    );
    const stopped = resultText(parentToolResults(run)[1]);
    expect(stopped).toContain('Successfully stopped task');
    const all = JSON.stringify(
      model
        .requests()
        .filter((r) => !r.headers['x-gantry-agent-id'])
        .map((r) => r.body.messages.at(-1)),
    );
    expect(all).toContain('<status>killed</status>');
    expect(metaFiles(run.result.transcriptPath!)[0]).toMatchObject({
      status: 'killed',
      requestShape: 'background',
    });
  });
});
