/**
 * A project agent's own `mcpServers` in `gantry -p` (a real process, real stdio MCP servers, the
 * fake Messages API), in a trusted folder: a name shares the session's `--mcp-config` server, an
 * inline entry starts a server for the sub-agent alone; both serve the child's calls even though
 * its `tools:` list names only Read; the inline server never reaches the parent and is gone when
 * the run ends.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { agentIdOf, reply } from '../../testing/fake-model-script.js';
import { processesMatching } from '../../testing/mcp-client-fixtures.js';
import { mcpTestServerCommand } from '../../testing/mcp-test-server.js';
import {
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
  runGantry,
} from '../../testing/print-fixtures.js';

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

const names = (body: any): string[] => (body.tools ?? []).map((t: any) => t.name);

describe('gantry -p: an agent definition with its own MCP servers', () => {
  it('shares a session server by name and starts an inline one for the child only', async () => {
    const marker = `inline-${Math.random().toString(36).slice(2)}`;
    const shared = mcpTestServerCommand({ toolCount: 0, name: 'shared-scratch' });
    const inline = mcpTestServerCommand({ toolCount: 0, name: marker });
    const dir = path.join(world.project, '.claude', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'scribe.md'),
      [
        '---',
        'name: scribe',
        'description: Writes with its own servers.',
        'tools: Read',
        `mcpServers: ${JSON.stringify(['scratch', { inline: { command: inline.command, args: inline.args } }])}`,
        '---',
        'You are the scribe.',
        '',
      ].join('\n'),
    );
    let childTurn = 0;
    fake = await startFakeAnthropicServer({
      apiKey: PRINT_TEST_KEY,
      script: [
        reply.toolUse('Agent', { description: 'Scribe', prompt: 'Echo twice.', subagent_type: 'scribe' }),
        reply.text('Parent done.'),
      ],
      routes: [
        {
          when: (r) => agentIdOf(r) !== undefined,
          script: () => {
            childTurn++;
            if (childTurn === 1)
              return reply.toolUse('mcp__inline__echo', { message: 'via the inline server' });
            if (childTurn === 2)
              return reply.toolUse('mcp__scratch__echo', { message: 'via the shared server' });
            return reply.text('Echoed twice.');
          },
        },
      ],
    });
    const mcpConfig = JSON.stringify({
      mcpServers: { scratch: { command: shared.command, args: shared.args } },
    });
    const r = await runGantry(
      ['-p', '--mcp-config', mcpConfig, '--allowedTools', 'mcp__inline__echo,mcp__scratch__echo', 'delegate'],
      {
        cwd: world.project,
        env: gantryEnv(world, fake, { GANTRY_TRUST_PROJECT: '1', ENABLE_TOOL_SEARCH: 'false' }),
        timeoutMs: 120_000,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const child = fake.messageRequests.filter((x) => x.headers['x-gantry-agent-id']);
    const parent = fake.messageRequests.filter((x) => !x.headers['x-gantry-agent-id']);
    expect(child).toHaveLength(3);
    const childTools = names(child[0]!.body);
    expect(childTools).toContain('Read');
    expect(childTools).toContain('mcp__inline__echo');
    expect(childTools).toContain('mcp__scratch__echo');
    expect(names(parent[0]!.body)).toContain('mcp__scratch__echo');
    for (const p of parent) expect(names(p.body).some((n) => n.startsWith('mcp__inline__'))).toBe(false);
    expect(JSON.stringify(child[1]!.body.messages.at(-1))).toContain('via the inline server');
    expect(JSON.stringify(child[2]!.body.messages.at(-1))).toContain('via the shared server');
    expect(r.stdout).toContain('Parent done.');
    expect(processesMatching(marker)).toEqual([]);
  });
});
