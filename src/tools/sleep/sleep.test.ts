/** The Sleep tool (feature SLEEP): waits, reports progress, honours abort, runs alongside other safe calls. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allowAllDecider } from '../../runtime/deciders.js';
import { createToolRuntime } from '../../runtime/create-tool-runtime.js';
import type { ToolRuntimeUpdate } from '../../runtime/types.js';
import { makeTempDir, toolUse } from '../../testing/runtime-fixtures.js';
import { SleepTool } from './sleep.tool.js';

let temp: { dir: string; cleanup(): Promise<void> };
beforeEach(async () => {
  temp = await makeTempDir();
});
afterEach(async () => {
  await temp.cleanup();
});

const runtime = () =>
  createToolRuntime({ tools: [SleepTool], cwd: temp.dir, sessionDir: temp.dir, decide: allowAllDecider });

describe('Sleep', () => {
  it('declares itself read-only and concurrency-safe', () => {
    expect(SleepTool.isReadOnly({ duration_ms: 1 })).toBe(true);
    expect(SleepTool.isConcurrencySafe({ duration_ms: 1 })).toBe(true);
  });

  it('waits, reports a start event, and says how long it slept', async () => {
    const updates: ToolRuntimeUpdate[] = [];
    const generator = runtime().runTools([toolUse('t1', 'Sleep', { duration_ms: 5 })]);
    for (let step = await generator.next(); !step.done; step = await generator.next())
      updates.push(step.value);
    expect(updates[0]).toEqual({
      type: 'progress',
      event: { toolUseId: 't1', toolName: 'Sleep', data: { type: 'sleep-started', durationMs: 5 } },
    });
    const result = updates.find((u) => u.type === 'result');
    expect(result?.type === 'result' && result.block.content).toMatch(/^Slept for \d+ ms\.$/);
  });

  it.each([
    [{ duration_ms: -1 }, '`duration_ms`', 'negative durations are rejected'],
    [{ duration_ms: 600_001 }, '`duration_ms`', 'more than ten minutes is rejected'],
    [{ duration_ms: 1.5 }, 'integer', 'fractions are rejected'],
    [{}, 'missing', 'the duration is required'],
  ])('rejects %j (mentions %s; %s)', async (input, phrase, _reason) => {
    const { results } = await runtime().runToolsToCompletion([toolUse('t1', 'Sleep', input)]);
    expect(results[0]?.is_error).toBe(true);
    expect(results[0]?.content).toContain(phrase);
  });

  it('stops at once when the turn is aborted', async () => {
    const controller = new AbortController();
    const r = runtime();
    const generator = r.runTools([toolUse('t1', 'Sleep', { duration_ms: 600_000 })], {
      signal: controller.signal,
    });
    const first = await generator.next();
    expect(first.value).toMatchObject({ type: 'progress' });
    controller.abort();
    const rest: ToolRuntimeUpdate[] = [];
    for (let step = await generator.next(); !step.done; step = await generator.next()) rest.push(step.value);
    const result = rest.find((u) => u.type === 'result');
    expect(result?.type === 'result' && result.block.content).toMatch(/^Interrupted/);
  });

  it('several sleeps run together: all start before any ends', async () => {
    const updates: ToolRuntimeUpdate[] = [];
    const generator = runtime().runTools(
      ['a', 'b', 'c'].map((id) => toolUse(id, 'Sleep', { duration_ms: 20 })),
    );
    for (let step = await generator.next(); !step.done; step = await generator.next())
      updates.push(step.value);
    expect(updates.slice(0, 3).map((u) => u.type)).toEqual(['progress', 'progress', 'progress']);
    expect(updates.slice(3, 6).map((u) => u.type)).toEqual([
      'tool-call-end',
      'tool-call-end',
      'tool-call-end',
    ]);
  });
});
