/**
 * Flags for parts of the agent that are not built yet, accepted so hosts that pass them keep
 * working (see docs/cli-print.md "Not yet connected"):
 *
 * - `--mcp-config <file|json>…`: each value is read and validated here (a file or JSON that does
 *   not parse, or has no `mcpServers` object, is a usage error — a typo should not pass
 *   silently). The servers themselves are started by the agent setup (the MCP client,
 *   docs/mcp-client.md), which fills `mcpServers` with their statuses for `system/init` and
 *   `mcp_status`.
 * - `--agents <json|file>` is read and checked to be an object here; its agents are loaded with
 *   the agent files (`agentsJson`). `--agent <name>` (a main-thread agent) is applied by the
 *   agent setup (session/main-agent.ts).
 * - `--permission-prompt-tool <mcp tool>` is served by permission-prompt-tool.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from './args.js';

export interface McpServerStatus {
  name: string;
  /** `connected`, `failed`, `pending`, `needs-approval`, `disabled`. */
  status: string;
  error?: string;
  /** Where it was configured (`dynamic` for `--mcp-config`, `project`, `user`, `local`, `sdk` …). */
  source: string;
}

export interface PendingFeatures {
  mcpServers: McpServerStatus[];
  warnings: string[];
  /** The `--agents` object as JSON text (sub-agent definitions for this session). */
  agentsJson?: string;
}

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
  let agentsJson: string | undefined;
  for (const value of o.mcpConfig) {
    const parsed = jsonOrFile('--mcp-config', value, cwd);
    if (!isObj(parsed) || !isObj(parsed.mcpServers))
      throw new UsageError('--mcp-config: expected {"mcpServers": {"<name>": {…}}}');
  }
  if (o.agents !== undefined) {
    const parsed = jsonOrFile('--agents', o.agents, cwd);
    if (!isObj(parsed))
      throw new UsageError('--agents: expected {"<name>": {"description": …, "prompt": …}}');
    agentsJson = JSON.stringify(parsed);
  }
  return { mcpServers, warnings, ...(agentsJson !== undefined ? { agentsJson } : {}) };
}
