/**
 * Scheduling and ordering, proven with controlled promises: parallel safe calls, the concurrency
 * cap (and its env override), unsafe calls alone, results in call order, context-modifier order,
 * aborts, several turns at once.
 */
import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyTool, buildTool, type ToolUseContext } from '../core/index.js';
import { type Deferred, deferred, flushAsync, waitUntil } from '../testing/deferred.js';
import { makeTempDir, makeTool, toolUse } from '../testing/runtime-fixtures.js';
import { createToolRuntime, type ToolRuntimeOptions } from './create-tool-runtime.js';
import { allowAllDecider, askAllDecider } from './deciders.js';
import { prepareCall } from './prepare-call.js';
import type { CanUseTool } from './types.js';

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

/** Tools whose calls wait on a deferred per tool_use id, recording start/end order. */
function gatedTools() {
  const gates = new Map<string, Deferred<string>>();
  const started: string[] = [];
  const ended: string[] = [];
  const gate = (id: string) => {
    let d = gates.get(id);
    if (!d) {
      d = deferred<string>();
      gates.set(id, d);
    }
    return d;
  };
  const body = async (_input: { text: string }, context: ToolUseContext) => {
    const id = context.toolUseId as string;
    started.push(id);
    const value = await gate(id).promise;
    ended.push(id);
    return { data: value };
  };
  const Safe = makeTool({ name: 'Safe', safe: true, run: body });
  const Unsafe = makeTool({ name: 'Unsafe', safe: false, run: body });
  return { Safe, Unsafe, gate, started, ended };
}

describe('prepareCall (concurrency safety is decided once, failing closed)', () => {
  const Maybe = makeTool({ name: 'Maybe', safe: (input) => input.text === 'safe' });
  const Throws = buildTool({
    name: 'Throws',
    description: 'x',
    inputSchema: z.strictObject({}),
    isConcurrencySafe: () => {
      throw new Error('cannot tell');
    },
    async *call() {
      return { data: '' };
    },
  });
  const tools: AnyTool[] = [Maybe, Throws];
  it.each([
    ['Maybe', { text: 'safe' }, true, 'the predicate says safe'],
    ['Maybe', { text: 'write' }, false, 'the predicate says unsafe'],
    ['Missing', {}, false, 'an unknown tool is unsafe'],
    ['Maybe', { text: 1 }, false, 'an unparsable input is unsafe'],
    ['Throws', {}, false, 'a throwing isConcurrencySafe is unsafe'],
  ])('%s %j → safe %s (%s)', (name, input, expected, _reason) => {
    const context = runtime({ tools }).context;
    expect(prepareCall(toolUse('t0', name, input), 0, tools, context).isConcurrencySafe).toBe(expected);
  });

  it('the predicate gets the context the turn runs in', () => {
    const seen: unknown[] = [];
    const Probe = buildTool({
      name: 'Probe',
      description: 'x',
      inputSchema: z.strictObject({}),
      isConcurrencySafe: (_input: unknown, context?: ToolUseContext) => {
        seen.push(context?.getAppState().cwd);
        return true;
      },
      async *call() {
        return { data: '' };
      },
    });
    const context = runtime({ tools: [Probe] }).context;
    prepareCall(toolUse('t0', 'Probe', {}), 0, [Probe], context);
    expect(seen).toEqual([context.getAppState().cwd]);
  });
});

