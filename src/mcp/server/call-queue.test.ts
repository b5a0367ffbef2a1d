/**
 * The call queue in front of the runtime (call-queue.ts): concurrent tools/call requests on one
 * runtime, with a real runtime and toy tools whose progress the tests control with promises.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool, type ToolUseBlock } from '../../core/index.js';
import { allowAllDecider, createToolRuntime, type ToolRuntime } from '../../runtime/index.js';
import { type Deferred, deferred } from '../../testing/deferred.js';
import { makeTempDir } from '../../testing/runtime-fixtures.js';
import { createCallQueue } from './call-queue.js';

/** Per key: `started` resolves when the call starts; the call ends when `release` resolves. */
const gates = new Map<string, { started: Deferred<void>; release: Deferred<void> }>();
function gate(key: string) {
  let g = gates.get(key);
  if (!g) {
    g = { started: deferred<void>(), release: deferred<void>() };
    gates.set(key, g);
  }
  return g;
}

const makeGateTool = (name: string, safe: boolean) =>
  buildTool({
    name,
    description: 'Waits for its gate.',
    inputSchema: z.object({ key: z.string(), waitFor: z.string().optional() }),
    isReadOnly: () => safe,
    isConcurrencySafe: () => safe,
    async *call(input: { key: string; waitFor?: string }, context) {
      const g = gate(input.key);
      g.started.resolve();
      // Optionally wait until another call has started (only possible when both run in parallel).
      if (input.waitFor) await gate(input.waitFor).started.promise;
      await new Promise<void>((resolve, reject) => {
        g.release.promise.then(resolve, reject);
        context.abortController.signal.addEventListener('abort', () => reject(new Error('aborted')), {
          once: true,
        });
      });
      return { data: `done ${input.key}` };
    },
  });
const SafeGate = makeGateTool('SafeGate', true);
const UnsafeGate = makeGateTool('UnsafeGate', false);

let seq = 0;
const use = (name: string, input: Record<string, unknown>): ToolUseBlock => ({
  type: 'tool_use',
  id: `toolu_${++seq}`,
  name,
  input,
});

/** A real runtime whose turns are recorded (tool_use ids per turn). */
async function setup() {
  const { dir, cleanup } = await makeTempDir('gantry-call-queue-');
  const runtime = createToolRuntime({
    tools: [SafeGate, UnsafeGate],
    cwd: dir,
    sessionDir: dir,
    decide: allowAllDecider,
    env: {},
  });
  const turns: string[][] = [];
  const recorded: Pick<ToolRuntime, 'runToolsToCompletion'> = {
    runToolsToCompletion(toolUses, options) {
      turns.push(toolUses.map((u) => u.id));
      return runtime.runToolsToCompletion(toolUses, options);
    },
  };
  return { queue: createCallQueue(recorded), turns, cleanup };
}

const text = (b: { content: unknown } | undefined) => (b ? String(b.content) : 'none');

describe('createCallQueue', () => {
  it('calls submitted together run in one turn, in parallel when concurrency-safe, each getting its own result', async () => {
    const { queue, turns, cleanup } = await setup();
    // a waits until b started and b until a started: only parallel execution finishes.
    const a = use('SafeGate', { key: 'p-a', waitFor: 'p-b' });
    const b = use('SafeGate', { key: 'p-b', waitFor: 'p-a' });
    const ra = queue.submit(a);
    const rb = queue.submit(b);
    gate('p-a').release.resolve();
    gate('p-b').release.resolve();
    expect(text(await ra)).toBe('done p-a');
    expect(text(await rb)).toBe('done p-b');
    expect(turns).toEqual([[a.id, b.id]]);
    await cleanup();
  });

  it('a call that arrives while a turn runs waits for it, then runs in the next turn (no "turn already running")', async () => {
    const { queue, turns, cleanup } = await setup();
    const first = use('UnsafeGate', { key: 'w-1' });
    const r1 = queue.submit(first);
    await gate('w-1').started.promise;
    const second = use('SafeGate', { key: 'w-2' });
    const third = use('SafeGate', { key: 'w-3' });
    const r2 = queue.submit(second);
    const r3 = queue.submit(third);
    expect(gate('w-2').started.settled).toBe(false);
    gate('w-1').release.resolve();
    expect(text(await r1)).toBe('done w-1');
    gate('w-2').release.resolve();
    gate('w-3').release.resolve();
    expect([text(await r2), text(await r3)]).toEqual(['done w-2', 'done w-3']);
    expect(turns).toEqual([[first.id], [second.id, third.id]]);
    await cleanup();
  });

  it('cancelling a lone call aborts its turn: the tool sees the abort and the call ends as an error', async () => {
    const { queue, cleanup } = await setup();
    const controller = new AbortController();
    const r = queue.submit(use('UnsafeGate', { key: 'c-1' }), controller.signal);
    await gate('c-1').started.promise;
    controller.abort();
    const block = await r;
    expect(block?.is_error).toBe(true);
    await cleanup();
  });

  it('a call cancelled while queued never runs; one cancelled call does not abort the others of its turn', async () => {
    const { queue, turns, cleanup } = await setup();
    const blocker = use('UnsafeGate', { key: 'q-0' });
    const r0 = queue.submit(blocker);
    await gate('q-0').started.promise;
    const dropped = new AbortController();
    const rDropped = queue.submit(use('SafeGate', { key: 'q-dropped' }), dropped.signal);
    const partial = new AbortController();
    const kept = use('SafeGate', { key: 'q-kept' });
    const other = use('SafeGate', { key: 'q-other' });
    const rKept = queue.submit(kept, partial.signal);
    const rOther = queue.submit(other);
    dropped.abort();
    gate('q-0').release.resolve();
    await r0;
    expect(await rDropped).toBeUndefined();
    await gate('q-kept').started.promise;
    partial.abort(); // one of two calls cancelled: the turn goes on
    gate('q-kept').release.resolve();
    gate('q-other').release.resolve();
    expect(text(await rKept)).toBe('done q-kept');
    expect(text(await rOther)).toBe('done q-other');
    expect(gate('q-dropped').started.settled).toBe(false);
    expect(turns).toEqual([[blocker.id], [kept.id, other.id]]);
    await cleanup();
  });

  it('a runtime that throws rejects the calls of that turn only; the next turn runs', async () => {
    let fail = true;
    const queue = createCallQueue({
      async runToolsToCompletion(toolUses) {
        if (fail) {
          fail = false;
          throw new Error('fatal in turn');
        }
        return {
          results: toolUses.map((u) => ({ type: 'tool_result' as const, tool_use_id: u.id, content: 'ok' })),
          newMessages: [],
        };
      },
    });
    await expect(queue.submit(use('X', {}))).rejects.toThrow('fatal in turn');
    expect(text(await queue.submit(use('X', {})))).toBe('ok');
  });
});
