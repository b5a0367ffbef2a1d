/**
 * WebSearch's `allowed_domains` / `blocked_domains` (README.md "Domain filters"): entries are
 * normalised like every host Gantry compares (`core/host-name.ts`: lower case, no trailing dot,
 * punycode), after dropping a scheme, a path, a port and a leading `*.`; an entry covers the domain
 * and its subdomains. Providers that can filter on their side are asked to; every provider's hits
 * are filtered again here, so a list is honoured whatever the provider supports.
 */
import { normalizeHostName } from '../../core/host-name.js';
import type { SearchResultEntry } from './types.js';

/** The domain an entry names (`https://Docs.Example.com/x` → `docs.example.com`), or undefined. */
export function normaliseDomain(entry: string): string | undefined {
  let d = entry.trim();
  d = d.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  d = d.split(/[/?#]/)[0] ?? '';
  if (d.startsWith('[')) return undefined;
  d = d.replace(/:\d+$/, '').replace(/^\*\./, '');
  const host = normalizeHostName(d);
  return host === '' || host.includes('*') || /\s/.test(host) ? undefined : host;
}

/** True when `host` is `domain` or one of its subdomains. */
export function onDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

function hostOfUrl(url: string): string | undefined {
  try {
    return normalizeHostName(new URL(url).hostname);
  } catch {
    return undefined;
  }
}

/** Keeps the hits the lists allow (a hit whose URL does not parse is dropped); text entries stay. */
export function filterResults(
  results: readonly SearchResultEntry[],
  lists: { allowedDomains?: readonly string[]; blockedDomains?: readonly string[] },
): SearchResultEntry[] {
  const allowed = lists.allowedDomains ?? [];
  const blocked = lists.blockedDomains ?? [];
  if (allowed.length === 0 && blocked.length === 0) return [...results];
  const keep = (url: string) => {
    const host = hostOfUrl(url);
    if (host === undefined) return false;
    if (blocked.some((d) => onDomain(host, d))) return false;
    return allowed.length === 0 || allowed.some((d) => onDomain(host, d));
  };
  return results.map((entry) =>
    typeof entry === 'string' ? entry : { ...entry, content: entry.content.filter((hit) => keep(hit.url)) },
  );
}
