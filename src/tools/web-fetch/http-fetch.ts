/**
 * One WebFetch request, hop by hop (README.md "Requests"): a GET through undici with the
 * connect-time address guard, redirects handled by hand (`redirect: 'manual'`), the body streamed
 * with a hard byte cap, and every way a request can hang bounded by a timeout.
 *
 * - A redirect to the same site (`isSameSiteRedirect`) is followed after its target passed the
 *   same checks as the first URL; a redirect anywhere else ends the fetch with a
 *   {@link RedirectNotice}; more than `maxRedirects` hops is an error.
 * - Timeouts: `connectTimeoutMs` (TCP + TLS), `headersTimeoutMs` (request sent → response
 *   headers), `bodyIdleTimeoutMs` (no body data for that long: a stalled response), and
 *   `totalTimeoutMs` over the whole fetch. Each gives a {@link WebFetchError} naming it.
 * - A connection that drops before any response arrives (a kept-alive socket the server closed
 *   while it sat idle in the pool) is retried once on a fresh connection; GET is idempotent.
 * - The body is decompressed (gzip, deflate, br) by undici; the cap counts decompressed bytes, so a
 *   small compressed bomb stops at the cap too. A `content-length` above the cap is refused before
 *   any body byte is read.
 */
import { rootCertificates } from 'node:tls';
import type { Agent } from 'undici';
import { AbortError, isAbortError, ToolExecutionError } from '../../core/errors.js';
import { BlockedAddressError, guardedLookup, type Resolver } from './network-guard.js';
import { isSameSiteRedirect, type NetworkPolicy, prepareUrl } from './url-policy.js';

/** Bounds of one fetch. */
export interface FetchLimits {
  /** Largest body kept, in bytes after decompression. */
  maxBytes: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  /** Longest silence between two pieces of the body. */
  bodyIdleTimeoutMs: number;
  /** The whole fetch, redirects included. */
  totalTimeoutMs: number;
  /** Same-site redirects followed before giving up. */
  maxRedirects: number;
}

export const DEFAULT_FETCH_LIMITS: Readonly<FetchLimits> = Object.freeze({
  maxBytes: 10 * 1024 * 1024,
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 30_000,
  bodyIdleTimeoutMs: 30_000,
  totalTimeoutMs: 120_000,
  maxRedirects: 10,
});

/** A response whose body was read. */
export interface FetchedPage {
  kind: 'page';
  /** The URL the body came from (after same-site redirects). */
  url: string;
  status: number;
  statusText: string;
  /** The `content-type` header, as sent (may be empty). */
  contentType: string;
  body: Buffer;
}

/** A redirect to another site: not followed. */
export interface RedirectNotice {
  kind: 'redirect';
  /** The URL that answered with the redirect. */
  url: string;
  /** The absolute redirect target. */
  location: string;
  status: number;
  statusText: string;
}

/** Why a fetch failed, worded for the model. `reason` is stable for tests and hosts. */
export class WebFetchError extends ToolExecutionError {
  override readonly name = 'WebFetchError';
  constructor(
    readonly reason:
      | 'blocked'
      | 'invalid-redirect'
      | 'too-many-redirects'
      | 'too-large'
      | 'connect-timeout'
      | 'headers-timeout'
      | 'body-timeout'
      | 'total-timeout'
      | 'not-found'
      | 'refused'
      | 'tls'
      | 'network',
    message: string,
  ) {
    super(message);
  }
}

export interface PageFetcherOptions {
  policy: NetworkPolicy;
  limits: FetchLimits;
  userAgent: string;
  /** Name resolution (default: the system resolver). */
  resolver?: Resolver;
  /** Extra trusted certificate authorities (PEM). */
  tlsCa?: string | readonly string[];
}

const ACCEPT = 'text/markdown, text/html;q=0.9, text/plain;q=0.8, */*;q=0.5';

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

