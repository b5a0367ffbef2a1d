/**
 * `filterToolsForAgent`: which of the parent's tools a sub-agent gets, in four steps:
 *
 * 1. MCP tools (`mcp__…`) pass (the agent's own `tools:` list may still leave them out);
 * 2. the global denylist, for every sub-agent: no AskUserQuestion (a child never takes the
 *    conversation from the person), no plan-mode switches, no TaskStop (a child does not stop
 *    tasks it did not start), no scheduling of the parent's wake-ups, and no Agent once the depth
 *    limit is reached (no unbounded recursion);
 * 3. a stricter list for custom agents (no worktree switches, no cron);
 * 4. background agents keep only an allowlist (tools that never need the person).
 *
 * Then the definition narrows: `tools:` (kept in its own order; `*` = all in the parent's order)
 * and `disallowedTools`. Names match tools by name or alias (`Task` → Agent).
 */
import type { AnyTool } from '../core/index.js';
import type { AgentDefinition } from './definitions.js';

/** Nesting depth at which a sub-agent no longer gets the Agent tool (the main session is depth 0). */
export const DEFAULT_MAX_AGENT_DEPTH = 3;

/** Tools no sub-agent gets. */
export const ALL_AGENT_DISALLOWED_TOOLS: ReadonlySet<string> = new Set([
  'AskUserQuestion',
  'EnterPlanMode',
  'ExitPlanMode',
  'TaskStop',
  'ScheduleWakeup',
  'Workflow',
]);

/** Tools custom agents do not get besides the global list. */
export const CUSTOM_AGENT_DISALLOWED_TOOLS: ReadonlySet<string> = new Set([
  ...ALL_AGENT_DISALLOWED_TOOLS,
  'EnterWorktree',
  'ExitWorktree',
  'CronCreate',
  'CronDelete',
]);

/** The only tools a background agent gets (MCP tools pass too). */
export const ASYNC_AGENT_ALLOWED_TOOLS: ReadonlySet<string> = new Set([
  'Agent',
  'Bash',
  'Edit',
  'MultiEdit',
  'Glob',
  'Grep',
  'NotebookEdit',
  'Read',
  'SendMessage',
  'Skill',
  'TaskOutput',
  'TodoWrite',
  'ToolSearch',
  'WebFetch',
  'WebSearch',
  'Write',
]);

export interface FilterToolsOptions {
  tools: readonly AnyTool[];
  /** Built-in agent type (else the custom list applies). */
  isBuiltIn: boolean;
  /** Runs in the background. */
  isAsync: boolean;
  /** Depth the sub-agent will run at (1 for a child of the main session). */
  depth: number;
  maxDepth?: number;
}

const isMcpName = (name: string): boolean => name.startsWith('mcp__');

/** Steps 1–4 of the module comment, keeping the parent's order. */
export function filterToolsForAgent(options: FilterToolsOptions): AnyTool[] {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_AGENT_DEPTH;
  return options.tools.filter((tool) => {
    if (isMcpName(tool.name)) return true;
    if (ALL_AGENT_DISALLOWED_TOOLS.has(tool.name)) return false;
    if (tool.name === 'Agent' && options.depth >= maxDepth) return false;
    if (!options.isBuiltIn && CUSTOM_AGENT_DISALLOWED_TOOLS.has(tool.name)) return false;
    if (options.isAsync && !ASYNC_AGENT_ALLOWED_TOOLS.has(tool.name)) return false;
    return true;
  });
}

const matches = (tool: Pick<AnyTool, 'name' | 'aliases'>, name: string): boolean =>
  tool.name === name || tool.aliases.includes(name);

/** A `tools:` entry names a tool, or a server's tools (`mcp__server`, `mcp__server__*`). */
function entryMatches(tool: Pick<AnyTool, 'name' | 'aliases'>, entry: string): boolean {
  if (matches(tool, entry)) return true;
  if (!isMcpName(entry)) return false;
  if (entry.endsWith('__*')) return tool.name.startsWith(entry.slice(0, -1));
  return entry.split('__').length === 2 && tool.name.startsWith(`${entry}__`);
}

/**
 * The tools of an agent: the filtered parent tools narrowed by the definition. A `tools:` list
 * keeps its own order; an entry the parent does not have is reported in `missing`.
 */
export function resolveAgentTools(
  definition: Pick<AgentDefinition, 'tools' | 'disallowedTools' | 'source'>,
  available: readonly AnyTool[],
): { tools: AnyTool[]; missing: string[] } {
  const missing: string[] = [];
  let tools: AnyTool[];
  const list = definition.tools;
  if (!list || list.includes('*')) tools = [...available];
  else {
    tools = [];
    for (const entry of list) {
      const found = available.filter((t) => entryMatches(t, entry) && !tools.includes(t));
      if (found.length === 0) missing.push(entry);
      tools.push(...found);
    }
  }
  const denied = definition.disallowedTools ?? [];
  if (denied.length) tools = tools.filter((t) => !denied.some((d) => entryMatches(t, d)));
  return { tools, missing };
}

/** Whether a definition's `tools` and `disallowedTools` keep a tool of this name (an MCP tool: no aliases). */
export function definitionKeepsTool(
  definition: Pick<AgentDefinition, 'tools' | 'disallowedTools'>,
  name: string,
): boolean {
  const tool = { name, aliases: [] as string[] };
  const list = definition.tools;
  if (list && !list.includes('*') && !list.some((e) => entryMatches(tool, e))) return false;
  return !(definition.disallowedTools ?? []).some((d) => entryMatches(tool, d));
}
