/**
 * Which tools are deferred behind tool search: sent to the model by name only until ToolSearch
 * loads them (docs/mcp-client.md "Deferred tools"). The checks run in this order:
 *
 * 1. `alwaysLoad` → never deferred (an MCP tool's `_meta["anthropic/alwaysLoad"]`, or a server
 *    entry's `alwaysLoad`);
 * 2. an MCP tool → deferred;
 * 3. ToolSearch itself → never deferred;
 * 4. the Agent tool when forked sub-agents are on → not deferred (it is needed on the first turn);
 * 5. otherwise the tool's own `shouldDefer` (NotebookEdit, TaskStop, WebFetch, WebSearch, the
 *    worktree tools and the other built-ins used in few sessions).
 */
import type { AnyTool } from '../../core/tool.js';

export const TOOL_SEARCH_TOOL_NAME = 'ToolSearch';
export const AGENT_TOOL_NAME = 'Agent';

export interface DeferralOptions {
  /** Forked sub-agents are enabled in this session. */
  forkSubagentEnabled?: boolean;
}

/** True when `tool` is deferred (see the module comment for the order of the checks). */
export function isDeferredTool(tool: AnyTool, options: DeferralOptions = {}): boolean {
  if (tool.alwaysLoad === true) return false;
  if (tool.isMcp === true) return true;
  if (tool.name === TOOL_SEARCH_TOOL_NAME) return false;
  if (tool.name === AGENT_TOOL_NAME && options.forkSubagentEnabled === true) return false;
  return tool.shouldDefer === true;
}
