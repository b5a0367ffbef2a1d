/**
 * The streaming executor's start rule (the admission gate, docs/runtime.md §5): a call starts as soon as nothing runs, or it
 * and everything running are concurrency-safe (under the cap); an unsafe queued call blocks those
 * behind it; results come in call order after finish().
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolUseContext } from '../core/index.js';
import { type Deferred, deferred, flushAsync, waitUntil } from '../testing/deferred.js';
import { makeTempDir, makeTool, toolUse } from '../testing/runtime-fixtures.js';
import { createToolRuntime } from './create-tool-runtime.js';
import { allowAllDecider } from './deciders.js';
import type { ToolRuntimeUpdate } from './types.js';

let temp: { dir: string; cleanup(): Promise<void> };
beforeEach(async () => {
  temp = await makeTempDir();
});
afterEach(async () => {
  await temp.cleanup();
});

function setup(maxConcurrency?: number) {
  const gates = new Map<string, Deferred<string>>();
  const started: string[] = [];
  const gate = (id: string) => {
    let d = gates.get(id);
    if (!d) {
      d = deferred<string>();
      gates.set(id, d);
    }
    return d;
  };
  const body = async (input: { text: string }, context: ToolUseContext) => {
    const id = context.toolUseId as string;
    started.push(id);
    const value = await gate(id).promise;
    return {
      data: value,
      contextModifier: (ctx: ToolUseContext) => ({
        ...ctx,
        messages: [...ctx.messages, { role: 'user' as const, content: input.text }],
      }),
    };
  };
  const seen: Record<string, unknown[]> = {};
  const record = (input: { text: string }, context: ToolUseContext) => {
    seen[context.toolUseId as string] = context.messages.map((m) => m.content);
    return body(input, context);
  };
  const runtime = createToolRuntime({
    tools: [
      makeTool({ name: 'Safe', safe: true, run: record }),
      makeTool({ name: 'Unsafe', safe: false, run: record }),
    ],
    cwd: temp.dir,
    sessionDir: temp.dir,
    decide: allowAllDecider,
    env: {},
    ...(maxConcurrency ? { maxConcurrency } : {}),
  });
  return { runtime, gate, started, seen };
}

describe('StreamingToolExecutor', () => {
  it('starts a call as soon as it is added when nothing is running', async () => {
    const s = setup();
    const executor = s.runtime.createStreamingExecutor();
    executor.addTool(toolUse('u1', 'Unsafe', { text: 'u1' }));
    await waitUntil(() => s.started.length === 1, 'u1 started while the model still streams');
    expect(executor.runningToolUseIds).toEqual(['u1']);
    s.gate('u1').resolve('U1');
    executor.finish();
    const result = await executor.done();
    expect(result.results.map((r) => r.content)).toEqual(['U1']);
  });

  it('runs safe calls alongside running safe calls, but an unsafe call waits for all of them', async () => {
    const s = setup();
    const executor = s.runtime.createStreamingExecutor();
    executor.addTool(toolUse('s1', 'Safe', { text: 's1' }));
    executor.addTool(toolUse('s2', 'Safe', { text: 's2' }));
    await waitUntil(() => s.started.length === 2, 's1 and s2 running together');
    executor.addTool(toolUse('u', 'Unsafe', { text: 'u' }));
    executor.addTool(toolUse('s3', 'Safe', { text: 's3' }));
    for (let i = 0; i < 5; i++) await flushAsync();
    expect(s.started).toEqual(['s1', 's2']);
    expect(executor.runningToolUseIds).toEqual(['s1', 's2']);
    s.gate('s1').resolve('1');
    await waitUntil(() => executor.runningToolUseIds.length === 1, 's1 done');
    expect(s.started).toEqual(['s1', 's2']);
    s.gate('s2').resolve('2');
    await waitUntil(() => s.started.length === 3, 'u started once the safe calls ended');
    expect(executor.runningToolUseIds).toEqual(['u']);
    for (let i = 0; i < 5; i++) await flushAsync();
    expect(s.started).toEqual(['s1', 's2', 'u']);
    s.gate('u').resolve('U');
    await waitUntil(() => s.started.length === 4, 's3 started after u');
    s.gate('s3').resolve('3');
    executor.finish();
    const { results } = await executor.done();
    expect(results.map((r) => [r.tool_use_id, r.content])).toEqual([
      ['s1', '1'],
      ['s2', '2'],
      ['u', 'U'],
      ['s3', '3'],
    ]);
    expect(s.seen).toEqual({ s1: [], s2: [], u: ['s1', 's2'], s3: ['s1', 's2', 'u'] });
  });

  it('does not start a safe call while an unsafe call runs', async () => {
    const s = setup();
    const executor = s.runtime.createStreamingExecutor();
    executor.addTool(toolUse('u', 'Unsafe', { text: 'u' }));
    executor.addTool(toolUse('s', 'Safe', { text: 's' }));
    for (let i = 0; i < 5; i++) await flushAsync();
    expect(s.started).toEqual(['u']);
    s.gate('u').resolve('U');
    await waitUntil(() => s.started.length === 2, 's after u');
    s.gate('s').resolve('S');
    executor.finish();
    expect((await executor.done()).results.map((r) => r.content)).toEqual(['U', 'S']);
  });

  it('respects the concurrency cap', async () => {
    const s = setup(2);
    const executor = s.runtime.createStreamingExecutor();
    for (const id of ['a', 'b', 'c']) executor.addTool(toolUse(id, 'Safe', { text: id }));
    await waitUntil(() => s.started.length === 2, 'two started');
    for (let i = 0; i < 5; i++) await flushAsync();
    expect(s.started).toEqual(['a', 'b']);
    s.gate('b').resolve('B');
    await waitUntil(() => s.started.length === 3, 'c started when b ended');
    s.gate('a').resolve('A');
    s.gate('c').resolve('C');
    executor.finish();
    expect((await executor.done()).results.map((r) => r.content)).toEqual(['A', 'B', 'C']);
  });

  it('streams progress and call ends live, then results in call order; holds results until finish()', async () => {
    const s = setup();
    const executor = s.runtime.createStreamingExecutor();
    const updates: ToolRuntimeUpdate[] = [];
    const consumer = (async () => {
      const generator = executor.updates();
      for (let step = await generator.next(); !step.done; step = await generator.next())
        updates.push(step.value);
    })();
    executor.addTool(toolUse('a', 'Safe', { text: 'a' }));
    executor.addTool(toolUse('b', 'Safe', { text: 'b' }));
    await waitUntil(() => s.started.length === 2, 'both running');
    s.gate('b').resolve('B');
    s.gate('a').resolve('A');
    await waitUntil(() => updates.length === 2, 'both call ends delivered');
    expect(updates.map((u) => u.type)).toEqual(['tool-call-end', 'tool-call-end']);
    executor.finish();
    await consumer;
    expect(updates.slice(2).map((u) => (u.type === 'result' ? u.block.tool_use_id : u.type))).toEqual([
      'a',
      'b',
    ]);
  });

  it('abort: running calls are interrupted, queued and later-added calls are not run, one result each', async () => {
    const s = setup();
    const executor = s.runtime.createStreamingExecutor();
    executor.addTool(toolUse('u', 'Unsafe', { text: 'u' }));
    executor.addTool(toolUse('s', 'Safe', { text: 's' }));
    await waitUntil(() => s.started.length === 1, 'u running');
    executor.abort();
    executor.addTool(toolUse('late', 'Safe', { text: 'late' }));
    executor.finish();
    const { results } = await executor.done();
    expect(results.map((r) => [r.tool_use_id, (r.content as string).split(':')[0]])).toEqual([
      ['u', 'Interrupted'],
      ['s', 'Not run'],
      ['late', 'Not run'],
    ]);
    expect(s.started).toEqual(['u']);
  });

  it('refuses calls after finish() and frees the runtime when done', async () => {
    const s = setup();
    const executor = s.runtime.createStreamingExecutor();
    executor.finish();
    expect(() => executor.addTool(toolUse('x', 'Safe', { text: '' }))).toThrow('after finish()');
    expect((await executor.done()).results).toEqual([]);
    expect((await s.runtime.runToolsToCompletion([])).results).toEqual([]);
  });
});
