/**
 * MCP tool annotations derived from a Gantry tool's flags (MCP spec "Tool annotations";
 *  `gantry mcp`). Annotations are hints for clients, never authority: the permission
 * engine stands in front of every call regardless of what they say.
 *
 * Flags that depend on the input (Bash is read-only for `ls`, not for `rm`) are evaluated on an
 * empty input; a tool whose predicate throws or needs a real input is treated as not read-only
 * (fail closed: the hint never understates what a tool can do).
 */
import type { AnyTool } from '../../core/index.js';
import { traitsFor } from '../../core/tool-traits.js';

export interface McpToolAnnotations {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

function flag(fn: () => boolean): boolean {
  try {
    return fn() === true;
  } catch {
    return false;
  }
}

/**
 * `readOnlyHint`: the tool is read-only for every input (probed with `{}`).
 * `destructiveHint`: any tool that is not read-only may overwrite or delete (MCP default is true).
 * `idempotentHint`: read-only tools only.
 * `openWorldHint`: the `openWorld` trait (shells, network tools, agents; core/tool-traits.ts), and
 *   every MCP-adapted tool.
 */
export function annotationsFor(tool: AnyTool): McpToolAnnotations {
  const readOnly = flag(() => tool.isReadOnly({}));
  return {
    title: flag(() => typeof tool.userFacingName(undefined) === 'string')
      ? tool.userFacingName(undefined)
      : tool.name,
    readOnlyHint: readOnly,
    destructiveHint: !readOnly,
    idempotentHint: readOnly,
    openWorldHint: traitsFor(tool.name).openWorld || tool.isMcp,
  };
}
