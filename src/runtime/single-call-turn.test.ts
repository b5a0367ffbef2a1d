/**
 * The lean one-call turn (`runToolsToCompletion` with one `tool_use`) against the general path
 * (the same call through `runTools`, which goes through the streaming executor): the same results,
 * call records, post-call events, context changes, budget spills, errors, aborts, and the same
 * admission rule with other turns of the session. Plus `callOwnsAbortSignal`, which only a
 * one-call turn's own call may see true.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  buildTool,
  type PermissionDecider,
  ToolExecutionError,
  type ToolUseBlock,
  type ToolUseContext,
} from '../core/index.js';
import { makeTempDir, makeTool, toolUse } from '../testing/runtime-fixtures.js';
import { createToolRuntime, type ToolRuntime, type ToolRuntimeOptions } from './create-tool-runtime.js';
import { allowAllDecider, askAllDecider } from './deciders.js';
import { callOwnsAbortSignal, requestSignalOf } from './turn-controller.js';
import type { PostCallEvent, TurnResult } from './types.js';

let temp: { dir: string; cleanup(): Promise<void> };
beforeEach(async () => {
  temp = await makeTempDir();
});
afterEach(async () => {
  await temp.cleanup();
});

function runtime(options: Partial<ToolRuntimeOptions> & Pick<ToolRuntimeOptions, 'tools'>): ToolRuntime {
  return createToolRuntime({
    cwd: temp.dir,
    sessionDir: `${temp.dir}/session`,
    decide: allowAllDecider,
    env: {},
    ...options,
  });
}

/** The general path: the same one call through `runTools` (the streaming executor), consumed. */
async function viaGeneral(r: ToolRuntime, block: ToolUseBlock, signal?: AbortSignal): Promise<TurnResult> {
  const updates = r.runTools([block], signal ? { signal } : {});
  for (;;) {
    const step = await updates.next();
    if (step.done) return step.value;
  }
}

/** A TurnResult without what differs from run to run (durations). */
function comparable(turn: TurnResult) {
  return {
    results: turn.results,
    newMessages: turn.newMessages,
    calls: turn.calls.map(({ durationMs, ...rest }) => {
      expect(durationMs).toBeGreaterThanOrEqual(0);
      return rest;
    }),
  };
}

function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const Echo = makeTool({ name: 'Echo' });
const Structured = buildTool({
  name: 'Structured',
  description: 'Returns structured data.',
  inputSchema: z.strictObject({ n: z.number() }),
  isConcurrencySafe: () => true,
  async *call(input: { n: number }) {
    yield { step: 1 };
    return { data: { doubled: input.n * 2 }, newMessages: [{ role: 'user' as const, content: 'note' }] };
  },
  mapToolResultToContent: (d: { doubled: number }) => `doubled: ${d.doubled}`,
});
const Throws = makeTool({
  name: 'Throws',
  run: () => {
    throw new ToolExecutionError('it broke');
  },
});
const Picky = buildTool({
  name: 'Picky',
  description: 'Rejects odd numbers.',
  inputSchema: z.strictObject({ n: z.number() }),
  validateInput: async (input: { n: number }) =>
    input.n % 2 === 0 ? { ok: true } : { ok: false, message: 'n must be even', field: 'n' },
  async *call(input: { n: number }) {
    return { data: input.n };
  },
});

