/**
 * Every request the browser makes goes through here (a Playwright route on the whole context), so
 * WebBrowser follows WebFetch's network rules (web-fetch/url-policy.ts, web-fetch/network-guard.ts,
 * handed in as ports by tools/web-browser-ports.ts):
 *
 * - the URL must pass `prepareUrl` (http/https only, no credentials, IP literals and single-label
 *   hosts of this machine or a private network refused unless `webFetch.allowPrivateHosts` lists
 *   them; `http:` upgraded to `https:` unless `webFetch.allowHttpHosts` lists the host);
 * - the request is then made by Node, not by Chromium, through an undici agent whose `lookup` is
 *   WebFetch's connect-time address guard, so a name that resolves to an internal address is refused
 *   at the connection actually made (no gap between a check and Chromium's own resolution);
 * - redirects are never handed to Chromium (it would follow them without asking the route): a
 *   redirect of the page itself is recorded and the request aborted, and the tool decides (same
 *   host: followed; another host: a notice, like WebFetch's cross-site redirect); a redirect of a
 *   sub-resource is followed here, each hop checked again;
 * - a navigation of the page to another host than the one the call was approved for (a link, a
 *   form, a script) is stopped the same way and reported; sub-resources (images, scripts, styles
 *   from other hosts) load as in any browser, under the address rules above;
 * - bodies over {@link MAX_RESPONSE_BYTES} are refused; WebSockets are refused (nothing checks them).
 */
import type { BrowserContext, Request, Route } from 'playwright-core';
import { Agent, fetch as undiciFetch } from 'undici';
import type { BrowserNetworkPorts } from './ports.js';

/** Largest response body passed to the browser, in bytes. */
export const MAX_RESPONSE_BYTES = 20 * 1024 * 1024;
/** Redirect hops followed for one sub-resource. */
const MAX_SUBRESOURCE_REDIRECTS = 10;

/** Headers that belong to one connection (not forwarded either way) or that undici sets itself. */
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'te',
  'trailer',
]);

/** What happened to the page's own navigation while a call ran (read and cleared by the tool). */
export type NavigationEvent =
  | { kind: 'redirect'; from: string; to: string; status: number }
  | { kind: 'blocked'; url: string; reason: string };

export interface BrowserNetworkOptions {
  /** WebFetch's network rules (tools/web-browser-ports.ts). */
  ports: BrowserNetworkPorts;
}

/** The route every request of a browser context passes (see the module comment). */
export class BrowserNetwork {
  private readonly agent: Agent;
  /** The host the page may navigate to (set by the tool before it navigates). */
  private approvedHost: string | undefined;
  private events: NavigationEvent[] = [];
  /** Sub-resource refusals of the current call (for the model: why an image or script is missing). */
  private refused: string[] = [];

