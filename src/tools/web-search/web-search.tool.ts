/**
 * `WebSearch {query, allowed_domains?, blocked_domains?}`: searches the web through the configured
 * provider and returns titles, URLs and snippets (README.md in this folder; Claude Code
 * documentation, "Tools reference": WebSearch).
 *
 * Sequence: validate (query of 2+ characters; the two domain lists are exclusive; every entry a
 * domain) → the session cap (`CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION`, default 200, counted over
 * the session and its subagents: they share `context.services`) → the provider
 * (`select-provider.ts`) → hits filtered again by the domain lists → `{query, results,
 * durationSeconds, searchCount}`.
 *
 * Offered only when a provider is available (`isEnabled()`); never a made-up result. Read-only,
 * concurrency-safe; bare `WebSearch` rules only.
 */
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import { buildTool, type CallDescription, ToolExecutionError } from '../../core/index.js';
import { gantryTraits } from '../../core/tool-traits.js';
import { loadPrompt } from '../file-io/load-prompt.js';
import { webSearchDescriber } from './describe.js';
import { filterResults, normaliseDomain } from './domain-filter.js';
import { resolveSearchProvider, type WebSearchConfig, webSearchDiagnostics } from './select-provider.js';
import type { SearchResultEntry } from './types.js';

/** Calls per session (main agent and subagents together). */
export const DEFAULT_MAX_SEARCHES_PER_SESSION = 200;

const WebSearchInput = z.strictObject({
  query: z.string().min(2).describe('The search query.'),
  allowed_domains: z
    .array(z.string())
    .optional()
    .describe(
      'Only return results from these domains (subdomains included). Do not combine with blocked_domains.',
    ),
  blocked_domains: z
    .array(z.string())
    .optional()
    .describe(
      'Never return results from these domains (subdomains included). Do not combine with allowed_domains.',
    ),
});
export type WebSearchInput = z.infer<typeof WebSearchInput>;

/** Structured result (Claude Code's WebSearch output shape). */
export interface WebSearchOutput {
  query: string;
  results: SearchResultEntry[];
  durationSeconds: number;
  /** Searches the provider ran (absent when none ran: the session cap). */
  searchCount?: number;
}

export type WebSearchToolOptions = WebSearchConfig;

const prompt = loadPrompt(import.meta.url, './web-search.prompt.md');

/** Calls made so far, per session (the services object the session and its subagents share). */
const callsBySession = new WeakMap<object, { calls: number }>();

function capFrom(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env.CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION;
  const n = raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : DEFAULT_MAX_SEARCHES_PER_SESSION;
}

function domains(list: readonly string[] | undefined): string[] | undefined {
  if (!list || list.length === 0) return undefined;
  return list.map((d) => normaliseDomain(d) as string);
}

/** The model-facing text of a result. */
export function renderSearchResults(output: WebSearchOutput): string {
  const lines: string[] = [`Web search results for "${output.query}":`, ''];
  let n = 0;
  for (const entry of output.results) {
    if (typeof entry === 'string') {
      lines.push(entry, '');
      continue;
    }
    for (const hit of entry.content) {
      n++;
      lines.push(`${n}. ${hit.title || hit.url}`, `   ${hit.url}`);
      if (hit.snippet) lines.push(`   ${hit.snippet.replace(/\s+/g, ' ').trim()}`);
    }
    if (entry.content.length > 0) lines.push('');
  }
  if (n === 0 && output.searchCount !== undefined) lines.push('No pages were found.', '');
  if (n > 0)
    lines.push(
      'To read a page, call WebFetch with its URL. When you use these results, end your answer with a "Sources:" list of Markdown links to the pages you relied on.',
    );
  return lines.join('\n').trimEnd();
}

/** Builds a WebSearch tool for a configuration (settings, environment, the session's model provider). */
export function createWebSearchTool(options: WebSearchToolOptions = {}) {
  const config = (): WebSearchConfig => ({ ...options, env: options.env ?? process.env });
  return buildTool({
    name: 'WebSearch',
    aliases: gantryTraits('WebSearch').aliases,
    description: prompt,
    inputSchema: WebSearchInput,
    shouldDefer: true,
    maxResultSizeChars: 100_000,
    searchHint: 'search the web internet google query find pages current information',
    isEnabled: () => webSearchDiagnostics(config()).enabled,
    isReadOnly: webSearchDescriber.isReadOnly,
    isConcurrencySafe: () => true,
    userFacingName: () => 'Web Search',
    toAutoClassifierInput: webSearchDescriber.toAutoClassifierInput,

    async validateInput(input: WebSearchInput) {
      if (input.query.trim().length < 2)
        return { ok: false, field: 'query', message: 'query must have at least 2 characters.' };
      if ((input.allowed_domains?.length ?? 0) > 0 && (input.blocked_domains?.length ?? 0) > 0)
        return {
          ok: false,
          message:
            'Give either allowed_domains or blocked_domains, not both: keep one list and call WebSearch again.',
        };
      for (const field of ['allowed_domains', 'blocked_domains'] as const)
        for (const entry of input[field] ?? [])
          if (normaliseDomain(entry) === undefined)
            return {
              ok: false,
              field,
              message: `${field} entry "${entry.slice(0, 100)}" is not a domain name such as example.com.`,
            };
      return { ok: true };
    },

    async describeCall(input: WebSearchInput, context): Promise<CallDescription> {
      return webSearchDescriber.describe(input, describeWorldOf(context));
    },

    async *call(input: WebSearchInput, context) {
      const started = performance.now();
      const cfg = config();
      const cap = capFrom(cfg.env ?? {});
      let counter = callsBySession.get(context.services);
      if (!counter) {
        counter = { calls: 0 };
        callsBySession.set(context.services, counter);
      }
      if (counter.calls >= cap) {
        const data: WebSearchOutput = {
          query: input.query,
          results: [
            `The web search limit of this session (${cap} searches) is reached; no search was run. Continue with what you have found so far.`,
          ],
          durationSeconds: 0,
        };
        return { data };
      }
      const provider = resolveSearchProvider(cfg);
      if (!provider) throw new ToolExecutionError(webSearchDiagnostics(cfg).reason);
      counter.calls++;
      const lists = {
        ...(domains(input.allowed_domains)
          ? { allowedDomains: domains(input.allowed_domains) as string[] }
          : {}),
        ...(domains(input.blocked_domains)
          ? { blockedDomains: domains(input.blocked_domains) as string[] }
          : {}),
      };
      const response = await provider.search({
        query: input.query,
        ...lists,
        signal: context.abortController.signal,
        toolUseId: context.toolUseId ?? 'websearch',
        ...(context.services.modelClient ? { modelClient: context.services.modelClient } : {}),
      });
      const data: WebSearchOutput = {
        query: input.query,
        results: filterResults(response.results, lists),
        durationSeconds: Math.round(performance.now() - started) / 1000,
        searchCount: response.searchCount,
      };
      return { data };
    },

    mapToolResultToContent(output: WebSearchOutput) {
      return renderSearchResults(output);
    },
  });
}

/** WebSearch configured from the process environment alone (the registry's default). */
export const WebSearchTool = createWebSearchTool();
