/**
 * `--permission-prompt-tool mcp__<server>__<tool>`: a call the permission engine would ask about
 * is put to that MCP tool instead of a person (Claude Code documentation, "CLI reference" and
 * "Headless mode"). The tool gets `{tool_name, input, tool_use_id}` and answers with one text
 * block holding JSON:
 *
 * - `{"behavior": "allow", "updatedInput"?: {...}}` runs the call (with the new input, which is
 *   validated again);
 * - `{"behavior": "deny", "message": "..."}` refuses it with that reason.
 *
 * Fails closed: a tool that is missing, fails, times out, or answers anything else denies the
 * call, and the reason says which.
 */
import { contentText } from '../../core/content.js';
import type { CanUseTool, PermissionResult } from '../../loop/types.js';
import type { McpClientManager } from '../../mcp/client/manager.js';

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads the tool's answer (see the module comment); undefined when it is not one. */
export function parsePromptToolAnswer(text: string): PermissionResult | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.trim());
  } catch {
    return undefined;
  }
  if (!isObj(parsed)) return undefined;
  if (parsed.behavior === 'allow') {
    if (parsed.updatedInput !== undefined && !isObj(parsed.updatedInput)) return undefined;
    return isObj(parsed.updatedInput)
      ? { behavior: 'allow', updatedInput: parsed.updatedInput }
      : { behavior: 'allow' };
  }
  if (parsed.behavior === 'deny')
    return {
      behavior: 'deny',
      message:
        typeof parsed.message === 'string' && parsed.message
          ? parsed.message
          : 'Denied by the permission prompt tool',
    };
  return undefined;
}

/** The `canUseTool` that asks `promptTool` (a model-visible MCP tool name) of `manager`. */
export function mcpPromptToolCanUseTool(manager: McpClientManager, promptTool: string): CanUseTool {
  return async (toolName, input, options) => {
    const deny = (why: string): PermissionResult => ({
      behavior: 'deny',
      message: `Permission prompt tool ${promptTool} ${why}; the call was not run.`,
    });
    const target = manager.resolveTool(promptTool);
    if (!target) return deny('is not available (no connected server has it)');
    try {
      const result = await target.connection.callTool(
        target.toolName,
        { tool_name: toolName, input, tool_use_id: options.toolUseID },
        { signal: options.signal },
      );
      if (result.isError) return deny(`failed: ${contentText(result.content as never).slice(0, 500)}`);
      const text = (result.content ?? [])
        .filter((b): b is { type: 'text'; text: string } => b.type === 'text')
        .map((b) => b.text)
        .join('');
      return (
        parsePromptToolAnswer(text) ??
        deny(`gave an answer that is not {"behavior": "allow" | "deny", …}: ${text.slice(0, 200)}`)
      );
    } catch (e) {
      return deny(`failed: ${(e as Error).message}`);
    }
  };
}
