/**
 * The journal rules of the two seams (durable-tools.ts, durable-model.ts), on an in-memory
 * journal that keeps the engine contract (a recorded step replays; a step cut off leaves no
 * record). A "crash" is a step whose work ran but whose record was never written (`crashIn`):
 * the run is abandoned, and a new execution (another execution id) replays the same journal. The
 * same rules run on DBOS with real processes in the e2e tests.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool, type ToolUseContext } from '../core/index.js';
import { ToolError } from '../core/errors.js';
import { type ModelClient, ModelError, type ModelStreamEvent } from '../core/model-client.js';
import type { WorkflowContext } from './engine.js';
import { durableModelClient } from './durable-model.js';
import { durableTool, INTERRUPTED_TEXT } from './durable-tools.js';

class Crash extends Error {}

function memoryJournal() {
  const records = new Map<string, unknown>();
  const started: string[] = [];
  const crashIn = new Set<string>();
  const ctx: WorkflowContext = {
    workflowId: 'wf-1',
    async step<T>(name: string, fn: () => Promise<T>): Promise<T> {
      if (records.has(name)) return records.get(name) as T;
      started.push(name);
      const value = await fn();
      if (crashIn.delete(name)) throw new Crash(`the worker died in ${name}`);
      records.set(name, value);
      return value;
    },
    recv: async () => null,
    setEvent: async () => undefined,
    isCancellation: () => false,
    recordedSteps: async () => new Set(records.keys()),
  };
  return { ctx, records, started, crashIn };
}

function context(toolUseId: string): ToolUseContext {
  return { toolUseId, abortController: new AbortController() } as unknown as ToolUseContext;
}

function countingTool(name: string, readOnly: boolean, behaviour: { fail?: string }) {
  let runs = 0;
  const tool = buildTool({
    name,
    description: 'test tool',
    inputSchema: z.strictObject({}),
    isReadOnly: () => readOnly,
    async *call() {
      runs++;
      if (behaviour.fail) throw new ToolError(behaviour.fail);
      return { data: { run: runs } };
    },
  });
  return { tool, runs: () => runs };
}

async function callOnce(tool: ReturnType<typeof durableTool>, id: string) {
  const generator = tool.call({}, context(id));
  for (;;) {
    const step = await generator.next();
    if (step.done) return step.value;
  }
}

describe('durable tool calls', () => {
  it.each([
    { why: 'a completed call with effects replays its record and does not run again', readOnly: false },
    { why: 'a completed read-only call replays its record too', readOnly: true },
  ])('$why', async ({ readOnly }) => {
    const j = memoryJournal();
    const t = countingTool('Probe', readOnly, {});
    const first = await callOnce(durableTool(t.tool, j.ctx, { executionId: 'run-1' }), 'toolu_1');
    const replayed = await callOnce(durableTool(t.tool, j.ctx, { executionId: 'run-2' }), 'toolu_1');
    expect(first.data).toEqual({ run: 1 });
    expect(replayed.data).toEqual({ run: 1 });
    expect(t.runs()).toBe(1);
  });

  it('a call with effects cut off mid-run is reported interrupted on the next execution, never re-run', async () => {
    const j = memoryJournal();
    const t = countingTool('Write', false, {});
    j.crashIn.add('tool:toolu_w');
    const outcomes: string[] = [];
    await expect(
      callOnce(durableTool(t.tool, j.ctx, { executionId: 'run-1' }), 'toolu_w'),
    ).rejects.toBeInstanceOf(Crash);
    expect(j.records.has('tool-start:toolu_w')).toBe(true);
    expect(j.records.has('tool:toolu_w')).toBe(false);
    const wrapped = durableTool(t.tool, j.ctx, {
      executionId: 'run-2',
      onCall: (e) => outcomes.push(e.outcome),
    });
    const error = await callOnce(wrapped, 'toolu_w').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as Error).message).toBe(INTERRUPTED_TEXT);
    expect((error as Error).message).toMatch(/^interrupted: may have partly completed/);
    expect(t.runs()).toBe(1);
    // The interrupted outcome is itself recorded: a third execution says the same, still without running.
    const again = await callOnce(
      durableTool(t.tool, j.ctx, { executionId: 'run-3', onCall: (e) => outcomes.push(e.outcome) }),
      'toolu_w',
    ).catch((e: unknown) => e);
    expect((again as Error).message).toBe(INTERRUPTED_TEXT);
    expect(outcomes).toEqual(['interrupted', 'interrupted']);
    expect(t.runs()).toBe(1);
  });

  it('a read-only call cut off mid-run is simply run again (no start mark is kept)', async () => {
    const j = memoryJournal();
    const t = countingTool('Read', true, {});
    j.crashIn.add('tool:toolu_r');
    await expect(
      callOnce(durableTool(t.tool, j.ctx, { executionId: 'run-1' }), 'toolu_r'),
    ).rejects.toBeInstanceOf(Crash);
    const out = await callOnce(durableTool(t.tool, j.ctx, { executionId: 'run-2' }), 'toolu_r');
    expect(out.data).toEqual({ run: 2 });
    expect([...j.records.keys()]).toEqual(['tool:toolu_r']);
  });

  it('a tool that cannot tell whether it is read-only counts as having effects (fail closed)', async () => {
    const j = memoryJournal();
    const t = countingTool('Unknown', false, {});
    const tool = Object.assign(Object.create(t.tool), {
      isReadOnly: () => {
        throw new Error('cannot tell');
      },
    });
    await callOnce(durableTool(tool, j.ctx, { executionId: 'run-1' }), 'toolu_u');
    expect(j.started).toEqual(['tool-start:toolu_u', 'tool:toolu_u']);
  });

  it('a recorded call skips validateInput (its own effect would fail the checks now); an unrecorded one does not', async () => {
    const j = memoryJournal();
    const t = countingTool('Write', false, {});
    const strict = Object.assign(Object.create(t.tool), {
      validateInput: async () => ({ ok: false as const, message: 'File has not been read yet.' }),
    });
    const wrapped = durableTool(strict, j.ctx, {
      executionId: 'run-2',
      recorded: new Set(['tool:toolu_done']),
    });
    expect(await wrapped.validateInput({}, context('toolu_done'))).toEqual({ ok: true });
    expect(await wrapped.validateInput({}, context('toolu_new'))).toEqual({
      ok: false,
      message: 'File has not been read yet.',
    });
  });

  it('an error is recorded and replayed as the same kind of error, without running again', async () => {
    const j = memoryJournal();
    const t = countingTool('Bash', false, { fail: 'exit 2: no such file' });
    for (const run of ['run-1', 'run-2']) {
      const e = await callOnce(durableTool(t.tool, j.ctx, { executionId: run }), 'toolu_e').catch(
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(ToolError);
      expect((e as Error).message).toBe('exit 2: no such file');
    }
    expect(t.runs()).toBe(1);
  });

  it('every wrapped tool runs alone (journal order = model order); afterEffect runs inside the step of a call with effects', async () => {
    const j = memoryJournal();
    const effects: string[] = [];
    const w = countingTool('Write', false, {});
    const r = countingTool('Read', true, {});
    const opts = { executionId: 'run-1', afterEffect: async (name: string) => void effects.push(name) };
    expect(durableTool(r.tool, j.ctx, opts).isConcurrencySafe({})).toBe(false);
    await callOnce(durableTool(w.tool, j.ctx, opts), 'toolu_1');
    await callOnce(durableTool(r.tool, j.ctx, opts), 'toolu_2');
    expect(effects).toEqual(['Write']);
    expect(durableTool(w.tool, j.ctx, opts).name).toBe('Write');
  });
});

describe('durable model turns', () => {
  const response: ModelStreamEvent[] = [
    { type: 'message_start', id: 'msg_1', model: 'm', usage: { input_tokens: 1, output_tokens: 0 } as never },
    { type: 'text_delta', index: 0, text: 'hel' },
    { type: 'content_block_stop', index: 0, block: { type: 'text', text: 'hello' } },
    {
      type: 'message_stop',
      id: 'msg_1',
      message: { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
      stopReason: 'end_turn',
      usage: { input_tokens: 1, output_tokens: 1 } as never,
    },
  ];
  function scriptedClient(script: (n: number) => ModelStreamEvent[] | ModelError) {
    let calls = 0;
    const client: ModelClient = {
      provider: 'anthropic',
      countTokens: async () => 1,
      async *stream() {
        const out = script(calls++);
        if (out instanceof ModelError) throw out;
        yield* out;
      },
    };
    return { client, calls: () => calls };
  }
  const collect = async (c: ModelClient) => {
    const events: ModelStreamEvent[] = [];
    for await (const e of c.stream({ model: 'm', system: [], messages: [], tools: [], maxTokens: 10 }))
      events.push(e);
    return events;
  };

  it('a resumed session replays a recorded response without sending the request again (deltas are not kept)', async () => {
    const j = memoryJournal();
    const inner = scriptedClient(() => response);
    const first = await collect(durableModelClient(inner.client, j.ctx));
    const replay = await collect(durableModelClient(inner.client, j.ctx));
    expect(inner.calls()).toBe(1);
    expect(first.map((e) => e.type)).toEqual(['message_start', 'content_block_stop', 'message_stop']);
    expect(replay).toEqual(first);
  });

  it('a model error after retries is recorded and rethrown as the same ModelError on replay', async () => {
    const j = memoryJournal();
    const inner = scriptedClient(() => new ModelError('overloaded', 'Overloaded', 529));
    for (let i = 0; i < 2; i++) {
      const e = await collect(durableModelClient(inner.client, j.ctx)).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ModelError);
      expect(e).toMatchObject({ kind: 'overloaded', status: 529, message: 'Overloaded' });
    }
    expect(inner.calls()).toBe(1);
  });

  it('turns are numbered in request order (model:0, model:1, …); beforeRequest runs only for requests really sent', async () => {
    const j = memoryJournal();
    let paced = 0;
    const inner = scriptedClient(() => response);
    const c = durableModelClient(inner.client, j.ctx, { beforeRequest: async () => void paced++ });
    await collect(c);
    await collect(c);
    expect([...j.records.keys()]).toEqual(['model:0', 'model:1']);
    const resumed = durableModelClient(inner.client, j.ctx, { beforeRequest: async () => void paced++ });
    await collect(resumed);
    expect(paced).toBe(2);
  });
});
