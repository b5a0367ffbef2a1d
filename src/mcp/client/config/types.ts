/**
 * MCP server configuration as Claude Code reads it (Claude Code documentation, "Connect Claude
 * Code to tools via MCP": installation scopes, `.mcp.json`, environment variable expansion).
 * docs/mcp-client.md describes where each entry comes from and how conflicts are settled.
 *
 * Entry shapes (after validation; see `parseServerEntry`):
 * - `stdio` (the default when `type` is absent and `command` is given): `command`, `args`, `env`;
 * - `http` (alias `streamable-http`): `url`, `headers`;
 * - `sse` (deprecated by the MCP specification, still read): `url`, `headers`.
 * Every shape may carry `timeout` (per-call timeout in milliseconds) and `alwaysLoad` (every tool
 * of the server is sent upfront, never deferred behind tool search).
 */

/**
 * Where a server entry came from. `dynamic` = `--mcp-config`; `managed` = managed settings; `sdk` =
 * an in-process server of the Agent SDK host (`createSdkMcpServer`).
 */
export type McpConfigScope = 'managed' | 'dynamic' | 'local' | 'project' | 'user' | 'sdk';

interface CommonEntry {
  /** Per-call timeout for this server's tools, in milliseconds (overrides `MCP_TOOL_TIMEOUT`). */
  timeoutMs?: number;
  /** Send every tool of this server upfront (never deferred). */
  alwaysLoad?: boolean;
}

export interface StdioServerEntry extends CommonEntry {
  type: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Working directory of the server process (absolute; default: the session's project root). */
  cwd?: string;
}

export interface HttpServerEntry extends CommonEntry {
  /** `http` = Streamable HTTP; `sse` = the older HTTP+SSE transport. */
  type: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
}

/**
 * A server that lives in the host process (the Agent SDK's `createSdkMcpServer`): every JSON-RPC
 * message goes through `exchange`, which answers a request with the server's response and a
 * notification with anything (ignored). Never read from configuration files; a host adds it.
 */
export interface SdkServerEntry extends CommonEntry {
  type: 'sdk';
  exchange(message: unknown): Promise<unknown>;
}

export type McpServerEntry = StdioServerEntry | HttpServerEntry | SdkServerEntry;

/** One configured server, with its origin. */
export interface McpServerConfig {
  name: string;
  scope: McpConfigScope;
  /** File the entry was read from (`--mcp-config` JSON strings: `<inline>`). */
  file: string;
  entry: McpServerEntry;
}

/** A problem with the configuration: reported, never fatal to the session. */
export interface McpConfigProblem {
  severity: 'error' | 'warning';
  message: string;
  file?: string;
  /** The server the problem is about, when it is about one. */
  server?: string;
}
