/**
 * A `fetch` for the model SDKs over `node:http` / `node:https` (docs/startup.md, "The first model
 * request"). Node's own `fetch` (undici) compiles its request pipeline and its HTTP parser at the
 * first request of every process, a large part of a short `gantry -p` run, and costs more per
 * request after that; a plain `http.request` does the same exchange for a fraction of both.
 *
 * What it takes: the calls the Anthropic SDK makes — a string or `URL` with `http:`/`https:`, a
 * method, a `Headers` (or a record or list of pairs), a string / `Uint8Array` / `ArrayBuffer` body or
 * none, an `AbortSignal`. Anything else (a `Request`, a streamed body, another scheme) and any
 * redirect answer, and a URL with credentials (which fetch refuses), go to `globalThis.fetch`, so
 * those keep fetch's own behaviour.
 *
 * What it answers: a real `Response` (Node's class): status, status text, every response header,
 * and a web `ReadableStream` body fed from the socket with back-pressure (reading stops while 1 MiB
 * waits for the reader); a gzip or deflate body is decoded as fetch decodes it.
 *
 * Wire: the caller's headers, plus what fetch adds when they are absent (`accept-language: *`,
 * `sec-fetch-mode: cors`, `accept-encoding: gzip, deflate`), `host`, `content-length` and
 * `connection: keep-alive` (one keep-alive agent per scheme; idle sockets do not hold the process).
 *
 * Errors, as fetch reports them: a connection failure rejects with `TypeError('fetch failed')`
 * whose `cause` is the socket error; an abort rejects (or errors the body) with the signal's
 * reason, else an `AbortError` `DOMException` (a body that had arrived whole stays readable); a
 * body cut off mid-way errors the stream with `TypeError('terminated')` whose `cause` is the
 * socket error.
 */
import http, { type IncomingMessage } from 'node:http';
import type https from 'node:https';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

type FetchInput = Parameters<typeof fetch>[0];
type FetchInit = NonNullable<Parameters<typeof fetch>[1]>;

/** Bytes of the body read from the socket ahead of the reader, at most. */
const BODY_READ_AHEAD_BYTES = 1024 * 1024;
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
/** Headers fetch adds when the caller has not set them (undici in Node 20). */
const FETCH_DEFAULT_HEADERS: readonly [string, string][] = [
  ['accept-language', '*'],
  ['sec-fetch-mode', 'cors'],
  ['accept-encoding', 'gzip, deflate'],
];

let httpAgent: http.Agent | undefined;
let httpsModule: typeof https | undefined;
let httpsAgent: https.Agent | undefined;

function agentFor(protocol: string): { request: typeof http.request; agent: http.Agent } {
  if (protocol === 'http:') {
    httpAgent ??= new http.Agent({ keepAlive: true });
    return { request: http.request, agent: httpAgent };
  }
  // node:https (and TLS with it) loads with the first https request only
  httpsModule ??= createRequire(import.meta.url)('node:https') as typeof https;
  httpsAgent ??= new httpsModule.Agent({ keepAlive: true });
  return { request: httpsModule.request, agent: httpsAgent };
}

/** The request's headers as lower-case pairs, or undefined when their shape is not one handled here. */
function headerPairs(headers: FetchInit['headers']): [string, string][] | undefined {
  const pairs: [string, string][] = [];
  if (headers === undefined || headers === null) return pairs;
  if (headers instanceof Headers) {
    headers.forEach((value, name) => {
      pairs.push([name, value]);
    });
    return pairs;
  }
  if (Array.isArray(headers)) {
    for (const pair of headers) {
      if (pair.length !== 2) return undefined;
      pairs.push([String(pair[0]).toLowerCase(), String(pair[1])]);
    }
    return pairs;
  }
  if (typeof headers === 'object') {
    for (const [name, value] of Object.entries(headers as Record<string, string>))
      pairs.push([name.toLowerCase(), String(value)]);
    return pairs;
  }
  return undefined;
}

