/**
 * Scheduling input: each `tool_use` is looked up and parsed once, which decides its concurrency
 * safety. Unknown tool, parse failure or a throwing predicate ⇒ unsafe (fail closed). The
 * predicate gets the context the turn runs in (a tool such as Bash analyses the command against
 * the session's working directory, never the process's). Pure apart from the predicate.
 */
import { type AnyTool, findToolByName, type ToolUseBlock, type ToolUseContext } from '../core/index.js';
import type { PreparedCall } from './types.js';

/** Looks up and parses one `tool_use`. Never throws. */
export function prepareCall(
  toolUse: ToolUseBlock,
  index: number,
  tools: readonly AnyTool[],
  context: ToolUseContext,
): PreparedCall {
  const tool = findToolByName(tools, toolUse.name);
  if (!tool) return { index, toolUse, tool: undefined, parsed: undefined, isConcurrencySafe: false };
  let result: ReturnType<AnyTool['inputSchema']['safeParse']>;
  try {
    result = tool.inputSchema.safeParse(toolUse.input);
  } catch (error) {
    // A schema that throws instead of reporting (a broken custom validator) rejects the input.
    return {
      index,
      toolUse,
      tool,
      parsed: { success: false, error: { issues: [{ path: [], message: String(error) }] } },
      isConcurrencySafe: false,
    };
  }
  if (!result.success) {
    return {
      index,
      toolUse,
      tool,
      parsed: { success: false, error: result.error },
      isConcurrencySafe: false,
    };
  }
  const data = result.data as Record<string, unknown>;
  let isConcurrencySafe = false;
  try {
    isConcurrencySafe = tool.isConcurrencySafe(data, context) === true;
  } catch {
    isConcurrencySafe = false;
  }
  return { index, toolUse, tool, parsed: { success: true, data }, isConcurrencySafe };
}
