/**
 * Transports for `gantry mcp`: stdio (default) and Streamable HTTP on 127.0.0.1
 * (MCP spec 2025-11-25 "Transports"; stack.md §5). HTTP is stateful: each MCP session gets its own
 * server and tool runtime; DNS-rebinding protection is on (only `127.0.0.1:<port>` and
 * `localhost:<port>` Host headers are accepted).
 */
import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createGantryMcpServer, type GantryMcpServerOptions } from './gantry-mcp-server.js';

/** Serves one session over stdin/stdout until the client disconnects. */
export async function serveStdio(options: GantryMcpServerOptions): Promise<void> {
  const { server } = createGantryMcpServer(options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
}

export interface HttpMcpServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  port: number;
  close(): Promise<void>;
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 4 * 1024 * 1024) throw new Error('request body over 4 MiB');
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

function sendJsonError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * Listens on 127.0.0.1:`port` (0 = any free port) at path `/mcp`. Resolves once listening.
 * Throws when the port is taken.
 */
export async function serveHttp(options: GantryMcpServerOptions, port: number): Promise<HttpMcpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let allowedHosts: string[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!req.url?.startsWith('/mcp')) {
      res.writeHead(404).end();
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (req.method === 'POST') {
      const body = await readJsonBody(req);
      if (existing) {
        await existing.handleRequest(req, res, body);
        return;
      }
      if (sessionId !== undefined || !isInitializeRequest(body)) {
        sendJsonError(res, 400, 'Bad Request: no valid session (send initialize first)');
        return;
      }
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableDnsRebindingProtection: true,
        allowedHosts,
        onsessioninitialized: (id) => {
          sessions.set(id, transport);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      const { server } = createGantryMcpServer(options);
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
      return;
    }
    if ((req.method === 'GET' || req.method === 'DELETE') && existing) {
      await existing.handleRequest(req, res);
      return;
    }
    sendJsonError(res, 400, 'Bad Request: unknown or missing Mcp-Session-Id');
  };

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendJsonError(res, 500, e instanceof Error ? e.message : String(e));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (http.address() as AddressInfo).port;
  allowedHosts = [`127.0.0.1:${actual}`, `localhost:${actual}`];
  return {
    url: `http://127.0.0.1:${actual}/mcp`,
    port: actual,
    async close() {
      for (const t of sessions.values()) await t.close().catch(() => undefined);
      sessions.clear();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
