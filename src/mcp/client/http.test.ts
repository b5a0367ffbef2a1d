/**
 * Remote servers: the test server over Streamable HTTP on 127.0.0.1 (list, call, image,
 * list_changed, elicitation, headers with expanded variables), a server that goes away and comes
 * back (reconnect with backoff), one that never answers, and server-everything over SSE and
 * Streamable HTTP.
 * docs/mcp-client.md "Connections".
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentText } from '../../core/content.js';
import { type McpTestSession, startMcpSession } from '../../testing/mcp-client-fixtures.js';
import { referenceServerCommand, serveTestMcpHttp, type TestMcpHttp } from '../../testing/mcp-test-server.js';
import { makeToolContext, runTool } from '../../testing/tool-harness.js';
import { parseServerEntry } from './config/parse-entry.js';
import type { McpServerEntry } from './config/types.js';

const http = (url: string, headers: Record<string, string> = {}): McpServerEntry => ({
  type: 'http',
  url,
  headers,
});
const call = (s: McpTestSession, name: string, input: Record<string, unknown>) => {
  const t = s.manager.tools().find((x) => x.name === name);
  if (!t)
    throw new Error(
      `no tool ${name}: ${s.manager
        .tools()
        .map((x) => x.name)
        .join(', ')}`,
    );
  return runTool(t, input, makeToolContext({ cwd: s.root, sessionDir: s.sessionDir }));
};
const waitFor = async (what: () => boolean, ms = 10_000) => {
  for (let waited = 0; waited < ms && !what(); waited += 20) await new Promise((r) => setTimeout(r, 20));
  return what();
};

describe('Streamable HTTP', () => {
  let server: TestMcpHttp;
  let s: McpTestSession;
  beforeAll(async () => {
    server = await serveTestMcpHttp({ toolCount: 3 });
    const parsed = parseServerEntry(
      'remote',
      { type: 'http', url: '${MCP_TEST_BASE}/mcp', headers: { 'X-Token': 'Bearer ${MCP_TEST_TOKEN:-dev}' } },
      { file: '<test>', env: { MCP_TEST_BASE: server.url.replace(/\/mcp$/, '') }, baseDir: '/' },
    );
    if (!parsed.entry) throw new Error(JSON.stringify(parsed.problems));
    s = await startMcpSession(
      { remote: parsed.entry },
      { elicit: async () => ({ action: 'decline' }), reconnectInitialDelayMs: 50 },
    );
  });
  afterAll(async () => {
    await s?.cleanup();
    await server?.close();
  });

  it('connects and lists the tools', () => {
    expect(s.manager.reports()[0]).toMatchObject({ name: 'remote', status: 'connected', transport: 'http' });
    expect(s.manager.tools().map((t) => t.name)).toContain('mcp__remote__echo');
  });

  it('calls tools, images included', async () => {
    expect(contentText((await call(s, 'mcp__remote__echo', { message: 'over http' })).content)).toContain(
      'Echo: over http',
    );
    const image = await call(s, 'mcp__remote__image', {});
    expect((image.content as { type: string }[]).some((b) => b.type === 'image')).toBe(true);
  });

  it('routes elicitation over HTTP (the host declines)', async () => {
    expect(contentText((await call(s, 'mcp__remote__elicit', {})).content)).toContain('elicitation decline');
  });

  it('hears list_changed', async () => {
    await call(s, 'mcp__remote__add_tool', { name: 'late_tool' });
    expect(await waitFor(() => s.manager.tools().some((t) => t.name === 'mcp__remote__late_tool'))).toBe(
      true,
    );
  });

  it('reconnects after the server goes away and comes back', async () => {
    const port = server.port;
    await server.close();
    const failed = await call(s, 'mcp__remote__echo', { message: 'gone' });
    expect(failed.ok).toBe(false);
    server = await serveTestMcpHttp({ toolCount: 3 }, port);
    expect(
      await waitFor(
        () =>
          s.manager.reports()[0]?.status === 'connected' &&
          (s.manager.connection('remote')?.reconnects ?? 0) > 0,
      ),
    ).toBe(true);
    expect(contentText((await call(s, 'mcp__remote__echo', { message: 'back' })).content)).toContain(
      'Echo: back',
    );
  });
});

describe('remote failures', () => {
  it('a server that never answers fails at start-up within MCP_TIMEOUT', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
    const s = await startMcpSession({ silent: http(url) }, { env: { MCP_TIMEOUT: '1000' } });
    try {
      expect(s.manager.reports()[0]).toMatchObject({ status: 'failed' });
    } finally {
      await s.cleanup();
      silent.closeAllConnections();
      await new Promise((r) => silent.close(r));
    }
  });

  it('a refused connection fails; after the retries the server stays failed', async () => {
    const s = await startMcpSession(
      { nobody: http('http://127.0.0.1:9/mcp') },
      { reconnectAttempts: 1, reconnectInitialDelayMs: 10 },
    );
    try {
      expect(s.manager.reports()[0]?.status).toBe('failed');
      expect(s.manager.tools()).toEqual([]);
    } finally {
      await s.cleanup();
    }
  });
});

/** A port that was free a moment ago (the server binds it right after). */
const freePort = async (): Promise<number> => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
};

describe('server-everything over HTTP', () => {
  it.each([
    ['sse', 'sse', '/sse'],
    ['streamableHttp', 'http', '/mcp'],
  ] as const)(
    '%s (entry type %s): connects, calls tools, images and elicitation included',
    async (mode, type, route) => {
      const cmd = referenceServerCommand('everything');
      const port = await freePort();
      const child = spawn(cmd.command, [cmd.args[0] as string, mode], {
        env: { ...process.env, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        expect(await waitFor(() => /listening|running/i.test(out), 30_000)).toBe(true);
        const elicitations: string[] = [];
        const s = await startMcpSession(
          { everything: { type, url: `http://127.0.0.1:${port}${route}`, headers: {} } },
          {
            elicit: async (request) => {
              elicitations.push(request.message);
              return { action: 'decline' };
            },
          },
        );
        try {
          expect(s.manager.reports()[0]).toMatchObject({ status: 'connected', transport: type });
          expect(s.manager.tools().map((t) => t.name)).toContain('mcp__everything__get-tiny-image');
          expect(contentText((await call(s, 'mcp__everything__get-sum', { a: 2, b: 3 })).content)).toContain(
            '5',
          );
          const image = await call(s, 'mcp__everything__get-tiny-image', {});
          expect((image.content as { type: string }[]).some((b) => b.type === 'image')).toBe(true);
          const bad = await call(s, 'mcp__everything__get-sum', { a: 'two', b: 1 });
          expect(bad.ok).toBe(false);
          const asked = await call(s, 'mcp__everything__trigger-elicitation-request', {});
          expect(elicitations).toHaveLength(1);
          expect(contentText(asked.content).toLowerCase()).toContain('decline');
        } finally {
          await s.cleanup();
        }
      } finally {
        child.kill('SIGKILL');
      }
    },
  );
});
