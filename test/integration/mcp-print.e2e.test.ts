/**
 * MCP servers and deferred loading in `gantry -p`, end to end: the real `bin/gantry.js` with a
 * generated stdio server (200 tools, or 30) from `--mcp-config`, against the scripted fake model
 * servers.
 *
 * Anthropic: the first request carries no MCP definitions (their names are in the session
 * context), a ToolSearch call loads one (tool_reference + "Tool loaded."), the next request carries
 * it with `defer_loading: true`, and the call runs. A deferred tool the model calls without loading
 * it gets the same permission step (denied in -p without a rule). OpenAI-compatible: the loaded
 * definition is appended to the end of the tools list and the earlier bytes are unchanged. A tool
 * the server adds during the session (list_changed) is announced by name and callable.
 * docs/mcp-client.md.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeAnthropicServer,
  startFakeAnthropicServer,
} from '../../src/testing/fake-anthropic-server.js';
import { reply } from '../../src/testing/fake-model-script.js';
import { startFakeOpenAIServer } from '../../src/testing/fake-openai-server.js';
import { mcpTestServerCommand } from '../../src/testing/mcp-test-server.js';
import {
  type GantryPeer,
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
  runGantry,
  STREAM_ARGS,
  spawnGantry,
} from '../../src/testing/print-fixtures.js';

let world: PrintWorld;
let fake: FakeAnthropicServer | undefined;
beforeEach(() => {
  world = makePrintWorld();
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  world.cleanup();
});

const mcpConfig = (toolCount = 30, special = false) =>
  JSON.stringify({ mcpServers: { gen: mcpTestServerCommand({ toolCount, special }) } });
const BETA = 'advanced-tool-use-2025-11-20';
const betas = (r: { headers: Record<string, string> }): string[] =>
  (r.headers['anthropic-beta'] ?? '').split(',').map((b) => b.trim());
const names = (body: any): string[] => (body.tools ?? []).map((t: any) => t.name);
const allText = (body: any): string => JSON.stringify(body.messages);

describe('gantry -p with an MCP server (Anthropic)', () => {
  it('defers MCP tools, loads one through ToolSearch, sends it with defer_loading, runs it', async () => {
    fake = await startFakeAnthropicServer({
      apiKey: PRINT_TEST_KEY,
      script: [
        reply.toolUse('ToolSearch', { query: 'select:mcp__gen__get_issue' }),
        reply.toolUse('mcp__gen__get_issue', { id: '42' }),
        reply.toolUse('mcp__gen__delete_issue', { id: '42' }),
        reply.text('Done.'),
      ],
    });
    const r = await runGantry(
      [
        '-p',
        '--output-format',
        'stream-json',
        '--verbose',
        '--mcp-config',
        mcpConfig(200),
        '--allowedTools',
        'mcp__gen__get_issue',
        'find the issue',
      ],
      { cwd: world.project, env: gantryEnv(world, fake) },
    );
    expect(r.code, r.stderr).toBe(0);
    const events = r.lines();
    expect(events[0]).toMatchObject({ type: 'system', subtype: 'init' });
    expect(events[0].mcp_servers).toEqual([{ name: 'gen', status: 'connected', source: 'dynamic' }]);
    expect(events[0].tools).toContain('mcp__gen__get_issue');

    expect(events[0].tools.filter((n: string) => n.startsWith('mcp__gen__'))).toHaveLength(200);

    const requests = fake.messageRequests ?? [];
    const [first, second, third, fourth] = requests.map((m) => m.body);
    // First request: ToolSearch in full, no MCP definition; all 200 names are in the session context.
    expect(names(first)).toContain('ToolSearch');
    expect(names(first).some((n) => n.startsWith('mcp__'))).toBe(false);
    expect(allText(first)).toContain('# Deferred tools');
    // The names come one line per server: "gen: <tool> <tool> …" (full name mcp__gen__<tool>).
    const contextText = (first.messages[0].content as { text?: string }[])
      .map((b) => b.text ?? '')
      .join('\n');
    const genLine = contextText.split('\n').find((l) => l.startsWith('gen: '));
    expect(genLine?.slice('gen: '.length).split(' ')).toHaveLength(200);
    expect(contextText).toContain('mcp__<server>__<tool>');
    // Every request of a session with deferred loading carries the tool-search beta.
    for (const r of requests) expect(betas(r)).toContain(BETA);

    // ToolSearch answered with a tool reference and the sibling text.
    const last = second.messages[second.messages.length - 1];
    expect(last.content[0]).toMatchObject({
      type: 'tool_result',
      content: [{ type: 'tool_reference', tool_name: 'mcp__gen__get_issue' }],
    });
    expect(last.content[1]).toMatchObject({ type: 'text', text: 'Tool loaded.' });
    // Second request: the loaded tool in full, with defer_loading, in sorted place.
    const loaded = second.tools.find((t: any) => t.name === 'mcp__gen__get_issue');
    expect(loaded).toMatchObject({ defer_loading: true, input_schema: { type: 'object', required: ['id'] } });
    expect(names(second).filter((n) => n.startsWith('mcp__'))).toEqual(['mcp__gen__get_issue']);

    // The call ran on the server.
    expect(JSON.stringify(third.messages.at(-1))).toContain('\\"tool\\":\\"get_issue\\"');
    expect(JSON.stringify(third.messages.at(-1))).toContain('not instructions from the user');
    // A deferred tool never loaded: the same permission step (no rule → denied in -p).
    const denied = fourth.messages.at(-1).content[0];
    expect(denied).toMatchObject({ type: 'tool_result', is_error: true });
    const result = events.at(-1);
    expect(result).toMatchObject({ type: 'result', result: 'Done.' });
    expect(result.permission_denials.map((d: any) => d.tool_name)).toEqual(['mcp__gen__delete_issue']);
  });

  it('ENABLE_TOOL_SEARCH=false sends every MCP tool in full and no ToolSearch', async () => {
    fake = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script: [reply.text('ok')] });
    const r = await runGantry(['-p', '--mcp-config', mcpConfig(), 'x'], {
      cwd: world.project,
      env: gantryEnv(world, fake, { ENABLE_TOOL_SEARCH: 'false' }),
    });
    expect(r.code, r.stderr).toBe(0);
    const first = fake.messageRequests[0]?.body;
    expect(betas(fake.messageRequests[0] as any)).not.toContain(BETA);
    expect(names(first)).not.toContain('ToolSearch');
    expect(names(first).filter((n) => n.startsWith('mcp__gen__'))).toHaveLength(30);
    expect(allText(first)).not.toContain('# Deferred tools');
  });
});

describe('gantry -p with a server that adds a tool (list_changed)', () => {
  it('announces the new deferred tool by name, and the model can load and call it', async () => {
    fake = await startFakeAnthropicServer({
      apiKey: PRINT_TEST_KEY,
      script: [
        reply.toolUse('mcp__gen__add_tool', { name: 'zz_late_arrival' }),
        reply.toolUse('ToolSearch', { query: 'select:mcp__gen__zz_late_arrival' }),
        reply.toolUse('mcp__gen__zz_late_arrival', {}),
        reply.text('Done.'),
      ],
    });
    const r = await runGantry(
      ['-p', '--mcp-config', mcpConfig(2, true), '--allowedTools', 'mcp__gen', 'add a tool'],
      { cwd: world.project, env: gantryEnv(world, fake) },
    );
    expect(r.code, r.stderr).toBe(0);
    const [first, second, third, fourth] = fake.messageRequests.map((m) => m.body);
    expect(allText(first)).not.toContain('zz_late_arrival');
    // The note rides in the user message with the add_tool result.
    const note = second.messages
      .at(-1)
      .content.find((b: any) => b.type === 'text' && b.text.includes('mcp__gen__zz_late_arrival'));
    expect(note?.text).toMatch(/^<system-reminder>\nNew deferred tools/);
    expect(names(second)).not.toContain('mcp__gen__zz_late_arrival');
    expect(third.messages.at(-1).content[0]).toMatchObject({
      content: [{ type: 'tool_reference', tool_name: 'mcp__gen__zz_late_arrival' }],
    });
    expect(names(third)).toContain('mcp__gen__zz_late_arrival');
    // The call reached the server (it answers every generated tool with its name).
    const result = fourth.messages.at(-1).content[0];
    expect(result.is_error ?? false).toBe(false);
    expect(JSON.stringify(result.content)).toContain('zz_late_arrival');
  });
});

describe('--permission-prompt-tool mcp__server__tool', () => {
  it('puts asks to the MCP tool: its allow runs the call, its deny refuses it with its reason', async () => {
    writeFileSync(path.join(world.project, 'notes.txt'), 'hello\n');
    fake = await startFakeAnthropicServer({
      apiKey: PRINT_TEST_KEY,
      script: [
        reply.toolUse('Bash', { command: 'cat notes.txt > copy.txt' }),
        reply.toolUse('Bash', { command: 'echo secret > leak.txt' }),
        reply.text('Done.'),
      ],
    });
    const r = await runGantry(
      [
        '-p',
        '--output-format',
        'json',
        '--mcp-config',
        mcpConfig(0, true),
        '--permission-prompt-tool',
        'mcp__gen__approve',
        'copy the notes',
      ],
      { cwd: world.project, env: gantryEnv(world, fake) },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/permission-prompt-tool/);
    expect(readFileSync(path.join(world.project, 'copy.txt'), 'utf8')).toBe('hello\n');
    expect(existsSync(path.join(world.project, 'leak.txt'))).toBe(false);
    const [, second, third] = fake.messageRequests.map((m) => m.body);
    expect(second.messages.at(-1).content[0].is_error ?? false).toBe(false);
    const refused = third.messages.at(-1).content[0];
    expect(refused.is_error).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('approve: Bash may not touch secrets');
    expect(JSON.parse(r.stdout).permission_denials.map((d: any) => d.tool_name)).toEqual(['Bash']);
  });

  it('a prompt tool no server has: a warning, and asks are denied', async () => {
    fake = await startFakeAnthropicServer({
      apiKey: PRINT_TEST_KEY,
      script: [reply.toolUse('Bash', { command: 'touch made.txt' }), reply.text('Done.')],
    });
    const r = await runGantry(
      ['-p', '--mcp-config', mcpConfig(0, true), '--permission-prompt-tool', 'mcp__gen__nope', 'make it'],
      { cwd: world.project, env: gantryEnv(world, fake) },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /--permission-prompt-tool mcp__gen__nope: no connected MCP server has this tool/,
    );
    expect(existsSync(path.join(world.project, 'made.txt'))).toBe(false);
  });
});

describe('stream-json control requests with MCP servers', () => {
  let peer: GantryPeer | undefined;
  afterEach(async () => {
    if (peer && peer.child.exitCode === null) {
      peer.child.kill('SIGKILL');
      await peer.exited;
    }
    peer = undefined;
  });

  it('mcp_status reports each server as it is now: a server that crashed mid-call shows failed', async () => {
    fake = await startFakeAnthropicServer({
      apiKey: PRINT_TEST_KEY,
      script: [reply.toolUse('mcp__gen__crash', {}), reply.text('It crashed.')],
    });
    const p = spawnGantry(
      [...STREAM_ARGS, '--mcp-config', mcpConfig(1, true), '--allowedTools', 'mcp__gen'],
      { cwd: world.project, env: gantryEnv(world, fake) },
    );
    peer = p;
    const before = p.request('mcp_status');
    expect((await p.response(before)).response.response).toEqual({
      mcpServers: [{ name: 'gen', status: 'connected' }],
    });
    const unsupported = p.request('mcp_message', { server_name: 'x', message: {} });
    // mcp_message goes from Gantry to the host (in-process SDK servers), never the other way.
    expect((await p.response(unsupported)).response.error).toMatch(
      /^mcp_message: the host sends mcp_message requests/,
    );
    p.user('crash it');
    await p.next((l) => l.type === 'result');
    const after = p.request('mcp_status');
    const [server] = (await p.response(after)).response.response.mcpServers;
    expect(server).toMatchObject({ name: 'gen', status: 'failed' });
    expect(server.error).toMatch(/exited/);
    p.end();
    expect((await p.exited).code).toBe(0);
  });
});

describe('gantry -p with an MCP server (OpenAI-compatible)', () => {
  it('appends the loaded definition at the end; the tools before it are byte-identical', async () => {
    const openai = await startFakeOpenAIServer({
      apiKey: 'sk-openai-test',
      script: [
        reply.toolUse('ToolSearch', { query: 'weather forecast' }),
        reply.toolUse('mcp__gen__get_weather_forecast', { id: 'oslo' }),
        reply.text('Sunny.'),
      ],
    });
    try {
      const r = await runGantry(
        [
          '-p',
          '--provider',
          'openai',
          '--model',
          'gpt-4.1',
          '--mcp-config',
          mcpConfig(),
          '--allowedTools',
          'mcp__gen',
          'weather?',
        ],
        {
          cwd: world.project,
          env: gantryEnv(world, undefined, {
            OPENAI_API_KEY: 'sk-openai-test',
            OPENAI_BASE_URL: `${openai.url}/v1`,
          }),
        },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('Sunny.\n');
      const bodies = openai.modelRequests.map((m) => m.body);
      const tools = (b: any) => b.tools.map((t: any) => t.function.name) as string[];
      expect(tools(bodies[0]).some((n) => n.startsWith('mcp__'))).toBe(false);
      const added = tools(bodies[1]).slice(tools(bodies[0]).length);
      expect(added.length).toBeGreaterThan(0);
      expect(added).toContain('mcp__gen__get_weather_forecast');
      expect(JSON.stringify(bodies[1].tools.slice(0, tools(bodies[0]).length))).toBe(
        JSON.stringify(bodies[0].tools),
      );
      expect(JSON.stringify(bodies[1].messages)).toContain('Tool loaded: mcp__gen__get_weather_forecast');
      expect(JSON.stringify(bodies[2].messages)).toContain('get_weather_forecast');
    } finally {
      await openai.close();
    }
  });
});
