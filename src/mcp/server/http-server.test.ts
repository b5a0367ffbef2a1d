/**
 * The HTTP transport under bad input and idle clients, on a real server on 127.0.0.1 with the SDK
 * client and raw `node:http` requests: bearer token, 400/413 answers that keep the keep-alive
 * connection usable, idle sessions that expire (404 afterwards, as the MCP specification asks),
 * and calls cancelled when their client drops the connection.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool, type PermissionDecider } from '../../core/index.js';
import { type HttpMcpServer, type HttpServeOptions, serveHttp } from './http-server.js';

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

/** Waits until its call is aborted; records that it was. */
const aborted: string[] = [];
const started: string[] = [];
const Wait = buildTool({
  name: 'Wait',
  description: 'Waits until aborted.',
  inputSchema: z.object({ tag: z.string() }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  async *call(input: { tag: string }, context) {
    started.push(input.tag);
    await new Promise<void>((resolve) => {
      context.abortController.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    aborted.push(input.tag);
    return { data: 'aborted' };
  },
});

const allow: PermissionDecider = async () => ({
  behavior: 'allow',
  reason: { type: 'rule', message: 'test' },
});

let servers: HttpMcpServer[] = [];
let dirs: string[] = [];
afterEach(async () => {
  for (const s of servers) await s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  servers = [];
  dirs = [];
});

async function start(http: HttpServeOptions = {}): Promise<HttpMcpServer> {
  const cwd = mkdtempSync(path.join(tmpdir(), 'gantry-http-'));
  dirs.push(cwd);
  const srv = await serveHttp(
    { tools: [Echo, Wait], cwd, decide: allow, sessionDir: path.join(cwd, '.session') },
    0,
    http,
  );
  servers.push(srv);
  return srv;
}

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
});

interface Answer {
  status: number;
  body: string;
  reusedSocket: boolean;
  sessionId?: string;
}

function post(
  srv: HttpMcpServer,
  body: string | Buffer,
  headers: Record<string, string> = {},
  agent?: Agent,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: srv.port,
        path: '/mcp',
        method: 'POST',
        ...(agent ? { agent } : {}),
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: text,
            reusedSocket: req.reusedSocket,
            ...(typeof res.headers['mcp-session-id'] === 'string'
              ? { sessionId: res.headers['mcp-session-id'] }
              : {}),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('HTTP gantry mcp: bad bodies are answered and the connection stays usable', () => {
  it.each([
    ['{"jsonrpc": "2.0", "id": 1, "method":', 400, -32700, 'malformed JSON'],
    [Buffer.alloc(5 * 1024 * 1024, 0x20), 413, -32600, 'a body over the 4 MiB default limit'],
  ])('%#: %s → %i with JSON-RPC %i (%s)', async (body, status, code, _why) => {
    const srv = await start();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const bad = await post(srv, body, {}, agent);
      expect(bad.status).toBe(status);
      expect(JSON.parse(bad.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code } });
      const next = await post(srv, INIT, {}, agent);
      expect(next.status).toBe(200);
      expect(next.reusedSocket).toBe(true);
    } finally {
      agent.destroy();
    }
  });
});

describe('HTTP gantry mcp: Origin (MCP "Transports": servers must validate it against DNS rebinding)', () => {
  it.each([
    [undefined, 200, 'no Origin (not a browser)'],
    ['http://127.0.0.1:PORT', 200, "the server's own origin"],
    ['http://localhost:PORT', 200, "the server's own origin by name"],
    ['http://evil.example', 403, 'a foreign web page'],
    ['http://127.0.0.1:1', 403, 'another local port (another local web app)'],
    ['null', 403, 'an opaque origin (sandboxed frame, file: page)'],
  ])('Origin %s → %i (%s)', async (origin, status, _why) => {
    const srv = await start();
    const r = await post(srv, INIT, origin ? { origin: origin.replace('PORT', String(srv.port)) } : {});
    expect(r.status).toBe(status);
  });
});

describe('HTTP gantry mcp: bearer token', () => {
  it.each([
    [undefined, 401, 'no Authorization header'],
    ['Bearer wrong-token-wrong-token', 401, 'a wrong token'],
    ['Bearer s3cret-s3cret-s3cret', 200, 'the right token'],
  ])('Authorization %s → %i (%s)', async (authorization, status, _why) => {
    const srv = await start({ authToken: 's3cret-s3cret-s3cret' });
    const r = await post(srv, INIT, authorization ? { authorization } : {});
    expect(r.status).toBe(status);
    if (status === 401) expect(JSON.parse(r.body).error.message).toMatch(/Bearer/);
  });

  it('the SDK client with the token works', async () => {
    const srv = await start({ authToken: 's3cret-s3cret-s3cret' });
    const client = new Client({ name: 't', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(srv.url), {
        requestInit: { headers: { authorization: 'Bearer s3cret-s3cret-s3cret' } },
      }),
    );
    const r = await client.callTool({ name: 'Echo', arguments: { text: 'hi' } });
    expect(r.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
    await client.close();
  });
});

describe('HTTP gantry mcp: sessions end', () => {
  it('an idle session expires and is forgotten; its id then gets 404', async () => {
    const srv = await start({ sessionIdleMs: 200 });
    const init = await post(srv, INIT);
    expect(init.sessionId).toBeDefined();
    expect(srv.sessionCount()).toBe(1);
    const until = Date.now() + 5000;
    while (srv.sessionCount() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(srv.sessionCount()).toBe(0);
    const after = await post(srv, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), {
      'mcp-session-id': init.sessionId as string,
    });
    expect(after.status).toBe(404);
  });

  it('a session with a call in flight does not expire', async () => {
    const srv = await start({ sessionIdleMs: 200 });
    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.url)));
    const call = client.callTool({ name: 'Wait', arguments: { tag: 'busy' } }).catch((e: unknown) => e);
    while (!started.includes('busy')) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 600));
    expect(srv.sessionCount()).toBe(1);
    expect(aborted).not.toContain('busy');
    await client.close();
    await call;
  });

  it('at the session cap the longest-idle session makes room', async () => {
    const srv = await start({ maxSessions: 2 });
    const a = await post(srv, INIT);
    await post(srv, INIT);
    await post(srv, INIT);
    expect(srv.sessionCount()).toBe(2);
    const r = await post(srv, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), {
      'mcp-session-id': a.sessionId as string,
    });
    expect(r.status).toBe(404);
  });

  it('a client that drops the connection before the answer has its call aborted', async () => {
    const srv = await start();
    const init = await post(srv, INIT);
    const session = init.sessionId as string;
    await post(srv, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), {
      'mcp-session-id': session,
    });
    const req = request({
      host: '127.0.0.1',
      port: srv.port,
      path: '/mcp',
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': session,
      },
    });
    req.on('error', () => undefined);
    req.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'Wait', arguments: { tag: 'dropped' } },
      }),
    );
    while (!started.includes('dropped')) await new Promise((r) => setTimeout(r, 20));
    req.destroy();
    const until = Date.now() + 5000;
    while (!aborted.includes('dropped') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(aborted).toContain('dropped');
  });
});
