/**
 * The MCP client against the npm reference servers over stdio: server-everything (tool hints,
 * get-sum, a schema error, the tiny image, elicitation from trigger-elicitation-request, resource
 * links, resources through ListMcpResourcesTool / ReadMcpResourceTool) and server-memory (a
 * knowledge graph written and read back). docs/mcp-client.md.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentText } from '../../core/content.js';
import type { AnyTool } from '../../core/tool.js';
import { type McpTestSession, startMcpSession, stdioEntry } from '../../testing/mcp-client-fixtures.js';
import { referenceServerCommand } from '../../testing/mcp-test-server.js';
import { makeTempDir, makeToolContext, runTool } from '../../testing/tool-harness.js';

const find = (tools: readonly AnyTool[], name: string) => {
  const t = tools.find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name}: ${tools.map((x) => x.name).join(', ')}`);
  return t;
};

describe('server-everything', () => {
  let s: McpTestSession;
  const elicitations: string[] = [];
  beforeAll(async () => {
    s = await startMcpSession(
      { everything: stdioEntry(referenceServerCommand('everything')) },
      {
        elicit: async (request) => {
          elicitations.push(request.message);
          return { action: 'cancel' };
        },
      },
    );
  });
  afterAll(async () => {
    await s?.cleanup();
  });
  const run = (name: string, input: Record<string, unknown>) =>
    runTool(
      find([...s.manager.tools(), ...s.manager.resourceTools()], name),
      input,
      makeToolContext({ cwd: s.root, sessionDir: s.sessionDir }),
    );

  it('adapts its tools with their hints and hyphenated names', () => {
    const sum = find(s.manager.tools(), 'mcp__everything__get-sum');
    expect(sum.isReadOnly({})).toBe(true);
    expect(find(s.manager.tools(), 'mcp__everything__toggle-simulated-logging').isReadOnly({})).toBe(false);
    expect(sum.inputJSONSchema?.$schema).toBe('http://json-schema.org/draft-07/schema#');
  });

  it('calls get-sum and rejects a bad input before the server sees it', async () => {
    expect(contentText((await run('mcp__everything__get-sum', { a: 2, b: 40 })).content)).toContain('42');
    const bad = await run('mcp__everything__get-sum', { a: 'two', b: 1 });
    expect(bad.ok).toBe(false);
    expect(bad.error).toMatch(/a/);
  });

  it('returns the tiny image as an image block and a saved file', async () => {
    const image = await run('mcp__everything__get-tiny-image', {});
    const blocks = image.content as { type: string; text?: string }[];
    expect(blocks.some((b) => b.type === 'image')).toBe(true);
    expect(
      blocks.some((b) => b.text?.startsWith(`[Image: source: ${path.join(s.sessionDir, 'tool-results')}`)),
    ).toBe(true);
  });

  it('sends its elicitation to the host', async () => {
    const r = await run('mcp__everything__trigger-elicitation-request', {});
    expect(elicitations.length).toBe(1);
    expect(contentText(r.content).toLowerCase()).toContain('cancel');
  });

  it('renders resource links as text', async () => {
    const r = await run('mcp__everything__get-resource-links', { count: 2 });
    expect(contentText(r.content)).toMatch(/\[Resource link: .+\] demo:\/\//);
  });

  it('lists and reads resources through the resource tools', async () => {
    const list = await run('ListMcpResourcesTool', {});
    expect(list.ok).toBe(true);
    const resources = list.data as { uri: string; server: string }[];
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.every((r) => r.server === 'everything')).toBe(true);
    const first = resources[0]?.uri ?? '';
    const read = await run('ReadMcpResourceTool', { server: 'everything', uri: first });
    expect(read.ok).toBe(true);
    expect(contentText(read.content)).toContain(first);
    const unknown = await run('ReadMcpResourceTool', { server: 'nope', uri: first });
    expect(unknown.error).toMatch(/not connected or has no resources/);
  });
});

describe('server-memory', () => {
  let s: McpTestSession;
  let dir: { dir: string; cleanup(): Promise<void> };
  beforeAll(async () => {
    dir = await makeTempDir('gantry-memory-');
    const env = { MEMORY_FILE_PATH: path.join(dir.dir, 'memory.jsonl') };
    s = await startMcpSession({ memory: stdioEntry(referenceServerCommand('memory'), { env }) });
  });
  afterAll(async () => {
    await s?.cleanup();
    await dir?.cleanup();
  });

  it('writes a knowledge graph and reads it back', async () => {
    const tools = s.manager.tools();
    const ctx = makeToolContext({ cwd: s.root, sessionDir: s.sessionDir });
    const created = await runTool(
      find(tools, 'mcp__memory__create_entities'),
      { entities: [{ name: 'Gantry', entityType: 'project', observations: ['guards tool calls'] }] },
      ctx,
    );
    expect(created.ok).toBe(true);
    const found = await runTool(find(tools, 'mcp__memory__search_nodes'), { query: 'Gantry' }, ctx);
    expect(contentText(found.content)).toContain('guards tool calls');
    expect(find(tools, 'mcp__memory__read_graph').isReadOnly({})).toBe(true);
    expect(find(tools, 'mcp__memory__delete_entities').isDestructive({})).toBe(true);
  });
});