function bodyBytes(body: FetchInit['body']): Buffer | undefined | false {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  return false;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/**
 * The response body as a web stream fed from `source`, which is paused while 1 MiB waits for the
 * reader. Once the whole body has arrived the stream is closed: an abort after that leaves what
 * arrived readable (fetch, too, hands over a body it has received whole).
 */
function webBody(
  res: IncomingMessage,
  source: Readable,
  done: () => void,
): { stream: ReadableStream<Uint8Array>; fail: (error: unknown) => void } {
  let settled = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const finish = (error?: unknown): void => {
    if (settled) return;
    settled = true;
    done();
    try {
      if (error === undefined) controller.close();
      else controller.error(error);
    } catch {
      // the reader cancelled meanwhile
    }
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        source.on('data', (chunk: Buffer) => {
          if (settled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        });
        source.once('end', () => finish());
        source.on('error', (error) => finish(new TypeError('terminated', { cause: error })));
        res.once('close', () => {
          if (!res.complete) finish(new TypeError('terminated', { cause: new Error('other side closed') }));
        });
      },
      pull() {
        source.resume();
      },
      cancel() {
        settled = true;
        done();
        res.destroy();
      },
      // read ahead as fetch does, up to 1 MiB waiting for the reader
    },
    { highWaterMark: BODY_READ_AHEAD_BYTES, size: (chunk) => chunk.byteLength },
  );
  return { stream, fail: finish };
}

/** `fetch` over node:http (see the module comment). */
export function nodeFetch(input: FetchInput, init: FetchInit = {}): Promise<Response> {
  const fallback = () => globalThis.fetch(input, init);
  const url = typeof input === 'string' ? safeUrl(input) : input instanceof URL ? input : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return fallback();
  // fetch refuses a URL with credentials; http.request would send them as Basic authorization.
  if (url.username !== '' || url.password !== '') return fallback();
  const pairs = headerPairs(init.headers);
  const body = bodyBytes(init.body);
  if (!pairs || body === false || (init.redirect !== undefined && init.redirect !== 'follow'))
    return fallback();
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortReason(signal));

  const present = new Set(pairs.map(([name]) => name));
  for (const [name, value] of FETCH_DEFAULT_HEADERS) if (!present.has(name)) pairs.push([name, value]);
  if (body) pairs.push(['content-length', String(body.length)]);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of pairs) {
    const had = headers[name];
    headers[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  const { request, agent } = agentFor(url.protocol);
  const method = (init.method ?? 'GET').toUpperCase();

  return new Promise<Response>((resolve, reject) => {
    let failBody: ((error: unknown) => void) | undefined;
    const onAbort = (): void => {
      const reason = abortReason(signal as AbortSignal);
      req.destroy();
      if (failBody) failBody(reason);
      else reject(reason);
    };
    const release = (): void => signal?.removeEventListener('abort', onAbort);
    const onResponse = (res: IncomingMessage): void => {
      const status = res.statusCode ?? 0;
      if (REDIRECT_STATUS.has(status) && res.headers.location) {
        // fetch follows redirects; let it, from the start
        release();
        res.resume();
        fallback().then(resolve, reject);
        return;
      }
      const responseHeaders = new Headers();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
        responseHeaders.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
      if (NULL_BODY_STATUS.has(status) || method === 'HEAD') {
        release();
        res.resume();
        resolve(
          new Response(null, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }),
        );
        return;
      }
      const encoding = String(res.headers['content-encoding'] ?? '')
        .trim()
        .toLowerCase();
      let source: Readable = res;
      if (encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate') {
        const decoder =
          encoding === 'deflate'
            ? zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH })
            : zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH });
        res.on('error', (error) => decoder.destroy(error));
        source = res.pipe(decoder);
      }
      const { stream, fail } = webBody(res, source, release);
      failBody = fail;
      resolve(
        new Response(stream, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }),
      );
    };
    const req = request(url, { method, headers, agent }, (res) => {
      try {
        onResponse(res);
      } catch (error) {
        // an answer fetch cannot represent (a status outside 200–599, a header Headers refuses)
        release();
        res.destroy();
        reject(new TypeError('fetch failed', { cause: error }));
      }
    });
    req.on('error', (error) => {
      if (signal?.aborted) return; // reported by onAbort
      release();
      if (failBody) failBody(new TypeError('terminated', { cause: error }));
      else reject(new TypeError('fetch failed', { cause: error }));
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    req.end(body);
  });
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