describe('parallel batches', () => {
  it('runs consecutive safe calls together and returns results in call order, not completion order', async () => {
    const g = gatedTools();
    const turn = runtime({ tools: [g.Safe] }).runToolsToCompletion(
      ['a', 'b', 'c'].map((id) => toolUse(id, 'Safe', { text: id })),
    );
    await waitUntil(() => g.started.length === 3, 'all three safe calls started');
    expect(g.ended).toEqual([]);
    g.gate('c').resolve('C');
    g.gate('b').resolve('B');
    g.gate('a').resolve('A');
    const { results } = await turn;
    expect(g.ended).toEqual(['c', 'b', 'a']);
    expect(results.map((r) => [r.tool_use_id, r.content])).toEqual([
      ['a', 'A'],
      ['b', 'B'],
      ['c', 'C'],
    ]);
  });

  it('runs an unsafe call alone: it waits for the batch before it, and the batch after it waits for it', async () => {
    const g = gatedTools();
    const turn = runtime({ tools: [g.Safe, g.Unsafe] }).runToolsToCompletion([
      toolUse('s1', 'Safe', { text: '' }),
      toolUse('s2', 'Safe', { text: '' }),
      toolUse('u', 'Unsafe', { text: '' }),
      toolUse('s3', 'Safe', { text: '' }),
    ]);
    await waitUntil(() => g.started.length === 2, 's1 and s2 started');
    g.gate('s1').resolve('1');
    await waitUntil(() => g.ended.length === 1, 's1 ended');
    await flushAsync();
    expect(g.started).toEqual(['s1', 's2']);
    g.gate('s2').resolve('2');
    await waitUntil(() => g.started.length === 3, 'u started');
    await flushAsync();
    expect(g.started).toEqual(['s1', 's2', 'u']);
    g.gate('u').resolve('U');
    await waitUntil(() => g.started.length === 4, 's3 started');
    g.gate('s3').resolve('3');
    const { results } = await turn;
    expect(results.map((r) => r.content)).toEqual(['1', '2', 'U', '3']);
  });

  it.each([
    [undefined, {}, 10, 'the default cap is 10'],
    [undefined, { GANTRY_MAX_TOOL_USE_CONCURRENCY: '3' }, 3, 'the env variable overrides the default'],
    [2, { GANTRY_MAX_TOOL_USE_CONCURRENCY: '3' }, 2, 'an explicit option wins over the env'],
    [undefined, { GANTRY_MAX_TOOL_USE_CONCURRENCY: 'lots' }, 10, 'an unusable env value falls back to 10'],
  ])(
    'maxConcurrency %s with env %j runs at most %i at once (%s)',
    async (maxConcurrency, env, cap, _reason) => {
      const g = gatedTools();
      const ids = Array.from({ length: cap + 2 }, (_, i) => `t${i}`);
      const r = runtime({ tools: [g.Safe], env, ...(maxConcurrency ? { maxConcurrency } : {}) });
      expect(r.maxConcurrency).toBe(cap);
      const turn = r.runToolsToCompletion(ids.map((id) => toolUse(id, 'Safe', { text: '' })));
      await waitUntil(() => g.started.length === cap, `${cap} started`);
      for (let i = 0; i < 5; i++) await flushAsync();
      expect(g.started).toEqual(ids.slice(0, cap));
      g.gate('t1').resolve('x');
      await waitUntil(() => g.started.length === cap + 1, 'one more started after one ended');
      expect(g.started[cap]).toBe(`t${cap}`);
      for (const id of ids) g.gate(id).resolve(id);
      const { results } = await turn;
      expect(results.map((r) => r.tool_use_id)).toEqual(ids);
    },
  );

  it('reads GANTRY_MAX_TOOL_USE_CONCURRENCY from process.env by default', () => {
    const before = process.env.GANTRY_MAX_TOOL_USE_CONCURRENCY;
    process.env.GANTRY_MAX_TOOL_USE_CONCURRENCY = '4';
    try {
      expect(createToolRuntime({ tools: [], cwd: temp.dir }).maxConcurrency).toBe(4);
    } finally {
      if (before === undefined) delete process.env.GANTRY_MAX_TOOL_USE_CONCURRENCY;
      else process.env.GANTRY_MAX_TOOL_USE_CONCURRENCY = before;
    }
  });
});

