/**
 * The journal rules of the two seams (durable-tools.ts, durable-model.ts), on in-memory journals
 * that keep the engine contract (engine.ts): a recorded step replays, a step cut off leaves no
 * record; the call journal keeps one claim and one record per call id. A "crash" is work that ran
 * but whose record was never written (`crashIn`): the run is abandoned, and a new execution
 * (another execution id) opens the same journal. The same rules run on DBOS with real processes
 * in the e2e tests.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool, type ToolUseContext } from '../core/index.js';
import { ToolError } from '../core/errors.js';
import { type ModelClient, ModelError, type ModelStreamEvent } from '../core/model-client.js';
import type { CallEntry, CallJournal, WorkflowContext } from './engine.js';
import { durableModelClient } from './durable-model.js';
import { durableTool, INTERRUPTED_TEXT } from './durable-tools.js';

class Crash extends Error {}

function memoryJournal() {
  const records = new Map<string, unknown>();
  const calls = new Map<string, CallEntry>();
  const writes: string[] = [];
  const crashIn = new Set<string>();
  const openCalls = async (executionId: string): Promise<CallJournal> => ({
    entries: new Map([...calls].map(([k, v]) => [k, { ...v }])),
    async claim(key) {
      writes.push(`claim:${key}`);
      if (calls.has(key)) return false;
      calls.set(key, { claimedBy: executionId });
      return true;
    },
    async record(key, value) {
      writes.push(`record:${key}`);
      if (crashIn.delete(key)) throw new Crash(`the worker died before recording ${key}`);
      const entry = calls.get(key) ?? {};
      if (entry.record !== undefined) throw new Error(`${key} is recorded already`);
      calls.set(key, { ...entry, record: JSON.parse(JSON.stringify(value)) });
    },
  });
  const ctx: WorkflowContext = {
    workflowId: 'wf-1',
    async step<T>(name: string, fn: () => Promise<T>): Promise<T> {
      if (records.has(name)) return records.get(name) as T;
      const value = await fn();
      if (crashIn.delete(name)) throw new Crash(`the worker died in ${name}`);
      records.set(name, value);
      return value;
    },
    recv: async () => null,
    setEvent: async () => undefined,
    isCancellation: () => false,
    openCalls,
  };
  return { ctx, records, calls, writes, crashIn, openCalls };
}

function context(toolUseId: string, abortController = new AbortController()): ToolUseContext {
  return { toolUseId, abortController } as unknown as ToolUseContext;
}

function countingTool(
  name: string,
  readOnly: boolean,
  behaviour: { fail?: string; abort?: AbortController },
) {
  let runs = 0;
  const tool = buildTool({
    name,
    description: 'test tool',
    inputSchema: z.strictObject({}),
    isReadOnly: () => readOnly,
    async *call() {
      runs++;
      if (behaviour.abort) {
        behaviour.abort.abort();
        throw new Error('aborted mid-run');
      }
      if (behaviour.fail) throw new ToolError(behaviour.fail);
      return { data: { run: runs } };
    },
  });
  return { tool, runs: () => runs };
}

async function callOnce(tool: ReturnType<typeof durableTool>, id: string, ctl?: AbortController) {
  const generator = tool.call({}, context(id, ctl));
  for (;;) {
    const step = await generator.next();
    if (step.done) return step.value;
  }
}

type Journal = ReturnType<typeof memoryJournal>;
const execution = async (j: Journal, id: string, extra: Record<string, unknown> = {}) => ({
  calls: await j.openCalls(id),
  ...extra,
});

describe('durable tool calls', () => {
  it.each([
    { why: 'a completed call with effects replays its record and does not run again', readOnly: false },
    { why: 'a completed read-only call replays its record too', readOnly: true },
  ])('$why', async ({ readOnly }) => {
    const j = memoryJournal();
    const t = countingTool('Probe', readOnly, {});
    const first = await callOnce(durableTool(t.tool, await execution(j, 'run-1')), 'toolu_1');
    const replayed = await callOnce(durableTool(t.tool, await execution(j, 'run-2')), 'toolu_1');
    expect(first.data).toEqual({ run: 1 });
    expect(replayed.data).toEqual({ run: 1 });
    expect(t.runs()).toBe(1);
  });

  it.each([
    {
      why: 'a call with effects costs two writes: its claim before it runs, its record after',
      readOnly: false,
      writes: ['claim:toolu_1', 'record:toolu_1'],
    },
    { why: 'a read-only call costs one write: its record', readOnly: true, writes: ['record:toolu_1'] },
  ])('$why', async ({ readOnly, writes }) => {
    const j = memoryJournal();
    const t = countingTool('Probe', readOnly, {});
    await callOnce(durableTool(t.tool, await execution(j, 'run-1')), 'toolu_1');
    await callOnce(durableTool(t.tool, await execution(j, 'run-2')), 'toolu_1');
    expect(j.writes).toEqual(writes);
  });

  it('a call with effects cut off mid-run is reported interrupted on the next execution, never re-run', async () => {
    const j = memoryJournal();
    const t = countingTool('Write', false, {});
    j.crashIn.add('toolu_w');
    const outcomes: string[] = [];
    await expect(
      callOnce(durableTool(t.tool, await execution(j, 'run-1')), 'toolu_w'),
    ).rejects.toBeInstanceOf(Crash);
    expect(j.calls.get('toolu_w')).toEqual({ claimedBy: 'run-1' });
    const wrapped = durableTool(
      t.tool,
      await execution(j, 'run-2', { onCall: (e: { outcome: string }) => outcomes.push(e.outcome) }),
    );
    const error = await callOnce(wrapped, 'toolu_w').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as Error).message).toBe(INTERRUPTED_TEXT);
    expect((error as Error).message).toMatch(/^interrupted: may have partly completed/);
    expect(t.runs()).toBe(1);
    // The interrupted outcome is itself recorded: a third execution says the same, still without running.
    const again = await callOnce(
      durableTool(
        t.tool,
        await execution(j, 'run-3', { onCall: (e: { outcome: string }) => outcomes.push(e.outcome) }),
      ),
      'toolu_w',
    ).catch((e: unknown) => e);
    expect((again as Error).message).toBe(INTERRUPTED_TEXT);
    expect(outcomes).toEqual(['interrupted', 'interrupted']);
    expect(t.runs()).toBe(1);
  });

  it('a call with effects whose claim another execution holds is not run (no effect twice)', async () => {
    const j = memoryJournal();
    const t = countingTool('Write', false, {});
    const late = await execution(j, 'run-2');
    // run-1 claims the call after run-2 opened its journal (run-2 cannot know yet).
    await (await j.openCalls('run-1')).claim('toolu_race');
    const error = await callOnce(durableTool(t.tool, late), 'toolu_race').catch((e: unknown) => e);
    expect((error as Error).message).toBe(INTERRUPTED_TEXT);
    expect(t.runs()).toBe(0);
  });

  it('a call aborted by the session records nothing, so it counts as cut off on the next execution', async () => {
    const j = memoryJournal();
    const ctl = new AbortController();
    const t = countingTool('Bash', false, { abort: ctl });
    await expect(callOnce(durableTool(t.tool, await execution(j, 'run-1')), 'toolu_a', ctl)).rejects.toThrow(
      'aborted mid-run',
    );
    expect(j.calls.get('toolu_a')).toEqual({ claimedBy: 'run-1' });
    const next = countingTool('Bash', false, {});
    const error = await callOnce(durableTool(next.tool, await execution(j, 'run-2')), 'toolu_a').catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe(INTERRUPTED_TEXT);
    expect(next.runs()).toBe(0);
  });

  it('a read-only call cut off mid-run is simply run again (it leaves no claim)', async () => {
    const j = memoryJournal();
    const t = countingTool('Read', true, {});
    j.crashIn.add('toolu_r');
    await expect(
      callOnce(durableTool(t.tool, await execution(j, 'run-1')), 'toolu_r'),
    ).rejects.toBeInstanceOf(Crash);
    expect(j.calls.has('toolu_r')).toBe(false);
    const out = await callOnce(durableTool(t.tool, await execution(j, 'run-2')), 'toolu_r');
    expect(out.data).toEqual({ run: 2 });
    expect([...j.calls.keys()]).toEqual(['toolu_r']);
  });

  it('a tool that cannot tell whether it is read-only counts as having effects (fail closed)', async () => {
    const j = memoryJournal();
    const t = countingTool('Unknown', false, {});
    const tool = Object.assign(Object.create(t.tool), {
      isReadOnly: () => {
        throw new Error('cannot tell');
      },
    });
    await callOnce(durableTool(tool, await execution(j, 'run-1')), 'toolu_u');
    expect(j.writes).toEqual(['claim:toolu_u', 'record:toolu_u']);
  });

  it.each([
    { why: 'a recorded call', id: 'toolu_done', skips: true },
    {
      why: 'a call cut off mid-run (claimed, no record): it must be reported interrupted, not refused',
      id: 'toolu_cut',
      skips: true,
    },
    { why: 'a call no execution has seen', id: 'toolu_new', skips: false },
  ])('validateInput is skipped for $why: $skips', async ({ id, skips }) => {
    const j = memoryJournal();
    const t = countingTool('Write', false, {});
    j.calls.set('toolu_done', { claimedBy: 'run-1', record: { data: { run: 1 } } });
    j.calls.set('toolu_cut', { claimedBy: 'run-1' });
    const strict = Object.assign(Object.create(t.tool), {
      validateInput: async () => ({ ok: false as const, message: 'File has not been read yet.' }),
    });
    const wrapped = durableTool(strict, await execution(j, 'run-2'));
    expect(await wrapped.validateInput({}, context(id))).toEqual(
      skips ? { ok: true } : { ok: false, message: 'File has not been read yet.' },
    );
  });

  it('an error is recorded and replayed as the same kind of error, without running again', async () => {
    const j = memoryJournal();
    const t = countingTool('Bash', false, { fail: 'exit 2: no such file' });
    for (const run of ['run-1', 'run-2']) {
      const e = await callOnce(durableTool(t.tool, await execution(j, run)), 'toolu_e').catch(
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(ToolError);
      expect((e as Error).message).toBe('exit 2: no such file');
    }
    expect(t.runs()).toBe(1);
  });

  it('every wrapped tool runs alone (asks are workflow steps, in model order); afterEffect runs before the record of a call with effects', async () => {
    const j = memoryJournal();
    const effects: string[] = [];
    const w = countingTool('Write', false, {});
    const r = countingTool('Read', true, {});
    const opts = await execution(j, 'run-1', {
      afterEffect: async (name: string) => void effects.push(`${name} after ${j.writes.join(',')}`),
    });
    expect(durableTool(r.tool, opts).isConcurrencySafe({})).toBe(false);
    await callOnce(durableTool(w.tool, opts), 'toolu_1');
    await callOnce(durableTool(r.tool, opts), 'toolu_2');
    expect(effects).toEqual(['Write after claim:toolu_1']);
    expect(durableTool(w.tool, opts).name).toBe('Write');
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
    const first = await collect(durableModelClient(inner.client, await j.openCalls('run-1')));
    const replay = await collect(durableModelClient(inner.client, await j.openCalls('run-2')));
    expect(inner.calls()).toBe(1);
    expect(first.map((e) => e.type)).toEqual(['message_start', 'content_block_stop', 'message_stop']);
    expect(replay).toEqual(first);
  });

  it('a model error after retries is recorded and rethrown as the same ModelError on replay', async () => {
    const j = memoryJournal();
    const inner = scriptedClient(() => new ModelError('overloaded', 'Overloaded', 529));
    for (let i = 0; i < 2; i++) {
      const e = await collect(durableModelClient(inner.client, await j.openCalls(`run-${i}`))).catch(
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(ModelError);
      expect(e).toMatchObject({ kind: 'overloaded', status: 529, message: 'Overloaded' });
    }
    expect(inner.calls()).toBe(1);
  });

  it('an aborted request records nothing, so the next execution sends it again', async () => {
    const j = memoryJournal();
    const inner = scriptedClient((n) =>
      n === 0 ? new ModelError('aborted', 'The request was aborted.') : response,
    );
    const e = await collect(durableModelClient(inner.client, await j.openCalls('run-1'))).catch(
      (x: unknown) => x,
    );
    expect(e).toMatchObject({ kind: 'aborted' });
    expect(j.calls.size).toBe(0);
    await collect(durableModelClient(inner.client, await j.openCalls('run-2')));
    expect(inner.calls()).toBe(2);
    expect([...j.calls.keys()]).toEqual(['model:0']);
  });

  it('turns are numbered in request order (model:0, model:1, …); beforeRequest runs only for requests really sent', async () => {
    const j = memoryJournal();
    let paced = 0;
    const inner = scriptedClient(() => response);
    const c = durableModelClient(inner.client, await j.openCalls('run-1'), {
      beforeRequest: async () => void paced++,
    });
    await collect(c);
    await collect(c);
    expect([...j.calls.keys()]).toEqual(['model:0', 'model:1']);
    expect(j.writes).toEqual(['record:model:0', 'record:model:1']);
    const resumed = durableModelClient(inner.client, await j.openCalls('run-2'), {
      beforeRequest: async () => void paced++,
    });
    await collect(resumed);
    expect(paced).toBe(2);
  });
});
