/**
 * The deferred tools' names as the model first sees them: a section of the per-session context
 * block (the loop puts it in the session's context message), plus the note the loop adds when the
 * set changes during a session (a server connected late, `list_changed`). Wording is Gantry's own.
 * docs/mcp-client.md "Deferred tools".
 *
 * Built-in deferred tools come one name per line. MCP tools come one line per server,
 * `<server>: <tool> <tool> …`, with the rule that forms the full name (`mcp__<server>__<tool>`)
 * stated once: the line is the full names with their common `mcp__<server>__` prefix written once,
 * so every name stays exact (a normalised name has no spaces) at about half the bytes. ToolSearch's
 * `select:` takes the full name and, for convenience, `<server>__<tool>` or a tool name that only
 * one deferred tool has (scoring.ts).
 */
import { parseMcpToolName } from '../../core/mcp-names.js';

/** The section for `names` (in pool order); `''` when there are none. */
export function renderDeferredToolsSection(names: readonly string[]): string {
  if (!names.length) return '';
  const plain: string[] = [];
  const byServer = new Map<string, string[]>();
  for (const name of names) {
    const mcp = parseMcpToolName(name);
    // `mcp__` + server + `__` + tool is the name again, so the grouped line loses nothing.
    if (!mcp?.toolName || !mcp.serverName) {
      plain.push(name);
      continue;
    }
    let list = byServer.get(mcp.serverName);
    if (!list) byServer.set(mcp.serverName, (list = []));
    list.push(mcp.toolName);
  }
  const lines = [
    '# Deferred tools',
    'Available, but only by name: load a definition with ToolSearch (`select:<full name>` or keywords) before calling the tool; unloaded, its parameters are unknown and the call fails.',
    ...plain,
  ];
  if (byServer.size) {
    const [server, tools] = [...byServer][0] as [string, string[]];
    lines.push(
      `MCP tools, one line per server, "<server>: <tool> <tool> …". Full name: mcp__<server>__<tool> (e.g. mcp__${server}__${tools[0]}); select and call tools by it.`,
    );
    for (const [s, list] of byServer) lines.push(`${s}: ${list.join(' ')}`);
  }
  return lines.join('\n');
}

/** A note for tools that became available (or went away) since the section was sent; `''` when nothing changed. */
export function renderDeferredToolsDelta(added: readonly string[], removed: readonly string[] = []): string {
  const parts: string[] = [];
  if (added.length)
    parts.push(
      `New deferred tools are available (load them with ToolSearch before use):\n${added.join('\n')}`,
    );
  if (removed.length) parts.push(`These deferred tools are no longer available:\n${removed.join('\n')}`);
  return parts.join('\n\n');
}
