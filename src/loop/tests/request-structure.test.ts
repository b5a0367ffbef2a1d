/**
 * What the loop sends, request by request, through the real SDK to the fake Messages API: the
 * system blocks (cached, byte-stable), the per-session context as a message, tool definitions,
 * the moving cache breakpoint, and the events' shapes (one assistant event per block, partial
 * stream events on request).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { allowAllDecider } from '../../runtime/index.js';
import { reply, text, thinking, toolUse } from '../../testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeLoopWorld,
  runQuery,
  startFakeModel,
} from '../../testing/loop-fixtures.js';
import { SECURITY_SECTION_TEXT } from '../prompt/security.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

function markers(body: any): string[] {
  const out: string[] = [];
  body.system?.forEach((b: any, i: number) => b.cache_control && out.push(`system.${i}`));
  body.messages.forEach((m: any, i: number) => {
    if (Array.isArray(m.content))
      m.content.forEach((b: any, j: number) => b.cache_control && out.push(`messages.${i}.${j}`));
  });
  body.tools?.forEach((t: any, i: number) => t.cache_control && out.push(`tools.${i}`));
  return out;
}

describe('request structure', () => {
  it('system blocks are cached and identical on every request; the session context rides in the first message', async () => {
    world = makeLoopWorld();
    writeFileSync(path.join(world.project, 'CLAUDE.md'), 'Always answer in haiku.');
    writeFileSync(path.join(world.project, 'a.txt'), 'a\n');
    model = await startFakeModel('anthropic', [
      reply.toolUse('Read', { file_path: path.join(world.project, 'a.txt') }),
      reply.toolUse('Bash', { command: 'ls' }),
      reply.text('done'),
    ]);
    const fixed = new Date(2031, 4, 6, 12, 0, 0);
    await runQuery(
      await loopOptions(world, model, {
        prompt: 'look around',
        decide: allowAllDecider,
        appendSystemPrompt: 'APPENDED',
        now: () => fixed,
      }),
    );
    const bodies = model.requests().map((r) => r.body);
    expect(bodies).toHaveLength(3);
    const systems = bodies.map((b) => JSON.stringify(b.system));
    expect(new Set(systems).size).toBe(1);
    const tools = bodies.map((b) => JSON.stringify(b.tools));
    expect(new Set(tools).size).toBe(1);
    const system = bodies[0].system;
    expect(system).toHaveLength(2);
    expect(system.every((b: any) => b.cache_control?.type === 'ephemeral')).toBe(true);
    expect(system[1].text).toContain(SECURITY_SECTION_TEXT);
    expect(system[1].text).toContain('Always answer in haiku.');
    expect(system[1].text.endsWith('APPENDED')).toBe(true);
    expect(systems[0]).not.toContain('2031-05-06');
    const m0 = bodies[0].messages[0];
    expect(m0.role).toBe('user');
    expect(m0.content[0].text).toContain("Today's date: 2031-05-06");
    expect(m0.content[1]).toMatchObject({ type: 'text', text: 'look around' });
    // Exactly three markers: both system blocks and the last block of the last message.
    for (const b of bodies) {
      const last = b.messages.length - 1;
      const lastBlock = b.messages[last].content.length - 1;
      expect(markers(b)).toEqual(['system.0', 'system.1', `messages.${last}.${lastBlock}`]);
    }
    // The second and third requests read what the ones before them cached.
    const usage = model.requests().map((r) => r.usage);
    expect(usage[1].cache_read_input_tokens).toBeGreaterThan(0);
    expect(usage[2].cache_read_input_tokens).toBeGreaterThan(usage[1].cache_read_input_tokens);
    expect(bodies[0].tools.map((t: any) => t.name)).toContain('Bash');
    expect(bodies[0].tools.every((t: any) => Object.keys(t).join() === 'name,description,input_schema')).toBe(
      true,
    );
  });

  it('one assistant event per content block, sharing the message id; thinking keeps its signature on the next request', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [
      reply.message([
        thinking('plan it'),
        text('Running it.'),
        toolUse('Bash', { command: 'true' }),
        toolUse('Bash', { command: 'echo hi' }),
      ]),
      reply.text('all done'),
    ]);
    const run = await runQuery(await loopOptions(world, model, { prompt: 'go', decide: allowAllDecider }));
    const first = run.of('assistant').slice(0, 4);
    expect(first.map((e) => e.message.content[0].type)).toEqual(['thinking', 'text', 'tool_use', 'tool_use']);
    expect(new Set(first.map((e) => e.message.id)).size).toBe(1);
    expect(first.every((e) => e.message.stop_reason === null && e.parent_tool_use_id === null)).toBe(true);
    const sent = model.requests()[1]!.body.messages[1].content;
    expect(sent[0]).toMatchObject({
      type: 'thinking',
      thinking: 'plan it',
      signature: expect.stringMatching(/^sig_fake_/),
    });
    // Both results in one user message, in call order.
    const results = model.requests()[1]!.body.messages[2].content;
    expect(results.map((b: any) => b.type)).toEqual(['tool_result', 'tool_result']);
    expect(results[1].content).toContain('hi');
    const userEvents = run.of('user');
    expect(userEvents).toHaveLength(2);
    expect(userEvents.every((e) => (e.message.content as any[]).length === 1)).toBe(true);
  });

  it('includePartialMessages adds Anthropic-shaped stream events, tool_use start included', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [
      reply.message([text('hi'), toolUse('Bash', { command: 'true' }, { id: 'toolu_x' })], { chunkChars: 1 }),
      reply.text('ok'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        decide: allowAllDecider,
        includePartialMessages: true,
      }),
    );
    const kinds = run.of('stream_event').map((e) => e.event.type);
    expect(kinds[0]).toBe('message_start');
    expect(kinds).toContain('content_block_delta');
    expect(kinds).toContain('message_delta');
    expect(kinds.filter((k) => k === 'message_stop')).toHaveLength(2);
    const start = run
      .of('stream_event')
      .find(
        (e) => e.event.type === 'content_block_start' && (e.event as any).content_block.type === 'tool_use',
      );
    expect((start?.event as any).content_block).toEqual({
      type: 'tool_use',
      id: 'toolu_x',
      name: 'Bash',
      input: {},
    });
    // Partial events come before the block's complete assistant event.
    const firstAssistant = run.events.findIndex((e) => e.type === 'assistant');
    const firstDelta = run.events.findIndex(
      (e) => e.type === 'stream_event' && e.event.type === 'content_block_delta',
    );
    expect(firstDelta).toBeLessThan(firstAssistant);
  });

  it('the init event names the session, cwd, tools, model and mode; initExtras are merged', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [reply.text('hi')]);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'hello',
        sessionId: '11111111-2222-3333-4444-555555555555',
        permissionMode: 'acceptEdits',
        initExtras: { apiKeySource: 'ANTHROPIC_API_KEY' },
      }),
    );
    const [init] = run.of('system', 'init');
    expect(init).toMatchObject({
      session_id: '11111111-2222-3333-4444-555555555555',
      cwd: world.project,
      model: 'claude-haiku-4-5',
      permissionMode: 'acceptEdits',
      apiKeySource: 'ANTHROPIC_API_KEY',
    });
    expect(init?.tools).toContain('Read');
    expect(run.result.sessionId).toBe('11111111-2222-3333-4444-555555555555');
    expect(run.events.every((e) => e.session_id === '11111111-2222-3333-4444-555555555555')).toBe(true);
  });
});

describe('events a tool forwards', () => {
  it('a tool that yields a forwarded event puts it into the stream unchanged; other progress becomes tool_progress', async () => {
    const { z } = await import('zod');
    const { buildTool } = await import('../../core/index.js');
    world = makeLoopWorld();
    const taskStarted = {
      type: 'system' as const,
      subtype: 'task_started' as const,
      task_id: 'a0000000000000001',
      tool_use_id: 'toolu_agent',
      description: 'look around',
      is_backgrounded: false,
      task_type: 'local_agent',
      session_id: 'S',
      uuid: 'U',
    };
    const agentLike = buildTool({
      name: 'FakeAgent',
      description: 'Forwards an event.',
      inputSchema: z.strictObject({}),
      isReadOnly: () => true,
      async *call() {
        yield { kind: 'query-event', event: taskStarted };
        yield { percent: 50 };
        return { data: 'sub-agent done' };
      },
    });
    model = await startFakeModel('anthropic', [
      reply.toolUse('FakeAgent', {}, { id: 'toolu_agent' }),
      reply.text('ok'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, { prompt: 'go', tools: [agentLike], decide: allowAllDecider }),
    );
    expect(run.of('system', 'task_started')).toEqual([taskStarted]);
    expect(run.of('tool_progress')).toHaveLength(1);
    expect(run.of('tool_progress')[0]).toMatchObject({
      tool_use_id: 'toolu_agent',
      tool_name: 'FakeAgent',
      data: { percent: 50 },
    });
  });
});