describe('the lean one-call turn gives what the general path gives', () => {
  // Each row: why it is here, the tools, the call, the decider.
  const rows: {
    why: string;
    tools: ToolRuntimeOptions['tools'];
    block: ToolUseBlock;
    decide?: PermissionDecider;
  }[] = [
    { why: 'a plain success', tools: [Echo], block: toolUse('t1', 'Echo', { text: 'hi', repeat: 2 }) },
    {
      why: 'structured data, progress and new messages',
      tools: [Structured],
      block: toolUse('t1', 'Structured', { n: 21 }),
    },
    { why: 'an unknown tool', tools: [Echo], block: toolUse('t1', 'Nope', {}) },
    { why: 'a schema error names the field', tools: [Echo], block: toolUse('t1', 'Echo', { text: 3 }) },
    { why: 'validateInput refuses', tools: [Picky], block: toolUse('t1', 'Picky', { n: 3 }) },
    {
      why: 'an ask with no host is denied',
      tools: [Echo],
      block: toolUse('t1', 'Echo', { text: 'x' }),
      decide: askAllDecider,
    },
    { why: 'the tool throws', tools: [Throws], block: toolUse('t1', 'Throws', { text: 'x' }) },
  ];
  for (const row of rows)
    it(`${row.why}`, async () => {
      const events: { lean: PostCallEvent[]; general: PostCallEvent[] } = { lean: [], general: [] };
      const make = (into: PostCallEvent[]) =>
        runtime({
          tools: row.tools,
          ...(row.decide ? { decide: row.decide } : {}),
          postCall: (event) => void into.push(event),
        });
      const lean = await make(events.lean).runToolsToCompletion([row.block]);
      const general = await viaGeneral(make(events.general), row.block);
      expect(comparable(lean)).toEqual(comparable(general));
      const strip = ({ context: _c, signal: _s, ...rest }: PostCallEvent) => rest;
      expect(events.lean.map(strip)).toEqual(events.general.map(strip));
    });

  it('spills a result over the per-turn budget the same way', async () => {
    const Big = makeTool({ name: 'Big', run: () => ({ data: 'x'.repeat(9_000) }) });
    const lean = await runtime({ tools: [Big], maxTurnResultsChars: 6_000 }).runToolsToCompletion([
      toolUse('t1', 'Big', { text: 'a' }),
    ]);
    const general = await viaGeneral(
      runtime({ tools: [Big], maxTurnResultsChars: 6_000 }),
      toolUse('t1', 'Big', { text: 'a' }),
    );
    const text = (t: TurnResult) => String(t.results[0]?.content);
    expect(text(lean)).toContain('<persisted-output>');
    expect(text(lean).replace(/\/[^\s]*t1[^\s]*/g, 'FILE')).toBe(
      text(general).replace(/\/[^\s]*t1[^\s]*/g, 'FILE'),
    );
  });

  it("keeps a call's context change in the session context", async () => {
    const Cd = buildTool({
      name: 'Cd',
      description: 'Changes messages.',
      inputSchema: z.strictObject({}),
      async *call() {
        return {
          data: 'ok',
          contextModifier: (ctx: ToolUseContext) => ({
            ...ctx,
            messages: [{ role: 'user' as const, content: 'moved' }],
          }),
        };
      },
    });
    const r = runtime({ tools: [Cd] });
    await r.runToolsToCompletion([toolUse('t1', 'Cd', {})]);
    expect(r.context.messages).toEqual([{ role: 'user', content: 'moved' }]);
    expect(r.context.abortController.signal.aborted).toBe(false);
  });
});

