/**
 * MCP tool names: `mcp__<server>__<tool>` (Claude Code documentation, "MCP": tool naming). Parsed in
 * this one place for the permission rules, the hook and the tool pool.
 *
 * The server part runs up to the first `__` after the prefix; the tool part is the rest (it may itself
 * contain `__`). `mcp__<server>` alone names a whole server (a rule or a deny entry, not a tool).
 */

const PREFIX = 'mcp__';

/** The parts of an MCP tool name. */
export interface McpToolName {
  serverName: string;
  /** The server's own tool name; undefined for a bare `mcp__<server>` (no `__` after the server). */
  toolName?: string;
}

/** True for names in the MCP namespace (`mcp__…`): never a built-in or host tool. */
export function isMcpToolName(name: string): boolean {
  return name.startsWith(PREFIX);
}

/**
 * Splits `mcp__server__tool` / `mcp__server` (no `toolName`); undefined for names outside the MCP
 * namespace. Parts may be empty (`mcp__srv__` has tool name ''): callers decide what that means.
 */
export function parseMcpToolName(name: string): McpToolName | undefined {
  if (!isMcpToolName(name)) return undefined;
  const rest = name.slice(PREFIX.length);
  const sep = rest.indexOf('__');
  if (sep === -1) return { serverName: rest };
  return { serverName: rest.slice(0, sep), toolName: rest.slice(sep + 2) };
}

/** `mcp__<server>__<tool>`. */
export function mcpToolName(serverName: string, toolName: string): string {
  return `${PREFIX}${serverName}__${toolName}`;
}
