/**
 * Test fixtures for the runtime: tool factories, tool_use blocks (temp dirs: tool-harness.ts).
 * Only tests and benches import this.
 */
import { z } from 'zod';
import { buildTool, type ToolResult, type ToolUseBlock, type ToolUseContext } from '../core/index.js';

/** A `tool_use` block. */
export function toolUse(id: string, name: string, input: unknown = {}): ToolUseBlock {
  return { type: 'tool_use', id, name, input };
}

export { makeTempDir } from './tool-harness.js';

const EchoInput = z.strictObject({ text: z.string(), repeat: z.number().int().min(1).optional() });

/**
 * A configurable test tool. `run(input, context)` is the body of `call` (may await deferreds);
 * `safe` = concurrency-safe; `progress` = events yielded before running.
 */
export function makeTool(options: {
  name: string;
  safe?: boolean | ((input: { text: string }) => boolean);
  maxResultSizeChars?: number;
  progress?: unknown[];
  run?: (
    input: { text: string; repeat?: number | undefined },
    context: ToolUseContext,
  ) => Promise<ToolResult<string>> | ToolResult<string>;
}) {
  const safe = options.safe;
  return buildTool({
    name: options.name,
    description: `Test tool ${options.name}.`,
    inputSchema: EchoInput,
    ...(options.maxResultSizeChars !== undefined ? { maxResultSizeChars: options.maxResultSizeChars } : {}),
    isConcurrencySafe: (input: { text: string }) =>
      typeof safe === 'function' ? safe(input) : safe === true,
    async *call(input: { text: string; repeat?: number | undefined }, context: ToolUseContext) {
      for (const p of options.progress ?? []) yield p;
      if (options.run) return await options.run(input, context);
      return { data: input.text.repeat(input.repeat ?? 1) };
    },
  });
}
