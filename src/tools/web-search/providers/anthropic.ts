/**
 * Anthropic's server-side web search (Messages API tool `web_search_20250305`), used when the
 * session's model provider is Anthropic: one request through the session's `ModelClient` with the
 * server tool and no client tools; the model runs up to `maxUses` searches and the response's
 * `server_tool_use` / `web_search_tool_result` blocks (carried through by the provider as
 * `responseContent`, docs/agent-wire.md) become the hit groups, the model's text between them the
 * text entries. The domain lists are the tool's own `allowed_domains` / `blocked_domains`.
 */
import { AbortError, errorMessage, ToolExecutionError } from '../../../core/errors.js';
import type { ModelClient, ModelStreamEvent } from '../../../core/model-client.js';
import type { SearchProvider, SearchResponse, SearchResultEntry } from '../types.js';

export const ANTHROPIC_WEB_SEARCH_TOOL = 'web_search_20250305';

const SYSTEM =
  'You run web searches for a coding agent. Search the web for the request, using several queries if that helps, then reply with two or three sentences on what the results say. Do not answer from memory.';

export function anthropicSearchProvider(options: { model: string; maxUses: number }): SearchProvider {
  return {
    name: 'anthropic',
    async search(request): Promise<SearchResponse> {
      const client: ModelClient | undefined = request.modelClient;
      if (!client || client.provider !== 'anthropic')
        throw new ToolExecutionError(
          `Anthropic's web search needs the session's model to be on the Anthropic API, but ${client ? `it is on ${client.provider}` : 'this session has no model client'}. Configure another search provider (webSearch.provider with BRAVE_API_KEY, TAVILY_API_KEY or SEARXNG_URL).`,
        );
      const tool: Record<string, unknown> = {
        type: ANTHROPIC_WEB_SEARCH_TOOL,
        name: 'web_search',
        max_uses: options.maxUses,
      };
      if (request.allowedDomains?.length) tool.allowed_domains = [...request.allowedDomains];
      if (request.blockedDomains?.length) tool.blocked_domains = [...request.blockedDomains];
      let stop: MessageStop | undefined;
      try {
        stop = await firstStop(
          client.stream(
            {
              model: options.model,
              system: [{ type: 'text', text: SYSTEM }],
              messages: [{ role: 'user', content: `Search the web for: ${request.query}` }],
              tools: [],
              maxTokens: 2048,
              extra: { anthropic: { tools: [tool] } },
            },
            { signal: request.signal },
          ),
        );
      } catch (error) {
        if (request.signal.aborted || (error as { kind?: string }).kind === 'aborted')
          throw new AbortError('The search was interrupted.');
        throw new ToolExecutionError(`Anthropic's web search failed: ${errorMessage(error)}`);
      }
      if (!stop) throw new ToolExecutionError("Anthropic's web search ended without a response.");
      const blocks = stop.responseContent ?? stop.message.content;
      const results: SearchResultEntry[] = [];
      let searchCount = 0;
      let text = '';
      const flush = () => {
        if (text.trim() !== '') results.push(text.trim());
        text = '';
      };
      for (const block of blocks) {
        if (block.type === 'text') text += block.text;
        else if (block.type === 'server_tool_use') searchCount++;
        else if (block.type === 'web_search_tool_result') {
          flush();
          if (Array.isArray(block.content))
            results.push({
              tool_use_id: block.tool_use_id,
              content: block.content.map((r) => ({ title: r.title, url: r.url })),
            });
          else results.push(`Web search error: ${block.content.error_code}`);
        }
      }
      flush();
      return { results, searchCount };
    },
  };
}

type MessageStop = Extract<ModelStreamEvent, { type: 'message_stop' }>;

/** Reads the stream to its end; its `message_stop` event. */
async function firstStop(events: AsyncIterable<ModelStreamEvent>): Promise<MessageStop | undefined> {
  let stop: MessageStop | undefined;
  for await (const e of events) if (e.type === 'message_stop') stop = e;
  return stop;
}
