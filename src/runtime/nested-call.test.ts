/**
 * Nested calls (`ToolUseContext.callTool`, docs/runtime.md "Nested calls"): the inner call is
 * validated, decided and described on its own; it never sees the outer call's permitted target
 * (`permittedCall`) before its own decision, and runs with its own description.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool, type CallDescription } from '../core/index.js';
import { makeTempDir, toolUse } from '../testing/runtime-fixtures.js';
import { createToolRuntime } from './create-tool-runtime.js';
import { allowAllDecider } from './deciders.js';

let temp: { dir: string; cleanup(): Promise<void> };
beforeEach(async () => {
  temp = await makeTempDir();
});
afterEach(async () => {
  await temp.cleanup();
});

const description = (target: string): CallDescription =>
  ({ summary: target, effects: [], target }) as unknown as CallDescription;

describe('nested calls', () => {
  it('the inner call never inherits the outer call’s permittedCall', async () => {
    const seen: { atValidate?: unknown; atCall?: unknown } = {};
    const Inner = buildTool({
      name: 'Inner',
      description: 'inner',
      inputSchema: z.strictObject({}),
      async describeCall() {
        return description('inner-target');
      },
      async validateInput(_input, context) {
        seen.atValidate = context.permittedCall;
        return { ok: true as const };
      },
      async *call(_input, context) {
        seen.atCall = context.permittedCall;
        return { data: 'inner done' };
      },
    });
    const Outer = buildTool({
      name: 'Outer',
      description: 'outer',
      inputSchema: z.strictObject({}),
      async describeCall() {
        return description('outer-target');
      },
      async *call(_input, context) {
        const r = await context.callTool?.('Inner', {});
        return { data: r?.text ?? 'no nested calls' };
      },
    });
    const runtime = createToolRuntime({
      tools: [Outer, Inner],
      cwd: temp.dir,
      sessionDir: `${temp.dir}/session`,
      decide: allowAllDecider,
    });
    const { results } = await runtime.runToolsToCompletion([toolUse('t1', 'Outer', {})]);
    expect(results[0]).toMatchObject({ tool_use_id: 't1', content: 'inner done' });
    expect(seen.atValidate).toBeUndefined();
    expect(seen.atCall).toMatchObject({ target: 'inner-target' });
  });
});