describe('aborts', () => {
  it('an abort mid-call ends the call at once as aborted, with the general path’s text', async () => {
    let started = deferred();
    const Hang = makeTool({
      name: 'Hang',
      run: async (_input, context) => {
        started.resolve();
        await new Promise((r) => context.abortController.signal.addEventListener('abort', r));
        return { data: 'late' };
      },
    });
    const run = async (general: boolean) => {
      started = deferred();
      const host = new AbortController();
      const r = runtime({ tools: [Hang] });
      const block = toolUse('t1', 'Hang', { text: 'x' });
      const turn = general
        ? viaGeneral(r, block, host.signal)
        : r.runToolsToCompletion([block], { signal: host.signal });
      await started.promise;
      host.abort();
      return turn;
    };
    const lean = await run(false);
    expect(lean.calls[0]?.status).toBe('aborted');
    const general = await run(true);
    expect(comparable(lean)).toEqual(comparable(general));
  });

  it('a host signal aborted before the turn: the call does not start', async () => {
    let ran = false;
    const Mark = makeTool({ name: 'Mark', run: () => ((ran = true), { data: 'x' }) });
    const host = new AbortController();
    host.abort();
    const turn = await runtime({ tools: [Mark] }).runToolsToCompletion(
      [toolUse('t1', 'Mark', { text: 'x' })],
      {
        signal: host.signal,
      },
    );
    expect(ran).toBe(false);
    expect(turn.calls[0]?.status).toBe('not-started');
  });

  it('a tool that aborts its own context ends its turn: the call is aborted, a queued one not started', async () => {
    const Quit = makeTool({
      name: 'Quit',
      run: async (_input, context) => {
        context.abortController.abort();
        return { data: 'never seen' };
      },
    });
    const r = runtime({ tools: [Quit, Echo] });
    const alone = await r.runToolsToCompletion([toolUse('t1', 'Quit', { text: 'x' })]);
    expect(alone.calls.map((c) => c.status)).toEqual(['aborted']);
    const two = await r.runToolsToCompletion([
      toolUse('t2', 'Quit', { text: 'x' }),
      toolUse('t3', 'Echo', { text: 'y' }),
    ]);
    expect(two.calls.map((c) => c.status)).toEqual(['aborted', 'not-started']);
    // The session lives on.
    expect((await r.runToolsToCompletion([toolUse('t4', 'Echo', { text: 'z' })])).calls[0]?.status).toBe(
      'ok',
    );
  });
});

describe('the session signal', () => {
  it('aborting the session aborts every running turn of it (one listener for all), and later turns do not start', async () => {
    // Session turns join one listener on the session's signal (turn-controller.ts AbortFanout)
    // instead of each adding their own; a turn that ended has left it.
    const started = deferred();
    let running = 0;
    const Wait = buildTool({
      name: 'Wait',
      description: 'waits for its turn to abort',
      inputSchema: z.object({ text: z.string() }),
      isConcurrencySafe: () => true,
      async checkPermissions() {
        return { behavior: 'passthrough' as const };
      },
      async *call(_input, context) {
        if (++running === 3) started.resolve();
        await new Promise((resolve) => context.abortController.signal.addEventListener('abort', resolve));
        return { data: 'stopped' };
      },
      mapToolResultToContent: (data: string) => data,
    });
    const r = runtime({ tools: [Wait, Echo] });
    const done = await r.runToolsToCompletion([toolUse('t0', 'Echo', { text: 'before' })]);
    expect(done.calls[0]?.status).toBe('ok');
    const one = r.runToolsToCompletion([toolUse('t1', 'Wait', { text: 'a' })]);
    const two = r.runToolsToCompletion([
      toolUse('t2', 'Wait', { text: 'b' }),
      toolUse('t3', 'Wait', { text: 'c' }),
    ]);
    await started.promise;
    r.context.abortController.abort();
    expect((await one).calls.map((c) => c.status)).toEqual(['aborted']);
    expect((await two).calls.map((c) => c.status)).toEqual(['aborted', 'aborted']);
    const after = await r.runToolsToCompletion([toolUse('t4', 'Echo', { text: 'after' })]);
    expect(after.calls[0]?.status).toBe('not-started');
  });
});

