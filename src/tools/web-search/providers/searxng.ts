/**
 * A SearXNG instance (`SEARXNG_URL` or settings `webSearch.searxngUrl`): `GET <instance>/search?
 * q=…&format=json` (the instance must have the JSON format enabled); hits from `results[]`
 * (`title`, `url`, `content` as the snippet), the first ten. Domain lists become `site:` /
 * `-site:` operators, which most of SearXNG's engines understand, and are applied again to the hits.
 */
import type { SearchProvider, SearchResponse } from '../types.js';
import { braveQuery } from './brave.js';
import { list, requestJson, str } from './http.js';

export function searxngProvider(options: { instanceUrl: string }): SearchProvider {
  const base = options.instanceUrl.replace(/\/+$/, '');
  return {
    name: 'searxng',
    async search(request): Promise<SearchResponse> {
      const url = new URL(`${base}/search`);
      url.searchParams.set('q', braveQuery(request));
      url.searchParams.set('format', 'json');
      const body = (await requestJson({
        label: `The SearXNG instance at ${base}`,
        url: url.href,
        signal: request.signal,
        refusedHint: 'the instance must allow the json format (search.formats in its settings.yml)',
      })) as Record<string, unknown>;
      const content = list(body?.results)
        .map((r) => ({ title: str(r.title), url: str(r.url), snippet: str(r.content) }))
        .filter((h) => h.url !== '')
        .slice(0, 10)
        .map((h) => (h.snippet === '' ? { title: h.title, url: h.url } : h));
      return { results: [{ tool_use_id: request.toolUseId, content }], searchCount: 1 };
    },
  };
}
