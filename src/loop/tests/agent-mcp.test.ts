/**
 * `createAgent({mcpServers})`, the library with a real MCP server from npm (server-everything over
 * stdio) against the fake Anthropic API: the session connects the server, reports it in
 * `system/init`, defers its tools behind ToolSearch (names in the context, the tool-search beta),
 * loads and runs one, and closes the server when the session ends. A bad entry is reported as a
 * failed server and the session goes on. docs/mcp-client.md "Using it".
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { reply } from '../../testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  makeLoopWorld,
  startFakeModel,
  TEST_KEY,
} from '../../testing/loop-fixtures.js';
import { processesMatching } from '../../testing/mcp-client-fixtures.js';
import { referenceServerCommand } from '../../testing/mcp-test-server.js';
import { createAgent } from '../agent.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

describe('createAgent with mcpServers', () => {
  it('connects per session, defers the tools, loads and calls one, closes the server at the end', async () => {
    world = makeLoopWorld();
    const marker = `--marker=${randomUUID()}`;
    const everything = referenceServerCommand('everything', [marker]);
    model = await startFakeModel('anthropic', [
      reply.toolUse('ToolSearch', { query: 'select:mcp__everything__echo' }),
      reply.toolUse('mcp__everything__echo', { message: 'from the library' }),
      reply.text('echoed'),
    ]);
    const agent = createAgent({
      cwd: world.project,
      home: world.home,
      model: 'haiku',
      env: {
        ANTHROPIC_API_KEY: TEST_KEY,
        ANTHROPIC_BASE_URL: (model.server as any).url,
        GANTRY_MAX_RETRIES: '0',
        MCP_TIMEOUT: '60000',
      },
      settings: { allowedTools: ['mcp__everything__echo'], managedFiles: [] },
      transcript: { gantryHome: world.gantryHome },
      mcpServers: { everything: everything, broken: { type: 'ws', url: 'ws://127.0.0.1:1' } },
    });
    const events: any[] = [];
    let liveDuringSession = 0;
    for await (const e of agent.query('echo something')) {
      events.push(e);
      if (e.type === 'system' && e.subtype === 'init') liveDuringSession = processesMatching(marker).length;
    }
    const init = events.find((e) => e.type === 'system' && e.subtype === 'init');
    expect(liveDuringSession).toBeGreaterThan(0);
    expect(init.mcp_servers).toEqual([
      { name: 'broken', status: 'failed', source: 'dynamic' },
      { name: 'everything', status: 'connected', source: 'dynamic' },
    ]);
    expect(init.tools).toContain('mcp__everything__echo');
    expect(events.filter((e) => e.type === 'result')).toMatchObject([
      { subtype: 'success', result: 'echoed' },
    ]);

    const [first, second, third] = model.requests();
    const names = (r: any): string[] => r.body.tools.map((t: any) => t.name);
    expect(names(first)).toContain('ToolSearch');
    expect(names(first).some((n) => n.startsWith('mcp__'))).toBe(false);
    // Deferred MCP tools are listed per server ("everything: echo … get-sum …") with the rule for
    // the full name (mcp__<server>__<tool>).
    const context = JSON.stringify(first?.body.messages);
    expect(context).toContain('mcp__<server>__<tool>');
    expect(context).toMatch(/everything: [^"\\]*\bget-sum\b/);
    for (const r of [first, second, third])
      expect(r?.headers['anthropic-beta']).toContain('advanced-tool-use');
    expect(second?.body.tools.find((t: any) => t.name === 'mcp__everything__echo')).toMatchObject({
      defer_loading: true,
    });
    expect(JSON.stringify(third?.body.messages.at(-1))).toContain('Echo: from the library');
    // The session ended: its server process is gone.
    expect(processesMatching(marker)).toEqual([]);
  });
});