describe('the admission gate across turns', () => {
  it('a lean unsafe call waits for a running call of another turn, then runs', async () => {
    const release = deferred();
    const order: string[] = [];
    const Slow = makeTool({
      name: 'Slow',
      safe: true,
      run: async () => {
        order.push('slow start');
        await release.promise;
        order.push('slow end');
        return { data: 'slow' };
      },
    });
    const Unsafe = makeTool({ name: 'Unsafe', run: () => (order.push('unsafe'), { data: 'u' }) });
    const r = runtime({ tools: [Slow, Unsafe] });
    const first = r.runToolsToCompletion([toolUse('a', 'Slow', { text: 'x' })]);
    await new Promise((res) => setTimeout(res, 10));
    const second = r.runToolsToCompletion([toolUse('b', 'Unsafe', { text: 'x' })]);
    await new Promise((res) => setTimeout(res, 10));
    expect(order).toEqual(['slow start']);
    expect(r.gate.waiting).toBe(1);
    release.resolve();
    const [a, b] = await Promise.all([first, second]);
    expect(order).toEqual(['slow start', 'slow end', 'unsafe']);
    expect([a.calls[0]?.status, b.calls[0]?.status]).toEqual(['ok', 'ok']);
    expect(r.gate.running).toBe(0);
  });

  it('a lean call queued behind another turn and aborted before admission ends as not started', async () => {
    const release = deferred();
    const Slow = makeTool({ name: 'Slow', run: async () => (await release.promise, { data: 's' }) });
    const r = runtime({ tools: [Slow, Echo] });
    const first = r.runToolsToCompletion([toolUse('a', 'Slow', { text: 'x' })]);
    const host = new AbortController();
    const second = r.runToolsToCompletion([toolUse('b', 'Echo', { text: 'x' })], { signal: host.signal });
    host.abort();
    expect((await second).calls[0]?.status).toBe('not-started');
    release.resolve();
    expect((await first).calls[0]?.status).toBe('ok');
  });
});

describe('callOwnsAbortSignal', () => {
  it("is true only for a one-call turn's own call", async () => {
    const seen: Record<string, boolean> = {};
    const Probe = makeTool({
      name: 'Probe',
      safe: true,
      run: async (input, context) => {
        seen[input.text] = callOwnsAbortSignal(context);
        if (input.text === 'outer') {
          await context.callTool?.('Probe', { text: 'nested' });
        }
        return { data: 'ok' };
      },
    });
    const r = runtime({ tools: [Probe] });
    await r.runToolsToCompletion([toolUse('t1', 'Probe', { text: 'outer' })]);
    await r.runToolsToCompletion([
      toolUse('t2', 'Probe', { text: 'pair-1' }),
      toolUse('t3', 'Probe', { text: 'pair-2' }),
    ]);
    await viaGeneral(r, toolUse('t4', 'Probe', { text: 'streamed' }));
    expect(seen).toEqual({ outer: true, nested: false, 'pair-1': false, 'pair-2': false, streamed: false });
  });
});

describe("requestSignalOf: a one-call turn's request signal", () => {
  it('reads as the turn aborts: aborted, reason, throwIfAborted, abort listeners told once', async () => {
    const host = new AbortController();
    const log: string[] = [];
    let signal: AbortSignal | undefined;
    const Probe = makeTool({
      name: 'Probe',
      safe: true,
      run: async (_input, context) => {
        signal = requestSignalOf(context);
        expect(signal.aborted).toBe(false);
        expect(signal.reason).toBeUndefined();
        signal.throwIfAborted();
        const kept = () => log.push(`kept ${String((signal?.reason as Error).message)}`);
        const removed = () => log.push('removed');
        signal.addEventListener('abort', () => {
          throw new Error('a listener that throws');
        });
        signal.addEventListener('abort', kept);
        signal.addEventListener('abort', removed);
        signal.removeEventListener('abort', removed);
        host.abort(new Error('stop'));
        await new Promise((r) => setTimeout(r, 5));
        return { data: 'late' };
      },
    });
    const r = runtime({ tools: [Probe] });
    const turn = await r.runToolsToCompletion([toolUse('t1', 'Probe', { text: 'x' })], {
      signal: host.signal,
    });
    expect(turn.calls[0]?.status).toBe('aborted');
    expect(log).toEqual(['kept stop']);
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as Error).message).toBe('stop');
    expect(() => signal?.throwIfAborted()).toThrow('stop');
    signal?.addEventListener('abort', () => log.push('after the abort'));
    expect(log).toEqual(['kept stop']);
  });

  it("is the controller's own signal outside a turn", () => {
    const controller = new AbortController();
    expect(requestSignalOf({ abortController: controller } as ToolUseContext)).toBe(controller.signal);
  });
});
