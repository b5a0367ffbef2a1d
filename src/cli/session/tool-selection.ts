/**
 * The built-in tools a session offers the model (Claude Code documentation, "CLI reference"):
 *
 * - `--tools` absent or `default`: every built-in tool;
 * - `--tools ""`: none;
 * - `--tools "Bash,Read"` (commas or spaces, repeatable): those, by name or alias; a name Gantry has
 *   no tool for is reported (not fatal: the SDK passes names it knows);
 * - then the runtime's tool pool (`assembleToolPool`): disabled tools and every tool named by a
 *   bare deny rule (`--disallowedTools Bash`, settings `deny`; aliases included) are removed, and
 *   the rest sorted by name, so the request's `tools` bytes do not depend on flag order.
 */
import type { AnyTool } from '../../core/tool.js';
import { splitToolList } from '../../permissions/index.js';
import { assembleToolPool, type ToolPool } from '../../runtime/index.js';

export interface ToolSelection {
  pool: ToolPool;
  /** Names in `--tools` no built-in tool answers to. */
  unknown: string[];
}

/** `--tools` values → names; undefined means the default set. */
export function requestedToolNames(values: readonly string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  const names = values.flatMap((v) => splitToolList(v));
  if (names.length === 1 && names[0]?.toLowerCase() === 'default') return undefined;
  return names;
}

export function selectTools(
  all: readonly AnyTool[],
  toolsFlag: readonly string[] | undefined,
  isDenied: (name: string) => unknown,
): ToolSelection {
  const wanted = requestedToolNames(toolsFlag);
  const unknown: string[] = [];
  let tools: readonly AnyTool[] = all;
  if (wanted !== undefined) {
    const keep = new Set<AnyTool>();
    for (const name of wanted) {
      const tool = all.find((t) => t.name === name || t.aliases.includes(name));
      if (tool) keep.add(tool);
      else if (name.toLowerCase() !== 'default') unknown.push(name);
    }
    tools = all.filter((t) => keep.has(t));
  }
  return { pool: assembleToolPool({ builtIn: tools, isDenied }), unknown };
}
