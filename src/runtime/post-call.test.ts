/**
 * What hosts get per call: the structured `data` (Claude Code's `toolUseResult`) in the result
 * update and the TurnResult, also for a failure that carried it; and the post-call hook seam
 * (PostToolUse / PostToolUseFailure): when it runs, what it sees, what it may add, and that a
 * failing hook never loses the result.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool, ToolExecutionError } from '../core/index.js';
import { type Deferred, deferred, waitUntil } from '../testing/deferred.js';
import { makeTempDir, makeTool, toolUse } from '../testing/runtime-fixtures.js';
import { createToolRuntime, type ToolRuntimeOptions } from './create-tool-runtime.js';
import { allowAllDecider } from './deciders.js';
import type { PostCallEvent } from './types.js';

let temp: { dir: string; cleanup(): Promise<void> };
beforeEach(async () => {
  temp = await makeTempDir();
});
afterEach(async () => {
  await temp.cleanup();
});

function runtime(options: Partial<ToolRuntimeOptions> & Pick<ToolRuntimeOptions, 'tools'>) {
  return createToolRuntime({
    cwd: temp.dir,
    sessionDir: temp.dir,
    decide: allowAllDecider,
    env: {},
    ...options,
  });
}

/** A tool whose output is structured, and whose failure carries its structured output too. */
class FailedWithOutput extends ToolExecutionError {
  constructor(readonly data: { exitCode: number }) {
    super(`Exit code ${data.exitCode}`);
  }
}
const Structured = buildTool({
  name: 'Structured',
  description: 'x',
  inputSchema: z.strictObject({ code: z.number().int() }),
  async *call(input: { code: number }) {
    if (input.code !== 0) throw new FailedWithOutput({ exitCode: input.code });
    return { data: { exitCode: 0, lines: ['a', 'b'] } };
  },
  mapToolResultToContent: (output: { lines: string[] }) => output.lines.join('\n'),
});

describe('structured data reaches the host', () => {
  it('in the result update and the TurnResult, per call, in call order; a failure’s carried output too', async () => {
    const r = runtime({ tools: [Structured] });
    const dataInUpdates: unknown[] = [];
    const run = r.runTools([
      toolUse('t1', 'Structured', { code: 0 }),
      toolUse('t2', 'Structured', { code: 2 }),
    ]);
    let step = await run.next();
    while (!step.done) {
      if (step.value.type === 'result') dataInUpdates.push([step.value.call.toolUseId, step.value.call.data]);
      step = await run.next();
    }
    expect(dataInUpdates).toEqual([
      ['t1', { exitCode: 0, lines: ['a', 'b'] }],
      ['t2', { exitCode: 2 }],
    ]);
    expect(step.value.calls.map((c) => [c.status, c.isError, c.data])).toEqual([
      ['ok', false, { exitCode: 0, lines: ['a', 'b'] }],
      ['error', true, { exitCode: 2 }],
    ]);
    expect(step.value.results.map((b) => b.content)).toEqual(['a\nb', 'Exit code 2']);
  });

  it('a call that failed before running has no data, but its input and decision when known', async () => {
    const r = runtime({ tools: [Structured] });
    const { calls } = await r.runToolsToCompletion([
      toolUse('t1', 'Structured', { code: 'x' }),
      toolUse('t2', 'Missing', {}),
    ]);
    expect(calls[0]).not.toHaveProperty('data');
    expect(calls[0]).not.toHaveProperty('input');
    expect(calls[1]).toMatchObject({ toolName: 'Missing', status: 'error' });
  });
});