  constructor(private readonly options: BrowserNetworkOptions) {
    this.agent = new Agent({
      connect: { lookup: options.ports.lookup, timeout: 15_000 },
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
  }

  /** The page may navigate within `url`'s host from now on. */
  approve(url: string): void {
    this.approvedHost = this.options.ports.hostOf(new URL(url));
  }

  /** The navigation events and refused sub-resources since the last call (and forgets them). */
  take(): { events: NavigationEvent[]; refused: string[] } {
    const out = { events: this.events, refused: this.refused };
    this.events = [];
    this.refused = [];
    return out;
  }

  /** Installs the route on `context`. */
  async install(context: BrowserContext): Promise<void> {
    await context.route('**/*', (route) => this.handle(route));
    await context.routeWebSocket(/.*/, (ws) => {
      this.refused.push(`${ws.url()} (WebSockets are not opened by WebBrowser)`);
      void ws.close({ code: 1008, reason: 'WebSockets are refused by WebBrowser' });
    });
  }

  async close(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }

  private isPageNavigation(request: Request): boolean {
    if (!request.isNavigationRequest()) return false;
    const frame = request.frame();
    return frame.parentFrame() === null;
  }

  private async handle(route: Route): Promise<void> {
    const request = route.request();
    const raw = request.url();
    const page = this.isPageNavigation(request);
    const prepared = this.options.ports.prepareUrl(raw);
    if (!prepared.ok) {
      const reason = `WebBrowser follows WebFetch's network rules: ${prepared.message}`;
      if (page) this.events.push({ kind: 'blocked', url: raw, reason });
      else this.refused.push(`${raw}: ${prepared.message}`);
      await route.abort('blockedbyclient').catch(() => undefined);
      return;
    }
    if (page && this.approvedHost !== undefined && prepared.host !== this.approvedHost) {
      this.events.push({
        kind: 'blocked',
        url: raw,
        reason: `the page tried to go to ${prepared.host}, another host than the approved ${this.approvedHost}`,
      });
      await route.abort('blockedbyclient').catch(() => undefined);
      return;
    }
    try {
      let url = prepared.url;
      let method = request.method();
      let body: Buffer | undefined = request.postDataBuffer() ?? undefined;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(await request.allHeaders()))
        if (!HOP_HEADERS.has(k.toLowerCase()) && !k.startsWith(':')) headers[k] = v;
      for (let hop = 0; ; hop++) {
        const response = await undiciFetch(url, {
          method,
          headers,
          ...(body && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
          redirect: 'manual',
          dispatcher: this.agent,
        });
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location !== null) {
          await response.body?.cancel().catch(() => undefined);
          const next = new URL(location, url);
          if (page) {
            this.events.push({ kind: 'redirect', from: url.href, to: next.href, status: response.status });
            await route.abort('aborted').catch(() => undefined);
            return;
          }
          const again = this.options.ports.prepareUrl(next.href);
          if (!again.ok || hop >= MAX_SUBRESOURCE_REDIRECTS) {
            this.refused.push(`${next.href}: ${again.ok ? 'too many redirects' : again.message}`);
            await route.abort('blockedbyclient').catch(() => undefined);
            return;
          }
          url = again.url;
          if (
            response.status === 303 ||
            ((response.status === 301 || response.status === 302) && method === 'POST')
          ) {
            method = 'GET';
            body = undefined;
          }
          continue;
        }
        const bytes = await readCapped(response);
        const out: Record<string, string> = {};
        response.headers.forEach((value, key) => {
          if (HOP_HEADERS.has(key) || key === 'content-encoding' || key === 'set-cookie') return;
          out[key] = value;
        });
        const cookies = response.headers.getSetCookie();
        if (cookies.length) out['set-cookie'] = cookies.join('\n');
        await route.fulfill({ status: response.status, headers: out, body: bytes });
        return;
      }
    } catch (error) {
      const message = describeFailure(error, this.options.ports.blockedCode);
      if (page) this.events.push({ kind: 'blocked', url: raw, reason: message });
      else this.refused.push(`${raw}: ${message}`);
      await route.abort('failed').catch(() => undefined);
    }
  }
}

async function readCapped(response: Response | Awaited<ReturnType<typeof undiciFetch>>): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > MAX_RESPONSE_BYTES)
    throw new Error(`the response is larger than ${MAX_RESPONSE_BYTES} bytes`);
  const chunks: Buffer[] = [];
  let total = 0;
  if (!response.body) return Buffer.alloc(0);
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > MAX_RESPONSE_BYTES)
      throw new Error(`the response is larger than ${MAX_RESPONSE_BYTES} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

function describeFailure(error: unknown, blockedCode: string): string {
  let e: unknown = error;
  for (let i = 0; i < 6 && e; i++) {
    const code = (e as { code?: unknown }).code;
    if (code === blockedCode) return `WebBrowser follows WebFetch's network rules: ${(e as Error).message}`;
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host could not be resolved';
    if (code === 'ECONNREFUSED') return 'the connection was refused';
    e = (e as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.message : String(error);
}
