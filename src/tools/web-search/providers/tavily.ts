/**
 * Tavily: `POST <base>/search` with `Authorization: Bearer <TAVILY_API_KEY>` and a JSON body
 * `{query, max_results, include_domains, exclude_domains}`; hits from `results[]` (`title`, `url`,
 * `content` as the snippet). The domain lists are Tavily's own parameters.
 */
import type { SearchProvider, SearchResponse } from '../types.js';
import { list, requestJson, str } from './http.js';

export const TAVILY_DEFAULT_BASE_URL = 'https://api.tavily.com';

export function tavilyProvider(options: { apiKey: string; baseUrl?: string }): SearchProvider {
  const base = (options.baseUrl ?? TAVILY_DEFAULT_BASE_URL).replace(/\/+$/, '');
  return {
    name: 'tavily',
    async search(request): Promise<SearchResponse> {
      const body = (await requestJson({
        label: 'Tavily',
        url: `${base}/search`,
        method: 'POST',
        headers: { authorization: `Bearer ${options.apiKey}` },
        body: {
          query: request.query,
          max_results: 10,
          search_depth: 'basic',
          ...(request.allowedDomains?.length ? { include_domains: request.allowedDomains } : {}),
          ...(request.blockedDomains?.length ? { exclude_domains: request.blockedDomains } : {}),
        },
        signal: request.signal,
        refusedHint: 'check the key in TAVILY_API_KEY',
      })) as Record<string, unknown>;
      const content = list(body?.results)
        .map((r) => ({ title: str(r.title), url: str(r.url), snippet: str(r.content) }))
        .filter((h) => h.url !== '')
        .map((h) => (h.snippet === '' ? { title: h.title, url: h.url } : h));
      return { results: [{ tool_use_id: request.toolUseId, content }], searchCount: 1 };
    },
  };
}
