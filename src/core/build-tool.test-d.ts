import { expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { buildTool } from './build-tool.js';
import type { ToolUseContext } from './context.js';

const input = z.object({ path: z.string() });

const tool = buildTool({
  name: 'T',
  description: 'd',
  inputSchema: input,
  isReadOnly: (_i: { path: string }) => true as const,
  maxResultSizeChars: Number.POSITIVE_INFINITY,
  async *call(i: { path: string }) {
    return { data: i.path.length };
  },
});

test('an override keeps its own type', () => {
  expectTypeOf(tool.isReadOnly).toEqualTypeOf<(_i: { path: string }) => true>();
});

test('a missing member gets the default type and is required', () => {
  expectTypeOf(tool.isConcurrencySafe).toEqualTypeOf<
    (_input?: unknown, _context?: ToolUseContext) => boolean
  >();
  expectTypeOf(tool.toAutoClassifierInput).returns.toEqualTypeOf<string>();
  expectTypeOf(tool.userFacingName).toBeFunction();
});

test('call output type flows from the definition', () => {
  type Ret = ReturnType<typeof tool.call> extends AsyncGenerator<unknown, infer R, unknown> ? R : never;
  expectTypeOf<Ret>().toEqualTypeOf<{ data: number }>();
});