function causes(error: unknown): unknown[] {
  const out: unknown[] = [];
  let e: unknown = error;
  for (let i = 0; i < 6 && e !== undefined && e !== null; i++) {
    out.push(e);
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

/** Maps what undici and the sockets throw to a {@link WebFetchError}. */
function classify(error: unknown, url: URL, limits: FetchLimits): WebFetchError {
  for (const e of causes(error)) {
    if (e instanceof BlockedAddressError) return new WebFetchError('blocked', e.message);
    if (e instanceof WebFetchError) return e;
  }
  const codes = causes(error).map((e) => String((e as { code?: unknown }).code ?? ''));
  const host = url.host;
  const has = (c: string) => codes.includes(c);
  if (has('UND_ERR_CONNECT_TIMEOUT') || has('ETIMEDOUT'))
    return new WebFetchError(
      'connect-timeout',
      `Connecting to ${host} timed out after ${seconds(limits.connectTimeoutMs)}.`,
    );
  if (has('UND_ERR_HEADERS_TIMEOUT'))
    return new WebFetchError(
      'headers-timeout',
      `${host} accepted the connection but sent no response within ${seconds(limits.headersTimeoutMs)}.`,
    );
  if (has('UND_ERR_BODY_TIMEOUT'))
    return new WebFetchError(
      'body-timeout',
      `${host} stopped sending the page: no data arrived for ${seconds(limits.bodyIdleTimeoutMs)}.`,
    );
  if (has('ENOTFOUND') || has('EAI_AGAIN'))
    return new WebFetchError('not-found', `The host ${url.hostname} could not be resolved.`);
  if (has('ECONNREFUSED')) return new WebFetchError('refused', `${host} refused the connection.`);
  const tls = codes.find(
    (c) => c.startsWith('ERR_TLS') || c.startsWith('ERR_SSL') || /CERT|SELF_SIGNED/.test(c),
  );
  if (tls) return new WebFetchError('tls', `The TLS connection to ${host} failed (${tls}).`);
  const last = causes(error).at(-1);
  const detail = last instanceof Error ? last.message : String(last);
  return new WebFetchError('network', `The request to ${host} failed: ${detail}`);
}

type Undici = typeof import('undici');

/**
 * Fetches pages under one network policy; keeps one connection pool. Call `close()` when done.
 * undici is loaded with the first request, not when the tool set is built (docs/cli-print.md,
 * "Start-up").
 */
export class PageFetcher {
  private pool: Promise<{ undici: Undici; agent: Agent }> | undefined;

  constructor(private readonly options: PageFetcherOptions) {}

  private connectionPool(): Promise<{ undici: Undici; agent: Agent }> {
    this.pool ??= import('undici').then((loaded) => {
      // undici is CommonJS: Node gives its exports as the namespace's members, a bundle as `default`.
      const undici =
        typeof loaded.Agent === 'function' ? loaded : (loaded as unknown as { default: Undici }).default;
      const { limits } = this.options;
      const agent = new undici.Agent({
        connect: {
          timeout: limits.connectTimeoutMs,
          lookup: guardedLookup(this.options.policy, this.options.resolver),
          ...(this.options.tlsCa ? { ca: withSystemRoots(this.options.tlsCa) } : {}),
        },
        headersTimeout: limits.headersTimeoutMs,
        bodyTimeout: limits.bodyIdleTimeoutMs,
        keepAliveTimeout: 4_000,
      });
      return { undici, agent };
    });
    return this.pool;
  }

  /** Fetches `url` (already prepared by `prepareUrl`). Throws WebFetchError or AbortError. */
  async fetch(url: URL, signal: AbortSignal): Promise<FetchedPage | RedirectNotice> {
    const { limits } = this.options;
    const deadline = AbortSignal.timeout(limits.totalTimeoutMs);
    const combined = AbortSignal.any([signal, deadline]);
    let current = url;
    try {
      for (let hop = 0; ; hop++) {
        const response = await this.get(current, combined);
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location !== null) {
          await response.body?.cancel().catch(() => {});
          let next: URL;
          try {
            next = new URL(location, current);
          } catch {
            throw new WebFetchError(
              'invalid-redirect',
              `${current.href} redirects to "${location.slice(0, 200)}", which is not a valid URL.`,
            );
          }
          if (!isSameSiteRedirect(current, next))
            return {
              kind: 'redirect',
              url: current.href,
              location: next.href,
              status: response.status,
              statusText: response.statusText,
            };
          if (hop + 1 > limits.maxRedirects)
            throw new WebFetchError(
              'too-many-redirects',
              `${url.href} redirected more than ${limits.maxRedirects} times; the fetch was stopped.`,
            );
          const prepared = prepareUrl(next.href, this.options.policy);
          if (!prepared.ok)
            throw new WebFetchError(
              prepared.kind === 'blocked' ? 'blocked' : 'invalid-redirect',
              prepared.message,
            );
          current = prepared.url;
          continue;
        }
        const body = await readCapped(response, limits.maxBytes, current);
        return {
          kind: 'page',
          url: current.href,
          status: response.status,
          statusText: response.statusText,
          contentType: response.headers.get('content-type') ?? '',
          body,
        };
      }
    } catch (error) {
      if (signal.aborted) throw new AbortError('The fetch was interrupted.');
      if (deadline.aborted)
        throw new WebFetchError(
          'total-timeout',
          `Fetching ${url.href} took longer than ${seconds(limits.totalTimeoutMs)}; it was stopped.`,
        );
      if (isAbortError(error)) throw new AbortError('The fetch was interrupted.');
      throw classify(error, current, limits);
    }
  }

  /** One GET without following redirects; retried once when the connection drops unanswered. */
  private async get(url: URL, signal: AbortSignal): Promise<BodyResponse> {
    const { undici, agent } = await this.connectionPool();
    const send = () =>
      undici.fetch(url, {
        method: 'GET',
        redirect: 'manual',
        dispatcher: agent,
        signal,
        headers: {
          accept: ACCEPT,
          'accept-encoding': 'gzip, deflate, br',
          'user-agent': this.options.userAgent,
        },
      });
    try {
      return await send();
    } catch (error) {
      if (signal.aborted || !isDroppedConnection(error)) throw error;
      return send();
    }
  }

  async close(): Promise<void> {
    const pool = this.pool;
    if (pool === undefined) return;
    await (await pool).agent.close();
  }
}

/** The socket closed or reset before a response: undici's `UND_ERR_SOCKET`, or a reset/broken pipe. */
function isDroppedConnection(error: unknown): boolean {
  return causes(error).some((e) => {
    const code = String((e as { code?: unknown }).code ?? '');
    return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE';
  });
}

/** Extra CAs on top of Node's bundled roots (a `ca` option otherwise replaces them). */
function withSystemRoots(extra: string | readonly string[]): string[] {
  return [...rootCertificates, ...(typeof extra === 'string' ? [extra] : extra)];
}

type BodyResponse = Awaited<ReturnType<typeof fetch>>;

/** Reads the body up to `maxBytes`; past it the stream is cancelled and the fetch fails. */
async function readCapped(response: BodyResponse, maxBytes: number, url: URL): Promise<Buffer> {
  const tooLarge = () =>
    new WebFetchError(
      'too-large',
      `The page at ${url.href} is larger than ${Math.round(maxBytes / 1024 / 1024)} MB; WebFetch reads pages up to that size.`,
    );
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
  if (!encoded && Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    parts.push(value);
  }
  return Buffer.concat(parts, total);
}
