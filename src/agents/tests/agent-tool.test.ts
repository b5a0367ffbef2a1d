/**
 * The Agent tool end to end on the fake Messages API: a parent session starts sub-agents of each
 * type; the child's requests (routed by their agent id header) carry its own tools and prompt;
 * results, forwarded events, sidechain transcripts and meta files are checked.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentIdOf, reply, text, toolUse } from '../../testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeEngine,
  makeLoopWorld,
  runQuery,
  startFakeModel,
} from '../../testing/loop-fixtures.js';
import { parentToolResult, toolNames, toolsWithAgent } from './test-support.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

describe('a foreground general-purpose agent', () => {
  it('runs the child with its own tools, forwards its events and returns its report', async () => {
    world = makeLoopWorld();
    const file = path.join(world.project, 'notes.txt');
    writeFileSync(file, 'the answer is 42\n');
    model = await startFakeModel(
      'anthropic',
      [
        reply.message([
          text('Delegating.'),
          toolUse('Agent', { description: 'Find the answer', prompt: `Read ${file} and report the answer.` }),
        ]),
        reply.text('The sub-agent says 42.'),
      ],
      {
        routes: [
          {
            name: 'child',
            when: (r) => agentIdOf(r) !== undefined,
            script: [reply.toolUse('Read', { file_path: file }), reply.text('The answer is 42.')],
          },
        ],
      },
    );
    const engine = makeEngine(world);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'What is the answer?',
        tools: await toolsWithAgent(),
        permissionEngine: engine,
      }),
    );
    expect(run.results[0]).toMatchObject({
      subtype: 'success',
      is_error: false,
      result: 'The sub-agent says 42.',
    });

    const requests = model.requests();
    const child = requests.filter((r) => r.headers['x-gantry-agent-id']);
    expect(child).toHaveLength(2);
    const agentId = child[0]!.headers['x-gantry-agent-id']!;
    expect(agentId).toMatch(/^a[0-9a-f]{16}$/);
    // general-purpose keeps Agent (depth 1 < limit) and loses the global denylist.
    expect(toolNames(child[0]!.body)).toContain('Agent');
    expect(toolNames(child[0]!.body)).not.toContain('TaskStop');
    expect(JSON.stringify(child[0]!.body.system)).toContain('sub-agent of Gantry');

    // The child's events reach the parent's stream, labelled.
    const childEvents = run.events.filter((e) => (e as any).agent_id === agentId);
    expect(childEvents.some((e) => e.type === 'assistant')).toBe(true);
    expect(childEvents.every((e) => (e as any).parent_tool_use_id)).toBe(true);

    // The parent's tool_result: the report, the agent id, the usage.
    const agentResult = parentToolResult(run);
    const content = JSON.stringify((agentResult!.message.content[0] as any).content);
    expect(content).toContain('The answer is 42.');
    expect(content).toContain(`agentId: ${agentId}`);
    expect(content).toContain('tool_uses: 1');
    expect(agentResult!.tool_use_result).toMatchObject({
      status: 'completed',
      agentId,
      agentType: 'general-purpose',
      totalToolUseCount: 1,
    });

    // Sidechain transcript and meta next to the parent's file.
    const parentFile = run.result.transcriptPath!;
    const side = path.join(parentFile.replace(/\.jsonl$/, ''), 'subagents', `agent-${agentId}.jsonl`);
    expect(existsSync(side)).toBe(true);
    const lines = readFileSync(side, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(
      lines
        .filter((l) => l.type === 'assistant')
        .every((l) => l.isSidechain === true && l.agentId === agentId),
    ).toBe(true);
    const meta = JSON.parse(readFileSync(side.replace(/\.jsonl$/, '.meta.json'), 'utf8'));
    expect(meta).toMatchObject({
      agentType: 'general-purpose',
      isBuiltIn: true,
      spawnDepth: 1,
      requestShape: 'foreground',
      finished: true,
      status: 'completed',
    });
  });
});

describe('read-only types', () => {
  it.each(['Explore', 'Plan'])('%s gets no Agent, Edit, Write or NotebookEdit', async (type) => {
    world = makeLoopWorld();
    model = await startFakeModel(
      'anthropic',
      [
        reply.toolUse('Agent', { description: 'Look', prompt: 'Look around.', subagent_type: type }),
        reply.text('ok'),
      ],
      { routes: [{ when: (r) => agentIdOf(r) !== undefined, script: [reply.text('Nothing here.')] }] },
    );
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'Look',
        tools: await toolsWithAgent(),
        permissionEngine: makeEngine(world),
      }),
    );
    expect(run.results[0]!.is_error).toBe(false);
    const child = model.requests().find((r) => r.headers['x-gantry-agent-id'])!;
    const names = toolNames(child.body);
    for (const gone of ['Agent', 'Edit', 'Write', 'NotebookEdit']) expect(names).not.toContain(gone);
    for (const kept of ['Bash', 'Glob', 'Grep', 'Read']) expect(names).toContain(kept);
    // One-shot: no agent id to continue in the parent's result text.
    const r = parentToolResult(run);
    expect(JSON.stringify(r!.message.content)).not.toContain('agentId:');
  });

  it('an unknown type is a clear input error, the child never starts', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [
      reply.toolUse('Agent', { description: 'x', prompt: 'y', subagent_type: 'nope' }),
      reply.text('ok'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await toolsWithAgent(),
        permissionEngine: makeEngine(world),
      }),
    );
    const r = parentToolResult(run);
    expect(JSON.stringify(r!.message.content)).toContain('Unknown agent type');
    expect(model.requests().some((x) => x.headers['x-gantry-agent-id'])).toBe(false);
  });
});

describe('on the OpenAI-compatible provider', () => {
  it('a foreground agent runs and reports back the same way', async () => {
    world = makeLoopWorld();
    model = await startFakeModel(
      'openai',
      [
        reply.toolUse('Agent', { description: 'Ask', prompt: 'Say the word.' }),
        reply.text('Parent heard it.'),
      ],
      { routes: [{ when: (r) => agentIdOf(r) !== undefined, script: [reply.text('The word is gantry.')] }] },
    );
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await toolsWithAgent(),
        permissionEngine: makeEngine(world),
      }),
    );
    expect(run.results[0]).toMatchObject({ is_error: false, result: 'Parent heard it.' });
    expect(JSON.stringify(parentToolResult(run)!.message.content)).toContain('The word is gantry.');
    expect(model.requests().filter((r) => r.headers['x-gantry-agent-id'])).toHaveLength(1);
  });
});
