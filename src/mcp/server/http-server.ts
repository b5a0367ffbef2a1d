/**
 * Streamable HTTP for `gantry mcp --transport http` on 127.0.0.1 (MCP "Transports", Streamable
 * HTTP; docs/reliability.md). Stateful: each MCP session gets its own server and tool runtime.
 *
 * - DNS-rebinding protection: only `127.0.0.1:<port>` and `localhost:<port>` Host headers, and an
 *   `Origin` header, when there is one (browsers send it), must be `http://127.0.0.1:<port>` or
 *   `http://localhost:<port>`, otherwise 403 before anything is read or created (the MCP
 *   specification, "Transports": servers must validate `Origin`; a web page on another origin or
 *   another local port, or an opaque `null` origin, is refused).
 * - Optional bearer token (`authToken`): every request must carry `Authorization: Bearer <token>`,
 *   otherwise 401 (compared in constant time).
 * - Bodies: over `maxBodyBytes` → 413, not JSON → 400 (`-32700`), both as JSON-RPC errors after the
 *   body was read to its end, so the keep-alive connection stays usable.
 * - Sessions: a request naming an unknown (or expired) session gets 404, as the MCP specification
 *   asks, so the client starts a new one. A session with no request in flight for `sessionIdleMs`
 *   is closed and forgotten (its runtime and background tasks go with it); at `maxSessions` the
 *   longest-idle session is closed to make room, or 503 when every session is busy.
 * - A client that drops the connection of a POST before its answer: the calls of that POST are
 *   cancelled (as a `notifications/cancelled` from the client would), so their commands stop.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createGantryMcpServer, type GantryMcpServerOptions } from './gantry-mcp-server.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  JSONRPC_INVALID_REQUEST,
  JSONRPC_PARSE_ERROR,
  JSONRPC_SERVER_ERROR,
  readJsonBody,
  sendJsonRpcError,
} from './http-body.js';
import { endRuntimeSession } from './session-end.js';

/** Default idle time after which a session is closed (30 minutes). */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
/** Default most sessions kept at once. */
export const DEFAULT_MAX_SESSIONS = 1000;

export interface HttpServeOptions {
  /** Close a session after this long without a request in flight, ms (default 30 minutes). */
  sessionIdleMs?: number;
  /** Most sessions at once (default 1000). */
  maxSessions?: number;
  /** When set, clients must send `Authorization: Bearer <authToken>`. */
  authToken?: string;
  /** Largest request body, bytes (default 4 MiB). */
  maxBodyBytes?: number;
}

export interface HttpMcpServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  port: number;
  /** Sessions open now. */
  sessionCount(): number;
  close(): Promise<void>;
}

interface HttpSession {
  transport: StreamableHTTPServerTransport;
  end(): Promise<void>;
  lastActiveMs: number;
  inFlight: number;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** The ids of the JSON-RPC requests in a body (one message or a batch). */
function requestIds(body: unknown): (string | number)[] {
  const messages = Array.isArray(body) ? body : [body];
  const ids: (string | number)[] = [];
  for (const m of messages) {
    const id = m && typeof m === 'object' ? (m as { id?: unknown; method?: unknown }) : undefined;
    if (id && typeof id.method === 'string' && (typeof id.id === 'string' || typeof id.id === 'number'))
      ids.push(id.id);
  }
  return ids;
}

/**
 * Listens on 127.0.0.1:`port` (0 = any free port) at path `/mcp`. Resolves once listening.
 * Throws when the port is taken.
 */
export async function serveHttp(
  options: GantryMcpServerOptions,
  port: number,
  http: HttpServeOptions = {},
): Promise<HttpMcpServer> {
  const sessions = new Map<string, HttpSession>();
  const idleMs = http.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const maxSessions = http.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const maxBodyBytes = http.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const expectedToken = http.authToken ? digest(`Bearer ${http.authToken}`) : undefined;
  let allowedHosts: string[] = [];
  let allowedOrigins: string[] = [];

  const endSession = async (id: string): Promise<void> => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    await s.end();
  };

  const sweep = (): void => {
    const now = Date.now();
    for (const [id, s] of sessions)
      if (s.inFlight === 0 && now - s.lastActiveMs >= idleMs) void endSession(id);
  };
  const sweeper = setInterval(sweep, Math.max(100, Math.min(idleMs / 2, 60_000)));
  sweeper.unref();

  /** Room for one more session: closes the longest-idle one at the cap; false when all are busy. */
  const makeRoom = async (): Promise<boolean> => {
    if (sessions.size < maxSessions) return true;
    let oldest: [string, HttpSession] | undefined;
    for (const entry of sessions)
      if (entry[1].inFlight === 0 && (!oldest || entry[1].lastActiveMs < oldest[1].lastActiveMs))
        oldest = entry;
    if (!oldest) return false;
    await endSession(oldest[0]);
    return true;
  };

