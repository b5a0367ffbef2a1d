/**
 * The tool pool: the one place that decides which tools a session (or a sub-agent) has, in what
 * order, and which of them the model sees in full. Inputs are tool objects, since the rooms that
 * build some of them (the Agent tool in `agents/`, MCP tools in `mcp/`) sit above the runtime.
 *
 * Steps, in order:
 * 1. collect: built-in tools (with the Agent tool and the tool-search tool, when given), then MCP tools;
 * 2. `isEnabled()`: a tool that answers false or throws is left out (fail closed);
 * 3. the deny filter: a tool is left out when the injected `isDenied` predicate (the permission
 *    engine's bare-deny test: `Bash`, `mcp__server`, `mcp__server__*`, globs) holds for its name
 *    or for any of its aliases (a rule on `KillBash` removes `TaskStop`);
 * 4. order: built-ins sorted by name, then MCP tools sorted by name (code-unit order, as Claude
 *    Code sends them), so the request prefix is the same whatever order the inputs came in;
 * 5. callable vs rendered: every pooled tool may be called; when a tool-search tool is in the pool,
 *    deferred tools (`shouldDefer`, and every MCP tool, unless `alwaysLoad`) are sent by name only
 *    until they are discovered (`AppState.discoveredToolNames`), then in full with
 *    `defer_loading: true`. Without a tool-search tool nothing is deferred.
 *
 * Definitions come from the definition cache (tool-definitions.ts): the same tool objects give the
 * same frozen definitions, so the bytes of the `tools` array are stable across turns.
 *
 * Throws TypeError when two pooled tools share a name (the Messages API rejects such a request).
 */
import type { AnyTool, ModelToolDefinition } from '../core/index.js';
import { deferredToolDefinition, toolDefinition } from './tool-definitions.js';

export interface ToolPoolInputs {
  /** The leaf built-in tools (`getAllBaseTools()` from the registry). */
  builtIn: readonly AnyTool[];
  /** Tools adapted from MCP servers (`mcp__server__tool`). */
  mcp?: readonly AnyTool[];
  /** The Agent tool, when the session can start sub-agents. */
  agent?: AnyTool;
  /** The tool-search tool; its presence turns deferral on. */
  toolSearch?: AnyTool;
  /**
   * True (or any truthy value, e.g. the matching rule) when a bare deny rule removes the tool of
   * this name: the permission engine's `isToolDenied`. Absent: nothing is denied here.
   */
  isDenied?: (toolName: string) => unknown;
  /** Names of deferred tools already discovered in this context (`AppState.discoveredToolNames`). */
  discoveredToolNames?: readonly string[];
}

export interface ToolPool {
  /** Every tool the model may call (and the runtime will run), in pool order. */
  readonly callable: readonly AnyTool[];
  /** The tools whose full definitions the request carries, in pool order. */
  readonly rendered: readonly AnyTool[];
  /** Deferred tools not discovered yet: the request lists them by name only. */
  readonly deferred: readonly AnyTool[];
  /** Tools left out, with why (for `--debug` style reports). */
  readonly removed: readonly { name: string; reason: 'disabled' | 'denied' }[];
  /** The request's `tools` array: the rendered tools' cached definitions. */
  definitions(): ModelToolDefinition[];
  /** The pooled tool with this name or alias. */
  find(name: string): AnyTool | undefined;
}

function isEnabled(tool: AnyTool): boolean {
  try {
    return tool.isEnabled() === true;
  } catch {
    return false;
  }
}

function byName(a: AnyTool, b: AnyTool): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Assembles the pool (see the module comment for the steps). */
export function assembleToolPool(inputs: ToolPoolInputs): ToolPool {
  const removed: { name: string; reason: 'disabled' | 'denied' }[] = [];
  const denied = (tool: AnyTool): boolean => {
    const isDenied = inputs.isDenied;
    if (!isDenied) return false;
    if (isDenied(tool.name)) return true;
    return tool.aliases.some((alias) => Boolean(isDenied(alias)));
  };
  const keep = (tools: readonly AnyTool[]): AnyTool[] =>
    tools.filter((tool) => {
      if (!isEnabled(tool)) {
        removed.push({ name: tool.name, reason: 'disabled' });
        return false;
      }
      if (denied(tool)) {
        removed.push({ name: tool.name, reason: 'denied' });
        return false;
      }
      return true;
    });

  const builtIn = keep([
    ...inputs.builtIn,
    ...(inputs.agent ? [inputs.agent] : []),
    ...(inputs.toolSearch ? [inputs.toolSearch] : []),
  ]).sort(byName);
  const mcp = keep(inputs.mcp ?? []).sort(byName);
  const callable = [...builtIn, ...mcp];

  const names = new Map<string, AnyTool>();
  for (const tool of callable) {
    if (names.has(tool.name)) throw new TypeError(`assembleToolPool: two tools are named ${tool.name}`);
    names.set(tool.name, tool);
  }

  const searchable = inputs.toolSearch !== undefined && callable.includes(inputs.toolSearch);
  const discovered = new Set(inputs.discoveredToolNames ?? []);
  const isDeferred = (tool: AnyTool): boolean =>
    searchable && tool !== inputs.toolSearch && !tool.alwaysLoad && (tool.shouldDefer || tool.isMcp);
  const rendered: AnyTool[] = [];
  const deferred: AnyTool[] = [];
  const loaded = new Set<AnyTool>();
  for (const tool of callable) {
    if (!isDeferred(tool)) rendered.push(tool);
    else if (discovered.has(tool.name)) {
      rendered.push(tool);
      loaded.add(tool);
    } else deferred.push(tool);
  }

  return {
    callable,
    rendered,
    deferred,
    removed,
    definitions: () =>
      rendered.map((tool) => (loaded.has(tool) ? deferredToolDefinition(tool) : toolDefinition(tool))),
    find: (name) => names.get(name) ?? callable.find((tool) => tool.aliases.includes(name)),
  };
}
