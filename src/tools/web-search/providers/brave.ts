/**
 * Brave Search (Web Search API): `GET <base>/res/v1/web/search?q=…&count=10` with the key in
 * `X-Subscription-Token` (`BRAVE_API_KEY`); hits from `web.results[]` (`title`, `url`,
 * `description`, which may hold `<strong>` highlighting, removed here). Domain lists become
 * `site:` / `-site:` operators in the query (and are applied again to the hits by WebSearch).
 */
import type { SearchProvider, SearchRequest, SearchResponse } from '../types.js';
import { list, requestJson, str } from './http.js';

export const BRAVE_DEFAULT_BASE_URL = 'https://api.search.brave.com';

const stripTags = (s: string) => s.replace(/<\/?[a-z][^>]*>/gi, '');

/** The query with the domain lists as operators. */
export function braveQuery(
  request: Pick<SearchRequest, 'query' | 'allowedDomains' | 'blockedDomains'>,
): string {
  const allowed = request.allowedDomains ?? [];
  const blocked = request.blockedDomains ?? [];
  const parts = [request.query];
  if (allowed.length > 0) parts.push(`(${allowed.map((d) => `site:${d}`).join(' OR ')})`);
  for (const d of blocked) parts.push(`-site:${d}`);
  return parts.join(' ');
}

export function braveProvider(options: { apiKey: string; baseUrl?: string }): SearchProvider {
  const base = (options.baseUrl ?? BRAVE_DEFAULT_BASE_URL).replace(/\/+$/, '');
  return {
    name: 'brave',
    async search(request): Promise<SearchResponse> {
      const url = new URL(`${base}/res/v1/web/search`);
      url.searchParams.set('q', braveQuery(request));
      url.searchParams.set('count', '10');
      const body = (await requestJson({
        label: 'Brave Search',
        url: url.href,
        headers: { 'x-subscription-token': options.apiKey, 'accept-encoding': 'gzip' },
        signal: request.signal,
        refusedHint: 'check the key in BRAVE_API_KEY',
      })) as Record<string, unknown>;
      const web = (body?.web ?? {}) as Record<string, unknown>;
      const content = list(web.results)
        .map((r) => ({
          title: stripTags(str(r.title)),
          url: str(r.url),
          snippet: stripTags(str(r.description)),
        }))
        .filter((h) => h.url !== '')
        .map((h) => (h.snippet === '' ? { title: h.title, url: h.url } : h));
      return { results: [{ tool_use_id: request.toolUseId, content }], searchCount: 1 };
    },
  };
}