  /** Tracks one HTTP request of a session: in flight until its response ends or the client leaves. */
  const track = (s: HttpSession, res: ServerResponse, body: unknown): void => {
    s.inFlight++;
    s.lastActiveMs = Date.now();
    res.once('close', () => {
      s.inFlight--;
      s.lastActiveMs = Date.now();
      if (res.writableFinished) return;
      // The client left before the answer: cancel the calls it was waiting for.
      for (const requestId of requestIds(body)) {
        const cancel: JSONRPCMessage = {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId, reason: 'the HTTP client disconnected before the answer' },
        };
        s.transport.onmessage?.(cancel);
      }
    });
  };

  const authorised = (req: IncomingMessage): boolean => {
    if (!expectedToken) return true;
    const given = req.headers.authorization;
    return typeof given === 'string' && timingSafeEqual(digest(given), expectedToken);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!req.url?.startsWith('/mcp')) {
      req.resume();
      res.writeHead(404).end();
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.includes(origin)) {
      req.resume();
      sendJsonRpcError(res, 403, JSONRPC_SERVER_ERROR, `Forbidden: Origin ${origin} is not this server's`);
      return;
    }
    if (!authorised(req)) {
      req.resume();
      sendJsonRpcError(res, 401, JSONRPC_SERVER_ERROR, 'Unauthorized: send Authorization: Bearer <token>', {
        'www-authenticate': 'Bearer',
      });
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (sessionId !== undefined && !existing) {
      req.resume();
      sendJsonRpcError(
        res,
        404,
        JSONRPC_SERVER_ERROR,
        'Session not found (it ended or expired); send initialize to start a new one',
      );
      return;
    }
    if (req.method === 'POST') {
      const body = await readJsonBody(req, maxBodyBytes);
      if (body.kind === 'too-large') {
        sendJsonRpcError(
          res,
          413,
          JSONRPC_INVALID_REQUEST,
          `Request body too large: ${body.bytes} bytes, over the ${maxBodyBytes}-byte limit`,
        );
        return;
      }
      if (body.kind === 'malformed') {
        sendJsonRpcError(
          res,
          400,
          JSONRPC_PARSE_ERROR,
          `Parse error: the body is not valid JSON (${body.message})`,
        );
        return;
      }
      if (existing) {
        track(existing, res, body.value);
        await existing.transport.handleRequest(req, res, body.value);
        return;
      }
      if (!isInitializeRequest(body.value)) {
        sendJsonRpcError(
          res,
          400,
          JSONRPC_INVALID_REQUEST,
          'Bad Request: no valid session (send initialize first)',
        );
        return;
      }
      if (!(await makeRoom())) {
        sendJsonRpcError(
          res,
          503,
          JSONRPC_SERVER_ERROR,
          `Too many sessions (${maxSessions}), all busy; retry later`,
        );
        return;
      }
      const { server, runtime } = createGantryMcpServer(options);
      let session: HttpSession | undefined;
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableDnsRebindingProtection: true,
        allowedHosts,
        onsessioninitialized: (id) => {
          if (session) sessions.set(id, session);
        },
      });
      session = {
        transport,
        lastActiveMs: Date.now(),
        inFlight: 0,
        end: async () => {
          await transport.close().catch(() => undefined);
          await endRuntimeSession(runtime);
        },
      };
      transport.onclose = () => {
        const id = transport.sessionId;
        if (id && sessions.get(id) === session) {
          sessions.delete(id);
          void endRuntimeSession(runtime);
        }
      };
      await server.connect(transport);
      track(session, res, body.value);
      await transport.handleRequest(req, res, body.value);
      return;
    }
    if ((req.method === 'GET' || req.method === 'DELETE') && existing) {
      track(existing, res, undefined);
      await existing.transport.handleRequest(req, res);
      return;
    }
    req.resume();
    sendJsonRpcError(res, 400, JSONRPC_INVALID_REQUEST, 'Bad Request: unknown or missing Mcp-Session-Id');
  };

  const server: HttpServer = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      sendJsonRpcError(res, 500, JSONRPC_SERVER_ERROR, e instanceof Error ? e.message : String(e));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  allowedHosts = [`127.0.0.1:${actual}`, `localhost:${actual}`];
  allowedOrigins = allowedHosts.map((h) => `http://${h}`);
  return {
    url: `http://127.0.0.1:${actual}/mcp`,
    port: actual,
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweeper);
      await Promise.all([...sessions.keys()].map((id) => endSession(id)));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
