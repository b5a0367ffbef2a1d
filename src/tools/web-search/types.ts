/**
 * The search-provider seam of WebSearch (README.md "Providers"): one interface, one module per
 * provider. A provider turns a query into titled links, in the structured shape WebSearch returns
 * (Claude Code's `WebSearchOutput.results`): groups of hits, each tagged with the id of the search
 * that produced it, and free text (a provider's own commentary or an error note).
 */
import type { WebSearchProviderName } from '../../core/web-settings.js';
import type { ModelClient } from '../../core/model-client.js';

/** One hit. */
export interface SearchHit {
  title: string;
  url: string;
  /** A short extract of the page, when the provider gives one. */
  snippet?: string;
}

/** The hits of one search. */
export interface SearchHitGroup {
  /** The search that produced them (a server-side search's id, or the WebSearch call's own id). */
  tool_use_id: string;
  content: SearchHit[];
}

/** One entry of the results: hits, or text. */
export type SearchResultEntry = SearchHitGroup | string;

/** What one WebSearch call asks of a provider. */
export interface SearchRequest {
  query: string;
  /** Only results on these domains (normalised, subdomains included). */
  allowedDomains?: readonly string[];
  /** No results on these domains (normalised, subdomains included). */
  blockedDomains?: readonly string[];
  signal: AbortSignal;
  /** The WebSearch call's tool_use id (HTTP providers tag their hits with it). */
  toolUseId: string;
  /** The session's model client (the Anthropic provider runs the search through it). */
  modelClient?: ModelClient;
}

export interface SearchResponse {
  results: SearchResultEntry[];
  /** Searches the provider ran for this call. */
  searchCount: number;
}

export interface SearchProvider {
  readonly name: WebSearchProviderName;
  search(request: SearchRequest): Promise<SearchResponse>;
}
