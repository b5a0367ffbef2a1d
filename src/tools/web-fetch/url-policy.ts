/**
 * Which URLs WebFetch may request, decided before any connection (see README.md "Network safety"):
 *
 * - the URL must parse, be `http:` or `https:`, carry no user name or password, name a host, and be
 *   at most {@link MAX_URL_LENGTH} characters;
 * - `http:` is upgraded to `https:`, except for hosts the user lists as plain-http hosts (a private
 *   host is upgraded too unless it is listed there as well: each allowance says one thing);
 * - an IP-literal host in a loopback, private, link-local, carrier-grade-NAT, unique-local or
 *   metadata range is refused unless the user allows that literal: such a host never reaches the
 *   connect-time resolver check (`network-guard.ts`), so it is judged here;
 * - a single-label host (`localhost`, `intranet`) is refused unless allowed: it names the local
 *   network by construction.
 *
 * Hosts are compared in their normalised form: lower case, no trailing dot, IPv6 brackets removed,
 * internationalised names in punycode (`core/host-name.ts`, the form `new URL()` gives), so a rule
 * or list entry written `bücher.de` covers `xn--bcher-kva.de`.
 */
import net from 'node:net';
import { normalizeHostName } from '../../core/host-name.js';
import { classifyAddress } from '../../sandbox/address-guard.js';

/** Longest URL accepted, in characters. */
export const MAX_URL_LENGTH = 2000;

/** The user's allowances that widen the default network policy (settings `webFetch`). */
export interface NetworkAllowances {
  /**
   * Hosts (names or IP literals) that may resolve to, or be, loopback/private/link-local
   * addresses. Exact hosts only (normalised); an entry `*` is not accepted as "everything".
   */
  allowPrivateHosts?: readonly string[];
  /** Hosts fetched over plain `http:` as given (no upgrade to `https:`). Exact hosts. */
  allowHttpHosts?: readonly string[];
}

/** The compiled allowances. */
export interface NetworkPolicy {
  /** True when `host` (normalised) may reach private addresses. */
  privateAllowed(host: string): boolean;
  /** True when `host` (normalised) keeps `http:`. */
  httpAllowed(host: string): boolean;
}

function hostSet(entries: readonly string[] | undefined): ReadonlySet<string> {
  const out = new Set<string>();
  for (const entry of entries ?? []) {
    if (typeof entry !== 'string') continue;
    const host = normalizeHostName(entry);
    if (host !== '' && host !== '*') out.add(host);
  }
  return out;
}

/** Compiles the allowances once per tool configuration. */
export function compileNetworkPolicy(allowances: NetworkAllowances = {}): NetworkPolicy {
  const privateHosts = hostSet(allowances.allowPrivateHosts);
  const httpHosts = hostSet(allowances.allowHttpHosts);
  return {
    privateAllowed: (host) => privateHosts.has(normalizeHostName(host)),
    httpAllowed: (host) => httpHosts.has(normalizeHostName(host)),
  };
}

/** The host of a parsed URL in normalised form (`[::1]` → `::1`, `Bücher.de` → `xn--bcher-kva.de`). */
export function urlHost(url: URL): string {
  return normalizeHostName(url.hostname);
}

/** Why a URL is refused before any request. */
export type UrlRefusal =
  | { kind: 'invalid'; message: string }
  | { kind: 'blocked'; message: string; host: string; address?: string };

export type PreparedUrl =
  | { ok: true; url: URL; host: string; upgraded: boolean }
  | ({ ok: false } & UrlRefusal);

/** What makes a text an unusable URL (no policy involved); undefined when it parses as a web URL. */
export function invalidUrlMessage(raw: string): string | undefined {
  if (raw.length > MAX_URL_LENGTH)
    return `The URL is ${raw.length} characters long; WebFetch accepts at most ${MAX_URL_LENGTH}.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `"${raw.slice(0, 200)}" is not a valid URL. Pass a fully formed URL such as https://example.com/page.`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `WebFetch reads http and https URLs only, not ${url.protocol} URLs.`;
  if (url.username !== '' || url.password !== '')
    return 'The URL carries a user name or password. WebFetch does not send credentials; pass the URL without them.';
  if (url.hostname === '') return 'The URL has no host name.';
  return undefined;
}

/**
 * Checks one URL (the first one or a redirect target) against the policy and applies the
 * `http:` → `https:` upgrade. Never throws.
 */
export function prepareUrl(raw: string, policy: NetworkPolicy): PreparedUrl {
  const invalid = invalidUrlMessage(raw);
  if (invalid) return { ok: false, kind: 'invalid', message: invalid };
  const url = new URL(raw);
  const host = urlHost(url);
  const refusal = hostRefusal(host, policy);
  if (refusal) return { ok: false, ...refusal };
  let upgraded = false;
  if (url.protocol === 'http:' && !policy.httpAllowed(host)) {
    url.protocol = 'https:';
    // An explicit :80 belongs to http; after the upgrade the https default port applies.
    if (url.port === '80') url.port = '';
    upgraded = true;
  }
  return { ok: true, url, host, upgraded };
}

/** The refusal for a host judged before any connection (IP literal or single label), if any. */
export function hostRefusal(host: string, policy: NetworkPolicy): UrlRefusal | undefined {
  if (policy.privateAllowed(host)) return undefined;
  if (net.isIP(host) !== 0) {
    const cls = classifyAddress(host);
    if (cls)
      return {
        kind: 'blocked',
        host,
        address: host,
        message: blockedMessage(host, host, cls),
      };
    return undefined;
  }
  if (!host.includes('.'))
    return {
      kind: 'blocked',
      host,
      message: `The host "${host}" has no domain part, so it names a machine on the local network. WebFetch does not reach local hosts unless the user lists the host in the settings key webFetch.allowPrivateHosts.`,
    };
  return undefined;
}

/** The message for a host that is, or resolved to, an address of the machine or a private network. */
export function blockedMessage(host: string, address: string, cls: 'host' | 'private'): string {
  const what = cls === 'host' ? 'this machine, its link or a cloud metadata service' : 'a private network';
  const via =
    host === address ? `The address ${address}` : `The host "${host}" resolves to ${address}, which`;
  return `${via} belongs to ${what}. WebFetch does not reach such addresses unless the user lists the host in the settings key webFetch.allowPrivateHosts.`;
}

/**
 * True when a redirect from `from` to `to` stays on the same site and is followed: same host (after
 * normalisation), same port, and either the same scheme or `http:` → `https:`. Anything else — a
 * subdomain, `www.` added or removed, another port, a downgrade to `http:` — is another site, and
 * WebFetch answers with a notice naming both URLs instead of following it. Domain rules match the
 * host only, so a same-host hop gets the same permission verdict as the URL that was approved.
 */
export function isSameSiteRedirect(from: URL, to: URL): boolean {
  if (urlHost(from) !== urlHost(to)) return false;
  if (to.username !== '' || to.password !== '') return false;
  const scheme = from.protocol === to.protocol || (from.protocol === 'http:' && to.protocol === 'https:');
  if (!scheme) return false;
  const port = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
  if (from.protocol === to.protocol) return port(from) === port(to);
  // http → https: only the default ports (a page at :8080 moving to https at :8443 is another service).
  return port(from) === '80' && port(to) === '443';
}
