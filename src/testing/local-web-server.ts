/**
 * A real HTTP server on 127.0.0.1 (port 0) for WebFetch and WebSearch tests and benches: routes by
 * path, every request recorded (method, path with query, headers, body, the `Host` it named).
 * `close()` ends open connections (stalled responses included) and stops the server.
 *
 * Route helpers cover what the tests need: a fixed body with a content type (`page`), a redirect
 * (`redirect`), a gzip/deflate/br body (`compressed`), headers then a slow or stalled body
 * (`dripping`, `stalled`), and no response at all (`silent`). Names other than 127.0.0.1 reach this
 * server only through an injected resolver (WebFetch's `tableResolver`), so a test can give two
 * "hosts" one server and tell them apart by the recorded `host` header.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';

export type WebHandler = (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>;

export interface RecordedWebRequest {
  method: string;
  /** Path with query string. */
  url: string;
  /** Lower-case header names. */
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface LocalWebServer {
  readonly port: number;
  /** `http://<host>:<port><path>` (host default 127.0.0.1). */
  url(path: string, host?: string): string;
  readonly requests: RecordedWebRequest[];
  /** Adds or replaces a route (exact path, without the query string). */
  route(path: string, handler: WebHandler): void;
  close(): Promise<void>;
}

/** Starts a server; `routes` maps exact paths (no query) to handlers; anything else is 404. */
export async function startLocalWebServer(routes: Record<string, WebHandler> = {}): Promise<LocalWebServer> {
  const table = new Map(Object.entries(routes));
  const requests: RecordedWebRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers }, body });
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const handler = table.get(path);
      if (!handler) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end(`no route ${path}`);
        return;
      }
      Promise.resolve(handler(req, res, body)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path, host = '127.0.0.1') => `http://${host}:${port}${path}`,
    requests,
    route: (path, handler) => table.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A fixed body. */
export function page(
  body: string | Buffer,
  contentType = 'text/html; charset=utf-8',
  status = 200,
): WebHandler {
  return (_req, res) => {
    const data = typeof body === 'string' ? Buffer.from(body) : body;
    res.writeHead(status, { 'content-type': contentType, 'content-length': data.length });
    res.end(data);
  };
}

/** A redirect to `location` (absolute or relative). */
export function redirect(location: string, status = 301): WebHandler {
  return (_req, res) => {
    res.writeHead(status, { location, 'content-type': 'text/html' });
    res.end(`<a href="${location}">moved</a>`);
  };
}

/** `body` sent compressed with `encoding`. */
export function compressed(
  body: string,
  encoding: 'gzip' | 'deflate' | 'br',
  contentType = 'text/html; charset=utf-8',
): WebHandler {
  const raw = Buffer.from(body);
  const data =
    encoding === 'gzip' ? gzipSync(raw) : encoding === 'deflate' ? deflateSync(raw) : brotliCompressSync(raw);
  return (_req, res) => {
    res.writeHead(200, {
      'content-type': contentType,
      'content-encoding': encoding,
      'content-length': data.length,
    });
    res.end(data);
  };
}

/** Headers and `first`, then nothing more while the connection stays open. */
export function stalled(first: string, contentType = 'text/html; charset=utf-8'): WebHandler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.write(first);
  };
}

/** The request is read and never answered. */
export function silent(): WebHandler {
  return () => {};
}

/** `pieces` sent one every `intervalMs` (a slow but live body), then the end. */
export function dripping(
  pieces: readonly string[],
  intervalMs: number,
  contentType = 'text/plain',
): WebHandler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': contentType });
    let i = 0;
    const timer = setInterval(() => {
      if (res.destroyed) {
        clearInterval(timer);
        return;
      }
      if (i < pieces.length) res.write(pieces[i++]);
      else {
        clearInterval(timer);
        res.end();
      }
    }, intervalMs);
  };
}

/** A JSON answer. */
export function json(value: unknown, status = 200): WebHandler {
  return page(JSON.stringify(value), 'application/json', status);
}