describe('context modifiers', () => {
  /** A tool that records the `messages` it saw and appends its name to them via a modifier. */
  function markingTool(
    name: string,
    safe: boolean,
    gates: Map<string, Deferred<void>>,
    seen: Record<string, unknown[]>,
  ) {
    return makeTool({
      name,
      safe,
      run: async (input, context) => {
        seen[input.text] = context.messages.map((m) => m.content);
        await gates.get(input.text)?.promise;
        return {
          data: input.text,
          contextModifier: (ctx: ToolUseContext) => ({
            ...ctx,
            messages: [...ctx.messages, { role: 'user' as const, content: input.text }],
          }),
        };
      },
    });
  }

  it('applies a parallel batch’s modifiers after the batch, in call order; a serial call’s before the next call', async () => {
    const gates = new Map([
      ['p1', deferred()],
      ['p2', deferred()],
    ]);
    const seen: Record<string, unknown[]> = {};
    const r = runtime({
      tools: [markingTool('Par', true, gates, seen), markingTool('Ser', false, gates, seen)],
    });
    const turn = r.runToolsToCompletion([
      toolUse('1', 'Ser', { text: 's1' }),
      toolUse('2', 'Par', { text: 'p1' }),
      toolUse('3', 'Par', { text: 'p2' }),
      toolUse('4', 'Ser', { text: 's2' }),
      toolUse('5', 'Ser', { text: 's3' }),
    ]);
    await waitUntil(() => seen.p2 !== undefined, 'p2 started');
    gates.get('p2')?.resolve();
    await flushAsync();
    gates.get('p1')?.resolve();
    await turn;
    expect(seen).toEqual({
      s1: [],
      p1: ['s1'],
      p2: ['s1'],
      s2: ['s1', 'p1', 'p2'],
      s3: ['s1', 'p1', 'p2', 's2'],
    });
    expect(r.context.messages.map((m) => m.content)).toEqual(['s1', 'p1', 'p2', 's2', 's3']);
  });

  it('a modifier that throws leaves the context unchanged and turns that result into an error', async () => {
    const Bad = makeTool({
      name: 'Bad',
      run: () => ({
        data: 'ok',
        contextModifier: () => {
          throw new Error('bad modifier');
        },
      }),
    });
    const r = runtime({ tools: [Bad] });
    const before = r.context.options;
    const { results } = await r.runToolsToCompletion([toolUse('t1', 'Bad', { text: '' })]);
    expect(results[0]?.is_error).toBe(true);
    expect(results[0]?.content).toContain('bad modifier');
    expect(r.context.options).toBe(before);
  });
});

