/**
 * The tool pool of one library session with MCP servers (`createAgent({mcpServers})`): the
 * servers are opened when the session starts, their tools join the built-in ones behind tool
 * search as `ENABLE_TOOL_SEARCH` decides, and `dispose()` (called when the session ends) closes
 * them. docs/mcp-client.md "Using it".
 */
import type { AnyTool } from '../core/tool.js';
import { openMcpServerSet } from '../mcp/client/server-set.js';
import { decideToolSearch, parseToolSearchSetting } from '../mcp/tool-search/activation.js';
import { createSessionToolPool } from '../mcp/tool-search/session-pool.js';
import { modelInfo } from '../model/models.js';
import type { ToolPoolLike } from './types.js';

export interface McpToolPoolOptions {
  /** `{name: entry}` in the `.mcp.json` format. */
  servers: Readonly<Record<string, unknown>>;
  builtIn: () => Promise<readonly AnyTool[]>;
  cwd: string;
  additionalDirectories: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  sessionDir: string;
  model: string;
  /** The model client's provider (`anthropic` sends loaded tools in place, others append them). */
  provider: string;
  isDenied: (toolName: string) => unknown;
}

/** Opens the servers and builds the pool (never rejects for a server that fails: it is reported). */
export async function loadMcpToolPool(options: McpToolPoolOptions): Promise<ToolPoolLike> {
  const [builtIn, set] = await Promise.all([
    options.builtIn(),
    openMcpServerSet({
      servers: options.servers,
      projectRoot: options.cwd,
      env: options.env,
      sessionDir: options.sessionDir,
      roots: () => [options.cwd, ...options.additionalDirectories],
    }),
  ]);
  // A bad entry is reported like a server that failed to start; the session goes on.
  const broken = set.problems.flatMap((p) =>
    p.severity === 'error' && p.server ? [{ name: p.server, status: 'failed', source: 'dynamic' }] : [],
  );
  const setting = parseToolSearchSetting(options.env.ENABLE_TOOL_SEARCH);
  const provider = options.provider === 'openai' ? 'openai' : 'anthropic';
  const toolSearch = decideToolSearch(
    setting.setting,
    [...builtIn, ...set.tools()],
    modelInfo(options.model, provider).contextWindow,
  ).enabled;
  const pool = createSessionToolPool({
    builtIn,
    ...(set.manager ? { mcp: set.manager } : {}),
    toolSearch,
    provider: options.provider,
    isDenied: options.isDenied,
  }).loopPool();
  // The pool's `callable` is a getter (the list follows list_changed): extend the object itself.
  return Object.assign(pool, {
    mcpServers: () =>
      [...set.initServers(), ...broken].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    dispose: () => set.close(),
  });
}
