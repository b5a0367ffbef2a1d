/**
 * `gantry serve`: the guard as an HTTP hook (docs/guard.md "HTTP hook"). Claude Code's HTTP hooks
 * POST the hook JSON and read the decision JSON from the response body (Claude Code hooks
 * reference, "HTTP hooks"); this server answers PreToolUse/PostToolUse exactly as `gantry hook`
 * does, from a process that keeps the shell parser and the compiled settings warm.
 *
 * - Listens on 127.0.0.1 only; `port` 0 picks a free port. The first line printed is the URL.
 * - Every request needs `Authorization: Bearer <token>` (hook-token.ts); anything else is 401.
 * - Routes: `POST /hook` (also `/`), `GET /health`. Bodies over {@link MAX_BODY_BYTES} are 413;
 *   a body not received within {@link BODY_TIMEOUT_MS} is 408.
 * - Bash analyses run in worker threads and stop at the deadline, so one slow analysis never holds
 *   up another request (docs/analysis-budget.md).
 * - Settings are re-read when a settings or trust file changes (the same stat check as the
 *   resident hook server), so an edited deny rule applies at the next call.
 * - A deny is a 200 response whose JSON says `permissionDecision: "deny"` (HTTP hooks have no exit
 *   code). Because Claude Code treats a failed HTTP hook as non-blocking, the command hook stays the
 *   fail-closed path; see docs/guard.md for the trade-off.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { configureShellAnalysis, initShellParser, stopShellAnalysisWorkers } from '../../shell/index.js';
import { cachedGuard } from '../hook/hook-daemon.js';
import { handleHook } from '../hook/run-hook.js';
import { bearerMatches } from './hook-token.js';

/** Largest request body accepted, in bytes. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Time allowed to receive a request body, in milliseconds. */
export const BODY_TIMEOUT_MS = 10_000;

export interface ServeOptions {
  /** Port on 127.0.0.1 (0 = any free port). */
  port: number;
  token: string;
  /** Extra settings files (`--settings`), resolved against `cwd`. */
  settingsFiles?: string[];
  passAllow?: boolean;
  env?: Readonly<Record<string, string | undefined>>;
  /** Base directory for relative `--settings` paths and payloads without a cwd. */
  cwd?: string;
}

export interface RunningServer {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<{ ok: true; text: string } | { ok: false; status: number }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (r: { ok: true; text: string } | { ok: false; status: number }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    const timer = setTimeout(() => finish({ ok: false, status: 408 }), BODY_TIMEOUT_MS);
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        finish({ ok: false, status: 413 });
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => finish({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', () => finish({ ok: false, status: 400 }));
  });
}

/**
 * Starts the server; resolves once it listens. Rejects with Node's `listen` error (`code`
 * EADDRINUSE, EACCES, …) after stopping the analysis workers it started.
 */
export async function startHookServer(o: ServeOptions): Promise<RunningServer> {
  await initShellParser();
  configureShellAnalysis({ workers: true });
  const env = o.env ?? process.env;
  const base = o.cwd ?? process.cwd();
  const settingsFiles = o.settingsFiles?.map((f) => path.resolve(base, f));
  const server = createServer(async (req, res) => {
    if (!bearerMatches(req.headers.authorization, o.token)) {
      send(res, 401, { error: 'missing or wrong bearer token' });
      req.resume();
      return;
    }
    const url = req.url?.split('?')[0] ?? '/';
    if (req.method === 'GET' && url === '/health') {
      send(res, 200, { ok: true, pid: process.pid });
      return;
    }
    if (req.method !== 'POST' || (url !== '/hook' && url !== '/')) {
      send(res, 404, { error: `no route ${req.method} ${url}; POST the hook JSON to /hook` });
      req.resume();
      return;
    }
    const body = await readBody(req);
    if (!body.ok) {
      send(res, body.status, {
        error: body.status === 413 ? 'request body too large' : 'request body not received',
      });
      return;
    }
    const answer = await handleHook(body.text, {
      ...(settingsFiles ? { settingsFiles } : {}),
      ...(o.passAllow ? { passAllow: true } : {}),
      env,
      fallbackCwd: base,
      makeGuard: cachedGuard,
      face: 'serve',
    });
    // HTTP hooks read the JSON body; an empty answer (an ignored event, a recorded PostToolUse) is `{}`.
    const text = answer.stdout.trim() || '{}';
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
  server.keepAliveTimeout = 60_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(o.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    // The worker threads started above would keep the process alive with nothing to serve.
    await stopShellAnalysisWorkers();
    throw e;
  }
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(stopShellAnalysisWorkers),
  };
}
