/**
 * Nested calls (docs/runtime.md "Nested calls"): `ToolUseContext.callTool(name, input)` runs one
 * call of another tool of the context's tool list on behalf of the running call, through the same
 * pipeline as a model's call (schema, validation, PreToolUse hooks and the permission decision, the
 * host's answer to an ask, result caps, PostToolUse). A skill's inline `!` commands use it.
 *
 * The nested call gets the id `<calling id>.<n>` and runs in the caller's admission slot (the caller
 * waits for it, so it is not admitted again). It never changes the caller's context (a context
 * modifier of the nested call is dropped). Nesting depth is capped.
 */
import { contentText, type NestedToolCallResult, type ToolUseContext } from '../core/index.js';
import { prepareCall } from './prepare-call.js';
import { type CallEnvironment, runToolCall } from './run-tool-call.js';

/** Nested calls may nest at most this deep (a nested call that itself nests, and so on). */
export const MAX_NESTED_CALL_DEPTH = 3;

/** Gives `context` a `callTool` that runs nested calls with `env`. Returns the same object. */
export function withNestedCalls(context: ToolUseContext, env: CallEnvironment, depth = 0): ToolUseContext {
  let counter = 0;
  context.callTool = async (name, input): Promise<NestedToolCallResult> => {
    const toolUseId = `${context.toolUseId ?? 'call'}.${++counter}`;
    if (depth >= MAX_NESTED_CALL_DEPTH)
      return {
        ok: false,
        denied: false,
        text: `Nested tool calls are limited to ${MAX_NESTED_CALL_DEPTH} levels.`,
        toolUseId,
      };
    // The nested call is checked on its own: it never inherits the outer call's permitted target.
    const { permittedCall: _outer, ...outer } = context;
    const nested: ToolUseContext = { ...outer, toolUseId };
    withNestedCalls(nested, env, depth + 1);
    const call = prepareCall(
      { type: 'tool_use', id: toolUseId, name, input },
      0,
      context.options.tools,
      nested,
    );
    const outcome = await runToolCall(call, nested, env);
    return {
      ok: outcome.status === 'ok' && !outcome.isError,
      denied: outcome.decision?.behavior === 'deny',
      text: contentText(outcome.content),
      ...(outcome.data !== undefined ? { data: outcome.data } : {}),
      toolUseId,
    };
  };
  return context;
}
