/**
 * Flags for parts of the agent that are not built yet, accepted so hosts that pass them keep
 * working (see docs/cli-print.md "Not yet connected"):
 *
 * - `--mcp-config <file|json>…` / `--strict-mcp-config`: each value is read and validated (a file
 *   or JSON that does not parse, or has no `mcpServers` object, is a usage error — a typo should
 *   not pass silently). The servers are not started: Gantry's MCP client is not part of this
 *   version. They are listed in `system/init.mcp_servers` and `mcp_status` with status `failed`
 *   and that reason, and a warning goes to stderr.
 * - `--agents <json>` (validated the same way) and `--agent <name>`: sub-agents are not available
 *   yet; a warning goes to stderr.
 * - `--permission-prompt-tool <mcp tool>`: needs the MCP client; asks are denied (as with no
 *   prompt tool) and a warning says so.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from './args.js';

export interface McpServerStatus {
  name: string;
  status: 'failed';
  error: string;
  source: 'dynamic' | 'sdk';
}

export interface PendingFeatures {
  mcpServers: McpServerStatus[];
  warnings: string[];
}

const NOT_CONNECTED = 'this Gantry version has no MCP client; the server was not started';

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function jsonOrFile(flag: string, value: string, cwd: string): unknown {
  const text = value.trimStart().startsWith('{')
    ? value
    : (() => {
        const file = path.resolve(cwd, value);
        try {
          return readFileSync(file, 'utf8');
        } catch (e) {
          throw new UsageError(
            `${flag}: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
          );
        }
      })();
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new UsageError(`${flag}: not valid JSON (${(e as Error).message})`);
  }
}

export function acceptPendingFeatures(
  o: { mcpConfig: readonly string[]; agents?: string; agent?: string; permissionPromptTool?: string },
  cwd: string,
): PendingFeatures {
  const mcpServers: McpServerStatus[] = [];
  const warnings: string[] = [];
  for (const value of o.mcpConfig) {
    const parsed = jsonOrFile('--mcp-config', value, cwd);
    if (!isObj(parsed) || !isObj(parsed.mcpServers))
      throw new UsageError('--mcp-config: expected {"mcpServers": {"<name>": {…}}}');
    for (const name of Object.keys(parsed.mcpServers))
      if (!mcpServers.some((s) => s.name === name))
        mcpServers.push({ name, status: 'failed', error: NOT_CONNECTED, source: 'dynamic' });
  }
  if (mcpServers.length)
    warnings.push(
      `MCP servers not started (no MCP client in this version): ${mcpServers.map((s) => s.name).join(', ')}`,
    );
  if (o.agents !== undefined) {
    const parsed = jsonOrFile('--agents', o.agents, cwd);
    if (!isObj(parsed))
      throw new UsageError('--agents: expected {"<name>": {"description": …, "prompt": …}}');
    warnings.push(
      `--agents ignored: sub-agents are not available in this version (${Object.keys(parsed).join(', ')})`,
    );
  }
  if (o.agent !== undefined)
    warnings.push(`--agent ${o.agent} ignored: sub-agents are not available in this version`);
  if (o.permissionPromptTool !== undefined && o.permissionPromptTool !== 'stdio')
    warnings.push(
      `--permission-prompt-tool ${o.permissionPromptTool}: MCP prompt tools need the MCP client; calls that would ask are denied`,
    );
  return { mcpServers, warnings };
}
