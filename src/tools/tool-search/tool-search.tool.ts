/**
 * `ToolSearch`: loads deferred tools (docs/mcp-client.md "ToolSearch"). Deferred tools reach the
 * model by name only; a call here finds some by keyword (`slack send`, `+github pull request`) or
 * by exact name (`select:NotebookEdit,mcp__github__create_issue`), and answers with one
 * `tool_reference` block per tool, followed (as a sibling block of the same user message) by a
 * short text. From the next request on, the loaded tools' full definitions are sent (the tool pool
 * reads `AppState.discoveredToolNames`, which this tool extends, per agent).
 *
 * Input (Claude Code's): `query` (string, required), `max_results` (number, default 5).
 * No match: the plain text `No matching deferred tools found` (not an error).
 *
 * The tools searched are this context's callable tools that are deferred (`isDeferredTool`). When
 * the host says MCP servers are still connecting (`waitForServers`), the search waits for them
 * first, up to `waitForServersMs`.
 *
 * Loading is not authority: a loaded tool's calls pass the same permission steps as any call, and
 * so does a call to a deferred tool the model never loaded.
 */
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import { buildTool } from '../../core/build-tool.js';
import type { ToolReferenceBlock } from '../../core/content.js';
import type { AnyTool } from '../../core/tool.js';
import { toolSearchDescriber } from './describe.js';
import { type DeferralOptions, isDeferredTool, TOOL_SEARCH_TOOL_NAME } from './is-deferred.js';
import { searchTools } from './scoring.js';

export const DEFAULT_TOOL_SEARCH_MAX_RESULTS = 5;
export const NO_MATCH_TEXT = 'No matching deferred tools found';
export const LOADED_TEXT = 'Tool loaded.';

const ToolSearchInput = z.strictObject({
  query: z
    .string()
    .describe(
      'Keywords matched against tool names and descriptions ("+slack send": a + word must be in the name), or "select:Name1,Name2" for exactly those tools.',
    ),
  max_results: z
    .number()
    .default(DEFAULT_TOOL_SEARCH_MAX_RESULTS)
    .describe(`How many tools to load at most (default ${DEFAULT_TOOL_SEARCH_MAX_RESULTS}).`),
});
export type ToolSearchInput = z.infer<typeof ToolSearchInput>;

export interface ToolSearchOutput {
  /** The loaded tools, best first. */
  matches: string[];
  query: string;
  /** Deferred tools searched. */
  total_deferred_tools: number;
}

export interface ToolSearchOptions extends DeferralOptions {
  /** Resolves when MCP servers still connecting are done (the search waits for it). */
  waitForServers?: () => Promise<unknown>;
  /** Longest wait for `waitForServers`, in ms (default 30,000). */
  waitForServersMs?: number;
}

const DESCRIPTION = `Loads the full definitions of deferred tools so you can call them. Deferred tools are listed by name only (in the session context) and cannot be called until loaded here.

- "select:Name1,Name2" loads exactly those tools (full names, e.g. mcp__github__create_issue).
- Keywords ("jira issue") load the best matches by name and description; a keyword with a leading + must be in the name ("+github pull request").

At most max_results tools (default 5) load per search; loaded tools stay for the session.`;

async function waitBounded(wait: () => Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    wait().catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

/** Builds the tool (the session's fork setting and server wait are its options). */
export function createToolSearchTool(options: ToolSearchOptions = {}) {
  return buildTool({
    name: TOOL_SEARCH_TOOL_NAME,
    description: DESCRIPTION,
    inputSchema: ToolSearchInput,
    maxResultSizeChars: 100_000,
    isReadOnly: toolSearchDescriber.isReadOnly,
    isConcurrencySafe: () => true,
    toAutoClassifierInput: toolSearchDescriber.toAutoClassifierInput,
    async describeCall(input: ToolSearchInput, context) {
      return toolSearchDescriber.describe(input, describeWorldOf(context));
    },
    // biome-ignore lint/correctness/useYield: the search reports no progress.
    async *call(input: ToolSearchInput, context) {
      if (options.waitForServers)
        await waitBounded(options.waitForServers, options.waitForServersMs ?? 30_000);
      const deferred = context.options.tools.filter((t: AnyTool) => isDeferredTool(t, options));
      const matches = searchTools(deferred, input.query, Math.floor(input.max_results)).map(
        (m) => m.tool.name,
      );
      if (matches.length) {
        context.setAppState((prev) => {
          const known = new Set(prev.discoveredToolNames ?? []);
          const added = matches.filter((n) => !known.has(n));
          return added.length
            ? { ...prev, discoveredToolNames: [...(prev.discoveredToolNames ?? []), ...added] }
            : prev;
        });
      }
      const data: ToolSearchOutput = { matches, query: input.query, total_deferred_tools: deferred.length };
      return {
        data,
        ...(matches.length
          ? {
              newMessages: [
                { role: 'user' as const, content: [{ type: 'text' as const, text: LOADED_TEXT }] },
              ],
            }
          : {}),
      };
    },
    mapToolResultToContent(output: ToolSearchOutput) {
      if (!output.matches.length) return NO_MATCH_TEXT;
      return output.matches.map((name): ToolReferenceBlock => ({ type: 'tool_reference', tool_name: name }));
    },
  });
}

/** ToolSearch with no fork mode and no server wait. */
export const ToolSearchTool = createToolSearchTool();
