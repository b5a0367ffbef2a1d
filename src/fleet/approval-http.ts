/**
 * The worker's approval endpoint on 127.0.0.1 (docs/fleet.md, "Approvals"). Every request needs
 * `Authorization: Bearer <token>` (the fleet token); JSON in and out.
 *
 * - `GET /asks` → `{asks: [{session, ...PendingAsk}]}`: every pending ask of the fleet.
 * - `POST /approvals` with `{session, tool_use_id, decision: "allow"|"deny", message?}` → 202
 *   `{sent: true}`: the answer is sent to the session (a message; it need not run on this worker).
 * - Errors: 401 (token), 400 (bad body, with the reason), 404 (no such session or path).
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { EngineClient } from './engine.js';
import { answerAsk, pendingAsks } from './fleet-client.js';

export interface ApprovalServer {
  readonly url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function tokenOk(req: IncomingMessage, token: string): boolean {
  if (!token) return false;
  const got = Buffer.from(req.headers.authorization ?? '');
  const want = Buffer.from(`Bearer ${token}`);
  return got.length === want.length && timingSafeEqual(got, want);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export function startApprovalServer(options: {
  port: number;
  token: string;
  client: EngineClient;
}): Promise<ApprovalServer> {
  const server = createServer((req, res) => {
    void (async () => {
      if (!tokenOk(req, options.token)) return send(res, 401, { error: 'missing or wrong bearer token' });
      if (req.method === 'GET' && req.url === '/asks') {
        return send(res, 200, { asks: await pendingAsks(options.client) });
      }
      if (req.method === 'POST' && req.url === '/approvals') {
        let body: { session?: unknown; tool_use_id?: unknown; decision?: unknown; message?: unknown };
        try {
          body = (await readJson(req)) as typeof body;
        } catch (e) {
          return send(res, 400, { error: `bad JSON body: ${(e as Error).message}` });
        }
        if (typeof body?.session !== 'string' || typeof body.tool_use_id !== 'string')
          return send(res, 400, { error: 'give `session` and `tool_use_id` (strings)' });
        if (body.decision !== 'allow' && body.decision !== 'deny')
          return send(res, 400, { error: '`decision` must be "allow" or "deny"' });
        const outcome = await answerAsk(options.client, {
          session: body.session,
          toolUseId: body.tool_use_id,
          allow: body.decision === 'allow',
          ...(typeof body.message === 'string' ? { message: body.message } : {}),
          by: 'http',
        });
        if (!outcome.ok) return send(res, 404, { error: outcome.error });
        return send(res, 202, { sent: true });
      }
      send(res, 404, { error: `no such endpoint: ${req.method} ${req.url}` });
    })().catch((e) => send(res, 500, { error: String(e) }));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise<void>((r) => server.close(() => r())),
      });
    });
  });
}
