/**
 * Scheduling inputs (seed 000 §6.1; spec §1.5; design.md §5): each `tool_use` is looked up and
 * parsed once, which decides its concurrency safety (unknown tool, parse failure or a throwing
 * predicate ⇒ unsafe: fail closed); consecutive safe calls form one batch, an unsafe call a batch
 * of its own. Pure.
 */
import { type AnyTool, findToolByName, type ToolUseBlock } from '../core/index.js';
import type { PreparedCall } from './types.js';

/** Looks up and parses one `tool_use`. Never throws. */
export function prepareCall(toolUse: ToolUseBlock, index: number, tools: readonly AnyTool[]): PreparedCall {
  const tool = findToolByName(tools, toolUse.name);
  if (!tool) return { index, toolUse, tool: undefined, parsed: undefined, isConcurrencySafe: false };
  const result = tool.inputSchema.safeParse(toolUse.input);
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
    isConcurrencySafe = tool.isConcurrencySafe(data) === true;
  } catch {
    isConcurrencySafe = false;
  }
  return { index, toolUse, tool, parsed: { success: true, data }, isConcurrencySafe };
}

/** A run of calls executed together (safe) or one unsafe call alone. */
export interface Batch {
  isConcurrencySafe: boolean;
  calls: PreparedCall[];
}

/** Groups calls, in order: consecutive concurrency-safe calls share a batch; every unsafe call is alone. */
export function partitionToolCalls(calls: readonly PreparedCall[]): Batch[] {
  const batches: Batch[] = [];
  for (const call of calls) {
    const last = batches[batches.length - 1];
    if (call.isConcurrencySafe && last?.isConcurrencySafe) last.calls.push(call);
    else batches.push({ isConcurrencySafe: call.isConcurrencySafe, calls: [call] });
  }
  return batches;
}