describe('abort', () => {
  it('gives exactly one result per call: running calls "interrupted", queued calls "not run"', async () => {
    const g = gatedTools();
    const ignoresAbort = makeTool({
      name: 'Stubborn',
      safe: true,
      run: async (_input, context) => {
        g.started.push(context.toolUseId as string);
        return { data: await g.gate('stubborn').promise };
      },
    });
    const controller = new AbortController();
    const r = runtime({ tools: [g.Safe, g.Unsafe, ignoresAbort], maxConcurrency: 2 });
    const turn = r.runToolsToCompletion(
      [
        toolUse('a', 'Safe', { text: '' }),
        toolUse('b', 'Stubborn', { text: '' }),
        toolUse('c', 'Safe', { text: '' }),
        toolUse('d', 'Unsafe', { text: '' }),
      ],
      { signal: controller.signal },
    );
    await waitUntil(() => g.started.length === 2, 'a and b started');
    controller.abort();
    const { results } = await turn;
    g.gate('stubborn').resolve('late');
    g.gate('a').resolve('late');
    await flushAsync();
    expect(results.map((r) => r.tool_use_id)).toEqual(['a', 'b', 'c', 'd']);
    expect(results.every((r) => r.is_error === true)).toBe(true);
    expect(results[0]?.content).toMatch(/^Interrupted: the turn was aborted while Safe was running/);
    expect(results[1]?.content).toMatch(/^Interrupted: the turn was aborted while Stubborn was running/);
    expect(results[2]?.content).toBe(
      'Not run: the turn was aborted before this Safe call started. Nothing was executed.',
    );
    expect(results[3]?.content).toBe(
      'Not run: the turn was aborted before this Unsafe call started. Nothing was executed.',
    );
    expect(g.started).toEqual(['a', 'b']);
  });

  it('tools see the abort on context.abortController.signal', async () => {
    const observed: boolean[] = [];
    const Waits = makeTool({
      name: 'Waits',
      run: (_input, context) =>
        new Promise((_resolve, reject) => {
          context.abortController.signal.addEventListener('abort', () => {
            observed.push(true);
            reject(new Error('stopped'));
          });
        }),
    });
    const controller = new AbortController();
    const turn = runtime({ tools: [Waits] }).runToolsToCompletion([toolUse('t1', 'Waits', { text: '' })], {
      signal: controller.signal,
    });
    await flushAsync();
    controller.abort();
    const { results } = await turn;
    expect(observed).toEqual([true]);
    expect(results[0]?.content).toMatch(/^Interrupted/);
  });

  it('an abort while the host is being asked ends the call without running it', async () => {
    const asked = deferred();
    let ran = false;
    const Tool = makeTool({
      name: 'Echo',
      run: () => {
        ran = true;
        return { data: 'x' };
      },
    });
    const canUseTool: CanUseTool = async () => {
      asked.resolve();
      return new Promise(() => undefined);
    };
    const controller = new AbortController();
    const turn = runtime({ tools: [Tool], decide: askAllDecider, canUseTool }).runToolsToCompletion(
      [toolUse('t1', 'Echo', { text: '' })],
      { signal: controller.signal },
    );
    await asked.promise;
    controller.abort();
    const { results } = await turn;
    expect(results[0]?.content).toMatch(/being checked .*Nothing was executed\.$/);
    expect(ran).toBe(false);
  });

  it('a signal aborted before the turn: every call "not run"', async () => {
    const controller = new AbortController();
    controller.abort();
    const g = gatedTools();
    const { results } = await runtime({ tools: [g.Safe] }).runToolsToCompletion(
      [toolUse('a', 'Safe', { text: '' }), toolUse('b', 'Safe', { text: '' })],
      { signal: controller.signal },
    );
    expect(results.map((r) => r.content)).toEqual([
      'Not run: the turn was aborted before this Safe call started. Nothing was executed.',
      'Not run: the turn was aborted before this Safe call started. Nothing was executed.',
    ]);
    expect(g.started).toEqual([]);
  });

  it('leaving the update loop early aborts the turn and frees the runtime for the next one', async () => {
    const aborted = deferred<boolean>();
    const Tool = makeTool({
      name: 'Long',
      progress: [{ tick: 1 }],
      run: (_input, context) =>
        new Promise((resolve) => {
          context.abortController.signal.addEventListener('abort', () => {
            aborted.resolve(true);
            resolve({ data: 'stopped' });
          });
        }),
    });
    const r = runtime({ tools: [Tool] });
    for await (const update of r.runTools([toolUse('t1', 'Long', { text: '' })])) {
      expect(update.type).toBe('progress');
      break;
    }
    expect(await aborted.promise).toBe(true);
    const { results } = await r.runToolsToCompletion([]);
    expect(results).toEqual([]);
  });
});

