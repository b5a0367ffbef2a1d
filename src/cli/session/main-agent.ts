/**
 * `--agent <name>`: the main session runs as one agent definition (a custom agent from
 * `.claude/agents/`, `~/.claude/agents/`, `.gantry/agents/` or `--agents`, or a built-in type), as
 * Claude Code's `--agent` flag does (Claude Code documentation, "CLI reference" and "Subagents"):
 *
 * - prompt: the definition's body replaces Gantry's system prompt (`--system-prompt` still wins;
 *   `--append-system-prompt` is still appended; the security section always stays);
 * - tools: its `tools` list (in a main-thread agent, `Agent(type, …)` allows the Agent tool for
 *   those types only) and `disallowedTools` narrow the session's tools, MCP tools included;
 *   `--tools` and deny rules still apply on top;
 * - model: its `model` unless `--model` is given (`inherit`: the session's model);
 * - permission mode: its `permissionMode` unless `--permission-mode` (or
 *   `--dangerously-skip-permissions`) is given. It is read like a settings `defaultMode` from
 *   the file the definition came from: a project definition in an untrusted folder cannot widen
 *   the mode (acceptEdits, auto, bypassPermissions), and bypassPermissions is ignored when
 *   settings disable it. Either way a warning says what was ignored;
 * - `maxTurns`: its limit unless `--max-turns` is given;
 * - `mcpServers`: its inline servers join the session's (`mainAgentMcpConfig`).
 * Unlike a sub-agent, the main-thread agent is not filtered by the sub-agent denylists (it may
 * ask the person questions and switch to plan mode). An unknown name (or `fork`, which needs a
 * parent conversation) is a set-up error that lists the names there are.
 */
import type { PermissionMode } from '../../core/permission-types.js';
import type { AnyTool } from '../../core/tool.js';
import {
  type AgentDefinition,
  definitionKeepsTool,
  FORK_AGENT_TYPE,
  resolveAgentTools,
} from '../../agents/index.js';

export interface MainAgent {
  definition: AgentDefinition;
  /** The model to ask for (undefined: the session's own). */
  model?: string;
  /** The agent types the Agent tool keeps (undefined: all of them). */
  agentTypes?: string[];
  /** Narrows the built-in tools (order kept). */
  filterTools(tools: readonly AnyTool[]): AnyTool[];
  /** An MCP tool the definition's lists leave out (for the session pool's deny filter). */
  excludesMcpTool(name: string): boolean;
}

/** `Agent(a, b)` → `{name: 'Agent', types: ['a', 'b']}`; other entries unchanged. */
function splitAgentEntry(entry: string): { name: string; types?: string[] } {
  const m = /^(Agent|Task)\((.*)\)$/.exec(entry.trim());
  if (!m) return { name: entry };
  const types = m[2]!
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  return { name: 'Agent', ...(types.length ? { types } : {}) };
}

/**
 * The main-thread agent's inline `mcpServers` as one `--mcp-config` JSON text (they join the
 * session's servers, `dynamic` scope); names refer to servers the session has anyway. A project
 * definition's servers are used only in a trusted folder (a warning says when they are not).
 */
export function mainAgentMcpConfig(
  agent: MainAgent,
  trusted: boolean,
  warnings: string[],
): string | undefined {
  const inline: Record<string, unknown> = {};
  for (const spec of agent.definition.mcpServers ?? [])
    if (spec && typeof spec === 'object' && !Array.isArray(spec)) Object.assign(inline, spec);
  if (Object.keys(inline).length === 0) return undefined;
  const fromProject = agent.definition.source === 'project' || agent.definition.source === 'gantry';
  if (fromProject && !trusted) {
    warnings.push(
      `--agent: untrusted folder: ${agent.definition.filePath ?? agent.definition.agentType} mcpServers left out`,
    );
    return undefined;
  }
  return JSON.stringify({ mcpServers: inline });
}

/** Finds `name` among `agents` and reads what it asks for. Throws an Error naming the choices. */
export function resolveMainAgent(name: string, agents: readonly AgentDefinition[]): MainAgent {
  // A fork continues a parent's conversation: there is none for the main session.
  const choices = agents.filter((a) => a.agentType !== FORK_AGENT_TYPE);
  const definition = choices.find((a) => a.agentType === name);
  if (!definition)
    throw new Error(
      `--agent: no agent named "${name}" (available: ${choices.map((a) => a.agentType).join(', ')})`,
    );
  let agentTypes: string[] | undefined;
  const tools = definition.tools?.map((entry) => {
    const split = splitAgentEntry(entry);
    if (split.types) agentTypes = [...(agentTypes ?? []), ...split.types];
    return split.name;
  });
  const narrowed = { ...definition, ...(tools ? { tools } : {}) };
  // The servers it names or brings: their tools stay whatever its `tools:` list says (only
  // `disallowedTools` applies), as for a sub-agent's own servers.
  const own = (definition.mcpServers ?? [])
    .flatMap((s) => (typeof s === 'string' ? [s] : s && typeof s === 'object' ? Object.keys(s) : []))
    .map((n) => `mcp__${n.replace(/[^A-Za-z0-9_-]/g, '_')}__`);
  const denyOnly = { disallowedTools: definition.disallowedTools ?? [] };
  return {
    definition,
    ...(definition.model && definition.model !== 'inherit' ? { model: definition.model } : {}),
    ...(agentTypes ? { agentTypes } : {}),
    filterTools: (all) => resolveAgentTools(narrowed, all).tools,
    excludesMcpTool: (toolName) =>
      !definitionKeepsTool(own.some((p) => toolName.startsWith(p)) ? denyOnly : narrowed, toolName),
  };
}

const WIDENING: ReadonlySet<PermissionMode> = new Set(['acceptEdits', 'auto', 'bypassPermissions']);

/**
 * The mode the agent asks for, when it may have it (see the module comment); `warnings` gets a
 * line for a mode that was ignored.
 */
export function mainAgentMode(
  agent: MainAgent,
  facts: { trusted: boolean; bypassDisabled: boolean },
  warnings: string[],
): PermissionMode | undefined {
  const mode = agent.definition.permissionMode;
  if (!mode) return undefined;
  const where = agent.definition.filePath ?? agent.definition.agentType;
  const fromProject = agent.definition.source === 'project' || agent.definition.source === 'gantry';
  if (mode === 'bypassPermissions' && facts.bypassDisabled) {
    warnings.push(`--agent: ${where} asks for bypassPermissions, which settings disable; ignored`);
    return undefined;
  }
  if (fromProject && !facts.trusted && WIDENING.has(mode)) {
    warnings.push(`--agent: untrusted folder: ${where} permissionMode "${mode}" ignored`);
    return undefined;
  }
  return mode;
}