describe('the post-call hook', () => {
  it('sees each started call after it ended: name, input, data or error text, decision, whether it ran', async () => {
    const events: PostCallEvent[] = [];
    const r = runtime({ tools: [Structured], postCall: (event) => void events.push(event) });
    await r.runToolsToCompletion([
      toolUse('t1', 'Structured', { code: 0 }),
      toolUse('t2', 'Structured', { code: 3 }),
      toolUse('t3', 'Structured', { code: 'bad' }),
    ]);
    expect(
      events.map((e) => ({
        id: e.toolUseId,
        status: e.status,
        ran: e.ran,
        input: e.input,
        data: e.data,
        content: e.content,
        decision: e.decision,
      })),
    ).toEqual([
      {
        id: 't1',
        status: 'ok',
        ran: true,
        input: { code: 0 },
        data: { exitCode: 0, lines: ['a', 'b'] },
        content: 'a\nb',
        decision: { behavior: 'allow', source: 'default' },
      },
      {
        id: 't2',
        status: 'error',
        ran: true,
        input: { code: 3 },
        data: { exitCode: 3 },
        content: 'Exit code 3',
        decision: { behavior: 'allow', source: 'default' },
      },
      {
        id: 't3',
        status: 'error',
        ran: false,
        input: undefined,
        data: undefined,
        content: expect.stringContaining('InputValidationError'),
        decision: undefined,
      },
    ]);
    expect(events[0]?.context.toolUseId).toBe('t1');
  });

  it('may add messages after the call’s result', async () => {
    const r = runtime({
      tools: [Structured],
      postCall: async (event) => ({ newMessages: [{ role: 'user', content: `checked ${event.toolUseId}` }] }),
    });
    const { calls, newMessages } = await r.runToolsToCompletion([toolUse('t1', 'Structured', { code: 0 })]);
    expect(calls[0]?.newMessages).toEqual([{ role: 'user', content: 'checked t1' }]);
    expect(newMessages).toEqual([{ role: 'user', content: 'checked t1' }]);
  });

  it('a hook that throws leaves the result as it was and is reported on the call', async () => {
    const r = runtime({
      tools: [Structured],
      postCall: () => {
        throw new Error('hook crashed');
      },
    });
    const { results, calls } = await r.runToolsToCompletion([toolUse('t1', 'Structured', { code: 0 })]);
    expect(results[0]).toEqual({ type: 'tool_result', tool_use_id: 't1', content: 'a\nb' });
    expect(calls[0]?.postCallError).toBe('hook crashed');
  });

  it('is awaited while the call holds its place: an unsafe call after it starts only when the hook is done', async () => {
    const hookGate: Deferred<void> = deferred();
    const started: string[] = [];
    const Unsafe = makeTool({
      name: 'Unsafe',
      run: (input) => {
        started.push(input.text);
        return { data: input.text };
      },
    });
    const r = runtime({
      tools: [Unsafe],
      postCall: async (event) => {
        if (event.toolUseId === 'a') await hookGate.promise;
      },
    });
    const turn = r.runToolsToCompletion([
      toolUse('a', 'Unsafe', { text: 'a' }),
      toolUse('b', 'Unsafe', { text: 'b' }),
    ]);
    await waitUntil(() => started.length === 1, 'a ran');
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a']);
    hookGate.resolve();
    await turn;
    expect(started).toEqual(['a', 'b']);
  });

  it('is told about an aborted call without being waited for, and not about calls that never started', async () => {
    const never: Deferred<void> = deferred();
    const events: string[] = [];
    const Hang = makeTool({ name: 'Hang', run: () => never.promise.then(() => ({ data: '' })) });
    const r = runtime({
      tools: [Hang],
      postCall: async (event) => {
        events.push(`${event.toolUseId}:${event.status}`);
        await never.promise;
      },
    });
    const controller = new AbortController();
    const turn = r.runToolsToCompletion(
      [toolUse('a', 'Hang', { text: '' }), toolUse('b', 'Hang', { text: '' })],
      {
        signal: controller.signal,
      },
    );
    await waitUntil(() => r.gate.running === 1, 'a runs');
    controller.abort();
    const { calls } = await turn;
    expect(calls.map((c) => c.status)).toEqual(['aborted', 'not-started']);
    expect(events).toEqual(['a:aborted']);
  });
});
