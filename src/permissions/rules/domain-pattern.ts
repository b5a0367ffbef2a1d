/**
 * `WebFetch(domain:…)` host patterns (the Claude Code permissions docs): case-insensitive, a trailing `.` ignored, Unicode
 * names compared in punycode on both sides (a rule `bücher.de` matches `xn--bcher-kva.de`);
 * `*` = any host; `*.example.com` = any subdomain at any depth but not the apex; any other `*`
 * matches within one label (`example.*` matches `example.org`, not `example.evil.com`).
 */
import { normalizeHostName } from '../../core/host-name.js';

/**
 * A host without its port, normalised by the one host normaliser (core/host-name.ts: lower case, no
 * trailing dot, punycode). IPv6 literals keep their brackets (`[::1]`), as `URL.hostname` gives them.
 */
export function normaliseHost(host: string): string {
  const h = host.trim();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end === -1 ? h.toLowerCase() : `[${normalizeHostName(h.slice(1, end))}]`;
  }
  const colon = h.lastIndexOf(':');
  const bare =
    colon !== -1 && h.indexOf(':') === colon && /^\d+$/.test(h.slice(colon + 1)) ? h.slice(0, colon) : h;
  return normalizeHostName(bare);
}

/** Extracts the host from a URL or `host[:port]`; undefined when there is none. */
export function hostOf(target: string): string | undefined {
  const t = target.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t)) {
    try {
      return normaliseHost(new URL(t).hostname);
    } catch {
      return undefined;
    }
  }
  if (t.startsWith('domain:')) return normaliseHost(t.slice('domain:'.length));
  const host = t.split('/')[0] ?? '';
  return host ? normaliseHost(host) : undefined;
}

/** Compiles a host pattern into a predicate over normalised hosts. */
export function compileDomainPattern(pattern: string): (host: string) => boolean {
  const p = normaliseHost(pattern);
  if (p === '*') return () => true;
  if (p.startsWith('*.') && !p.slice(2).includes('*')) {
    const suffix = p.slice(1);
    return (h) => h.endsWith(suffix) && h.length > suffix.length;
  }
  if (!p.includes('*')) return (h) => h === p;
  const re = new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^.]*')}$`);
  return (h) => re.test(h);
}
