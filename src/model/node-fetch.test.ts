/**
 * node-fetch.ts against a real HTTP server on 127.0.0.1: what reaches the server, the answer as a
 * `Response`, streamed bodies, decoding, and every failure in fetch's own shape (the Anthropic SDK
 * classifies them by that shape).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeFetch } from './node-fetch.js';

let server: http.Server | undefined;

afterEach(async () => {
  const s = server;
  server = undefined;
  if (!s) return;
  s.closeAllConnections();
  await new Promise((resolve) => s.close(resolve));
});

interface Seen {
  method?: string;
  url?: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen) => void) {
  const seen: Seen = { headers: {}, body: '' };
  server = http.createServer((req, res) => {
    seen.method = req.method;
    seen.url = req.url;
    seen.headers = req.headers;
    req.setEncoding('utf8');
    req.on('data', (d: string) => {
      seen.body += d;
    });
    req.on('end', () => handler(req, res, seen));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen };
}

const abortName = (e: unknown) => (e as { name?: string }).name;

describe('nodeFetch', () => {
  it('sends the method, path, query, headers (with those fetch adds) and body; answers a Response', async () => {
    const { url, seen } = await serve((_req, res) => {
      res.writeHead(201, 'Made', { 'content-type': 'application/json', 'request-id': 'req_1' });
      res.end('{"ok":true}');
    });
    const headers = new Headers({ 'Content-Type': 'application/json', 'X-Api-Key': 'k' });
    const r = await nodeFetch(`${url}/v1/messages?beta=true`, { method: 'post', headers, body: '{"a":"é"}' });
    expect(seen).toMatchObject({ method: 'POST', url: '/v1/messages?beta=true', body: '{"a":"é"}' });
    expect(seen.headers).toMatchObject({
      'content-type': 'application/json',
      'x-api-key': 'k',
      'accept-language': '*',
      'sec-fetch-mode': 'cors',
      'accept-encoding': 'gzip, deflate',
      'content-length': String(Buffer.byteLength('{"a":"é"}')),
      connection: 'keep-alive',
    });
    expect(r).toBeInstanceOf(Response);
    expect([r.status, r.statusText, r.ok, r.headers.get('request-id')]).toEqual([201, 'Made', true, 'req_1']);
    expect(await r.json()).toEqual({ ok: true });
  });

  it('a URL with credentials is refused as fetch refuses it, and nothing is sent', async () => {
    let requests = 0;
    const { url } = await serve((_req, res) => {
      requests++;
      res.end('x');
    });
    const withCredentials = url.replace('http://', 'http://user:secret@');
    const viaFetch = await fetch(withCredentials).then(
      () => 'sent',
      (e: unknown) => (e as Error).message,
    );
    const viaNode = await nodeFetch(withCredentials).then(
      () => 'sent',
      (e: unknown) => (e as Error).message,
    );
    expect(viaNode).toBe(viaFetch);
    expect(viaNode).not.toBe('sent');
    expect(requests).toBe(0);
  });

  it("keeps the caller's own accept-encoding and a record of headers", async () => {
    const { url, seen } = await serve((_req, res) => res.end('x'));
    await (await nodeFetch(url, { headers: { 'Accept-Encoding': 'identity' } })).text();
    expect(seen.headers['accept-encoding']).toBe('identity');
    expect(seen.method).toBe('GET');
  });

  it('streams the body chunk by chunk as the server sends it (an SSE answer is read before it ends)', async () => {
    let release: (() => void) | undefined;
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: one\ndata: {}\n\n');
      release = () => res.end('event: two\ndata: {}\n\n');
    });
    const r = await nodeFetch(url, { method: 'POST', body: '{}' });
    const reader = (r.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value as Uint8Array).toString()).toBe('event: one\ndata: {}\n\n');
    release?.();
    let rest = '';
    for (let step = await reader.read(); !step.done; step = await reader.read())
      rest += Buffer.from(step.value).toString();
    expect(rest).toBe('event: two\ndata: {}\n\n');
  });

  it('decodes a gzip body, as fetch does', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(gzipSync('{"packed":1}'));
    });
    expect(await (await nodeFetch(url)).text()).toBe('{"packed":1}');
  });

  it('a status without a body (204) answers a Response with a null body', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const r = await nodeFetch(url, { method: 'DELETE' });
    expect([r.status, r.body]).toEqual([204, null]);
  });

  it('follows a redirect through fetch, as fetch would', async () => {
    const { url } = await serve((req, res) => {
      if (req.url === '/old') {
        res.writeHead(307, { location: '/new' });
        res.end();
      } else res.end(`at ${req.url}`);
    });
    expect(await (await nodeFetch(`${url}/old`)).text()).toBe('at /new');
  });

  it('a refused connection rejects with TypeError "fetch failed" whose cause is the socket error', async () => {
    const { url } = await serve((_req, res) => res.end());
    const s = server as http.Server;
    server = undefined;
    await new Promise((resolve) => s.close(resolve));
    const error = await nodeFetch(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('fetch failed');
    expect(((error as Error).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('an abort before the answer rejects with an AbortError; an abort mid-body errors the body with it', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    const early = new AbortController();
    early.abort();
    expect(abortName(await nodeFetch(url, { signal: early.signal }).catch((e: unknown) => e))).toBe(
      'AbortError',
    );

    const late = new AbortController();
    const r = await nodeFetch(url, { signal: late.signal });
    const reader = (r.body as ReadableStream<Uint8Array>).getReader();
    expect(Buffer.from((await reader.read()).value as Uint8Array).toString()).toBe('partial');
    late.abort();
    expect(abortName(await reader.read().catch((e: unknown) => e))).toBe('AbortError');
  });

  it('an abort after the whole body arrived leaves it readable (the rest of an SSE answer is not lost)', async () => {
    let sent!: () => void;
    const allSent = new Promise<void>((resolve) => {
      sent = resolve;
    });
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < 5; i++) res.write(`data: ${i}\n\n`);
      res.end(sent);
    });
    const controller = new AbortController();
    const r = await nodeFetch(url, { signal: controller.signal });
    const reader = (r.body as ReadableStream<Uint8Array>).getReader();
    let text = Buffer.from((await reader.read()).value as Uint8Array).toString();
    await allSent;
    await new Promise((resolve) => setTimeout(resolve, 100)); // and has reached this side
    controller.abort();
    for (let step = await reader.read(); !step.done; step = await reader.read())
      text += Buffer.from(step.value).toString();
    expect(text).toBe('data: 0\n\ndata: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4\n\n');
  });

  it('a body cut off by the server errors the stream with TypeError "terminated"', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('short');
      setImmediate(() => res.socket?.destroy());
    });
    const error = await (await nodeFetch(url)).text().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('terminated');
  });

  it('an answer a Response cannot hold (status 600) rejects with TypeError "fetch failed", never throws', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(600);
      res.end('odd');
    });
    const error = await nodeFetch(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('fetch failed');
  });

  it('hands what it does not handle itself (a Request object) to fetch', async () => {
    const { url, seen } = await serve((_req, res) => res.end('via fetch'));
    const r = await nodeFetch(new Request(`${url}/req`, { method: 'PUT', body: 'b' }));
    expect([await r.text(), seen.method, seen.url, seen.body]).toEqual(['via fetch', 'PUT', '/req', 'b']);
  });
});
