import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool, type PermissionDecider } from '../../core/index.js';
import type { GantryMcpServerOptions } from './gantry-mcp-server.js';
import { type HttpMcpServer, serveHttp } from './transports.js';

const Echo = buildTool({
  name: 'Echo',
  description: 'Echoes text.',
  inputSchema: z.object({ text: z.string() }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  async *call(input: { text: string }) {
    return { data: `echo: ${input.text}` };
  },
});

const Touch = buildTool({
  name: 'Touch',
  description: 'Creates a file.',
  inputSchema: z.object({ file_path: z.string() }),
  async *call(input: { file_path: string }) {
    writeFileSync(input.file_path, 'x');
    return { data: `created ${input.file_path}` };
  },
});

/** Echo → allow, Touch → ask, anything else → deny; reasons name the rule. */
const decide: PermissionDecider = async (req) => {
  if (req.toolName === 'Echo')
    return { behavior: 'allow', reason: { type: 'rule', message: 'allowed by Echo' } };
  if (req.toolName === 'Touch')
    return { behavior: 'ask', reason: { type: 'default', message: 'Touch writes files' }, suggestions: [] };
  return { behavior: 'deny', reason: { type: 'rule', message: 'denied by rule X' } };
};

let servers: HttpMcpServer[] = [];
let dirs: string[] = [];
afterEach(async () => {
  for (const s of servers) await s.close();
  servers = [];
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

async function connect(opts: Partial<GantryMcpServerOptions>, elicit?: 'allow' | 'deny') {
  const cwd = mkdtempSync(path.join(tmpdir(), 'gantry-mcp-'));
  dirs.push(cwd);
  const srv = await serveHttp(
    { tools: [Echo, Touch], cwd, decide, sessionDir: path.join(cwd, '.session'), ...opts },
    0,
  );
  servers.push(srv);
  const client = new Client(
    { name: 'test', version: '1' },
    { capabilities: elicit ? { elicitation: { form: {} } } : {} },
  );
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { decision: elicit },
    }));
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(srv.url)));
  return { client, cwd, srv };
}

describe('gantry mcp over Streamable HTTP (SDK client)', () => {
  it('lists tools with schemas and annotations from the tools flags', async () => {
    const { client } = await connect({});
    const { tools } = await client.listTools();
    const echo = tools.find((t) => t.name === 'Echo');
    expect(echo?.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } } });
    expect(echo?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tools.find((t) => t.name === 'Touch')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    await client.close();
  });

  it('allow runs the tool', async () => {
    const { client } = await connect({});
    const r = await client.callTool({ name: 'Echo', arguments: { text: 'hi' } });
    expect(r.isError).toBe(false);
    expect(r.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
    await client.close();
  });

  it('ask without elicitation follows --on-ask deny (default): isError, nothing written', async () => {
    const { client, cwd } = await connect({});
    const f = path.join(cwd, 'a.txt');
    const r = await client.callTool({ name: 'Touch', arguments: { file_path: f } });
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toContain('Touch writes files');
    expect(existsSync(f)).toBe(false);
    await client.close();
  });

  it('ask without elicitation follows --on-ask allow', async () => {
    const { client, cwd } = await connect({ onAsk: 'allow' });
    const f = path.join(cwd, 'b.txt');
    const r = await client.callTool({ name: 'Touch', arguments: { file_path: f } });
    expect(r.isError).toBe(false);
    expect(existsSync(f)).toBe(true);
    await client.close();
  });

  it.each([
    ['allow', false, true, 'the user accepted the elicitation'],
    ['deny', true, false, 'the user refused the elicitation'],
  ] as const)(
    'ask with elicitation answered %s → isError %s, file written %s (%s)',
    async (answer, isError, written, _why) => {
      const { client, cwd } = await connect({}, answer);
      const f = path.join(cwd, 'c.txt');
      const r = await client.callTool({ name: 'Touch', arguments: { file_path: f } });
      expect(r.isError).toBe(isError);
      expect(existsSync(f)).toBe(written);
      await client.close();
    },
  );

  it('schema errors and unknown tools come back as isError, not protocol errors', async () => {
    const { client } = await connect({});
    const bad = await client.callTool({ name: 'Echo', arguments: { text: 3 } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('text');
    const unknown = await client.callTool({ name: 'Nope', arguments: {} });
    expect(unknown.isError).toBe(true);
    await client.close();
  });

  it('rejects a foreign Host header (DNS-rebinding protection)', async () => {
    const { srv, client } = await connect({});
    await client.close();
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    // node:http lets the test send a forged Host header (fetch replaces it).
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: srv.port,
          path: '/mcp',
          method: 'POST',
          headers: {
            host: 'evil.example:80',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(403);
  });
});