describe('turns', () => {
  it('runs a second turn while one is running: both go through the session gate', async () => {
    const g = gatedTools();
    const r = runtime({ tools: [g.Safe] });
    const first = r.runToolsToCompletion([toolUse('a', 'Safe', { text: '' })]);
    await waitUntil(() => g.started.length === 1, 'first turn running');
    const second = r.runToolsToCompletion([toolUse('b', 'Safe', { text: '' })]);
    await waitUntil(() => g.started.length === 2, 'the second turn’s safe call runs alongside');
    g.gate('b').resolve('B');
    expect((await second).results[0]?.content).toBe('B');
    g.gate('a').resolve('A');
    expect((await first).results[0]?.content).toBe('A');
  });

  it('an unsafe call of one turn waits for the other turn’s running call, and blocks what queued after it', async () => {
    const g = gatedTools();
    const r = runtime({ tools: [g.Safe, g.Unsafe] });
    const first = r.runToolsToCompletion([toolUse('s1', 'Safe', { text: '' })]);
    await waitUntil(() => g.started.length === 1, 's1 running');
    const second = r.runToolsToCompletion([toolUse('u', 'Unsafe', { text: '' })]);
    const third = r.runToolsToCompletion([toolUse('s2', 'Safe', { text: '' })]);
    for (let i = 0; i < 5; i++) await flushAsync();
    expect(g.started).toEqual(['s1']);
    g.gate('s1').resolve('1');
    await waitUntil(() => g.started.length === 2, 'u started');
    await flushAsync();
    expect(g.started).toEqual(['s1', 'u']);
    g.gate('u').resolve('U');
    await waitUntil(() => g.started.length === 3, 's2 started after u');
    g.gate('s2').resolve('2');
    expect([
      (await first).results[0]?.content,
      (await second).results[0]?.content,
      (await third).results[0]?.content,
    ]).toEqual(['1', 'U', '2']);
  });

  it('a turn cancelled while its call waits in the gate never runs it; the other turns go on', async () => {
    const g = gatedTools();
    const r = runtime({ tools: [g.Safe, g.Unsafe] });
    const blocker = r.runToolsToCompletion([toolUse('u', 'Unsafe', { text: '' })]);
    await waitUntil(() => g.started.length === 1, 'u running');
    const dropped = new AbortController();
    const droppedTurn = r.runToolsToCompletion([toolUse('dropped', 'Safe', { text: '' })], {
      signal: dropped.signal,
    });
    const kept = r.runToolsToCompletion([toolUse('kept', 'Safe', { text: '' })]);
    dropped.abort();
    expect((await droppedTurn).results[0]?.content).toMatch(/^Not run/);
    g.gate('u').resolve('U');
    await waitUntil(() => g.started.length === 2, 'kept started');
    g.gate('kept').resolve('K');
    expect((await kept).results[0]?.content).toBe('K');
    expect((await blocker).results[0]?.content).toBe('U');
    expect(g.started).toEqual(['u', 'kept']);
  });

  it('a FatalError ends its own turn only; the next turn runs', async () => {
    const { FatalError } = await import('../core/index.js');
    let fail = true;
    const Flaky = makeTool({
      name: 'Flaky',
      run: () => {
        if (fail) {
          fail = false;
          throw new FatalError('fatal in turn');
        }
        return { data: 'ok' };
      },
    });
    const r = runtime({ tools: [Flaky] });
    await expect(r.runToolsToCompletion([toolUse('a', 'Flaky', { text: '' })])).rejects.toThrow(
      'fatal in turn',
    );
    expect((await r.runToolsToCompletion([toolUse('b', 'Flaky', { text: '' })])).results[0]?.content).toBe(
      'ok',
    );
    expect([r.gate.running, r.gate.waiting]).toEqual([0, 0]);
  });
});

describe('many turns at once', () => {
  it('twenty concurrent turns on one runtime run without a listener-leak warning and leave no listener behind', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const g = gatedTools();
      const r = runtime({ tools: [g.Safe], maxConcurrency: 20 });
      const before = getEventListeners(r.context.abortController.signal, 'abort').length;
      const ids = Array.from({ length: 20 }, (_, i) => `c${i}`);
      const turns = ids.map((id) => r.runToolsToCompletion([toolUse(id, 'Safe', { text: '' })]));
      await waitUntil(() => g.started.length === 20, 'all twenty running');
      for (const id of ids) g.gate(id).resolve(id);
      expect((await Promise.all(turns)).map((t) => t.results[0]?.content)).toEqual(ids);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
      expect(getEventListeners(r.context.abortController.signal, 'abort').length).toBe(before);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
