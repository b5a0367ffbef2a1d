/**
 * The tool pool of a session with MCP servers and tool search (docs/mcp-client.md "Deferred
 * tools"): one call per request gives the pool to send, from the built-in tools, the MCP client's
 * tools (stable order, appended when servers add tools), the resource tools, the Agent tool, and
 * ToolSearch when deferred loading is on.
 *
 * - Anthropic (tool references): loaded tools are sent in place with `defer_loading: true`.
 * - Providers without tool references (OpenAI-compatible): loaded tools are appended after every
 *   other tool, in the order they were loaded, so the bytes before them never change.
 * - `deferredSection()` is the text of the deferred names for the session context block.
 */
import type { ModelToolDefinition } from '../../core/model-client.js';
import type { AnyTool } from '../../core/tool.js';
import { assembleToolPool, type ToolPool } from '../../runtime/tool-pool.js';
import { isDeferredTool } from '../../tools/tool-search/is-deferred.js';
import { createToolSearchTool } from '../../tools/tool-search/tool-search.tool.js';
import type { McpClientManager } from '../client/manager.js';
import { renderDeferredToolsDelta, renderDeferredToolsSection } from './deferred-section.js';

export interface SessionToolPoolOptions {
  builtIn: readonly AnyTool[];
  mcp?: McpClientManager;
  agent?: AnyTool;
  /** The permission engine's bare-deny test. */
  isDenied?: (toolName: string) => unknown;
  /** Deferred loading on (see activation.ts). */
  toolSearch: boolean;
  /** `anthropic` sends loaded tools in place; any other provider gets them appended. */
  provider: string;
  forkSubagentEnabled?: boolean;
  /** ToolSearch waits this long for servers still connecting (ms; default 30,000). */
  waitForServersMs?: number;
}

export interface SessionToolPool {
  /** The pool for the next request, given the context's loaded tools. */
  pool(discoveredToolNames?: readonly string[]): ToolPool;
  /** The ToolSearch tool of this session (undefined when deferred loading is off). */
  readonly toolSearchTool: AnyTool | undefined;
  /** The deferred-names section for the session context block (`''` when nothing is deferred). */
  deferredSection(discoveredToolNames?: readonly string[]): string;
  /**
   * A note about deferred tools that appeared or went away since the last call (the first call
   * records the current set and returns `''`).
   */
  deferredDelta(discoveredToolNames?: readonly string[]): string;
  /**
   * The pool as the loop takes it (`QueryOptions.toolPool`): `callable` and `definitions()` of the
   * first request, `definitionsFor(loaded)` for later ones, `deferredToolsSection()`.
   */
  loopPool(): LoopToolPool;
}

/** The loop's tool-pool contract (structurally `ToolPoolLike` of `src/loop/types.ts`). */
export interface LoopToolPool {
  readonly callable: readonly AnyTool[];
  definitions(): readonly ModelToolDefinition[];
  definitionsFor(discoveredToolNames: readonly string[]): readonly ModelToolDefinition[];
  deferredToolsSection(): string;
  deferredToolsDelta(discoveredToolNames: readonly string[]): string;
  requestBetas(): readonly string[];
  /** The session's MCP client (child sessions share its servers by name: `openMcpServerSet({parent})`). */
  readonly mcp: McpClientManager | undefined;
}

/**
 * The `anthropic-beta` value deferred loading needs on Anthropic (`defer_loading` definitions and
 * `tool_reference` blocks); see Anthropic's tool search documentation.
 */
export const TOOL_SEARCH_BETA = 'advanced-tool-use-2025-11-20';

export function createSessionToolPool(options: SessionToolPoolOptions): SessionToolPool {
  const toolSearchTool = options.toolSearch
    ? createToolSearchTool({
        ...(options.forkSubagentEnabled ? { forkSubagentEnabled: true } : {}),
        ...(options.mcp ? { waitForServers: () => (options.mcp as McpClientManager).start() } : {}),
        ...(options.waitForServersMs !== undefined ? { waitForServersMs: options.waitForServersMs } : {}),
      })
    : undefined;
  let announced: Set<string> | undefined;
  const deferral = { forkSubagentEnabled: options.forkSubagentEnabled === true };
  const pool = (discovered: readonly string[] = []): ToolPool => {
    const builtIn = [...options.builtIn, ...(options.mcp?.resourceTools() ?? [])];
    const mcp = options.mcp?.tools() ?? [];
    // ToolSearch is offered only when there is something to load (`--tools Bash,Read` gets none).
    const anyDeferred = [...builtIn, ...mcp, ...(options.agent ? [options.agent] : [])].some((t) =>
      isDeferredTool(t, deferral),
    );
    return assembleToolPool({
      builtIn,
      mcp,
      ...(options.agent ? { agent: options.agent } : {}),
      ...(toolSearchTool && anyDeferred ? { toolSearch: toolSearchTool } : {}),
      ...(options.isDenied ? { isDenied: options.isDenied } : {}),
      discoveredToolNames: discovered,
      forkSubagentEnabled: options.forkSubagentEnabled === true,
      mcpOrder: 'given',
      loadedPlacement: options.provider === 'anthropic' ? 'in-place' : 'appended',
    });
  };
  const session: SessionToolPool = {
    pool,
    toolSearchTool,
    deferredSection: (discovered) => {
      const names = pool(discovered).deferred.map((t) => t.name);
      announced = new Set(names);
      return renderDeferredToolsSection(names);
    },
    deferredDelta: (discovered) => {
      const now = pool(discovered).deferred.map((t) => t.name);
      const before = announced;
      announced = new Set(now);
      if (!before) return '';
      return renderDeferredToolsDelta(
        now.filter((n) => !before.has(n)),
        [...before].filter((n) => !announced?.has(n) && !(discovered ?? []).includes(n)),
      );
    },
    loopPool: () => ({
      get callable() {
        return pool().callable;
      },
      definitions: () => pool().definitions(),
      definitionsFor: (discovered) => pool(discovered).definitions(),
      deferredToolsSection: () => session.deferredSection(),
      deferredToolsDelta: (discovered) => session.deferredDelta(discovered),
      requestBetas: () => (toolSearchTool && options.provider === 'anthropic' ? [TOOL_SEARCH_BETA] : []),
      mcp: options.mcp,
    }),
  };
  return session;
}
