/**
 * Child contexts, property by property: cloned read-file state, an abort controller chained one
 * way and detached without leaking listeners, `agentId` on progress and updates, a scoped
 * `setAppState` next to a `setAppStateForTasks` that writes the root, narrowed permission modes,
 * and sub-agent turns through the session's gate (a delegating call does not deadlock).
 */
import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionMode, ToolRuntimeUpdate, ToolUseContext } from '../index.js';
import { type Deferred, deferred, waitUntil } from '../testing/deferred.js';
import { makeTempDir, makeTool, toolUse } from '../testing/runtime-fixtures.js';
import { createChildContext, narrowPermissionMode } from './child-context.js';
import { createToolRuntime } from './create-tool-runtime.js';
import { allowAllDecider } from './deciders.js';

let temp: { dir: string; cleanup(): Promise<void> };
beforeEach(async () => {
  temp = await makeTempDir();
});
afterEach(async () => {
  await temp.cleanup();
});

const Echo = makeTool({ name: 'Echo', safe: true });

function session(tools = [Echo], permissionMode: PermissionMode = 'default') {
  return createToolRuntime({
    tools,
    cwd: temp.dir,
    sessionDir: temp.dir,
    decide: allowAllDecider,
    permissionMode,
    env: {},
  });
}

describe('createChildContext: state', () => {
  it('starts from a copy of the parent’s read-file state; later reads stay its own', () => {
    const parent = session().context;
    parent.readFileState.set('/a', { contentHash: 'h', mtimeMs: 1, isPartial: false });
    const child = createChildContext(parent, { agentId: 'a1', tools: [Echo] });
    expect(child.readFileState.get('/a')).toEqual({ contentHash: 'h', mtimeMs: 1, isPartial: false });
    child.readFileState.set('/b', { contentHash: 'h', mtimeMs: 1, isPartial: false });
    expect(parent.readFileState.has('/b')).toBe(false);
    expect(child.readFileState).not.toBe(parent.readFileState);
  });

  it('setAppState is scoped to the child; setAppStateForTasks writes the root session', () => {
    const runtime = session();
    const child = createChildContext(runtime.context, { agentId: 'a1', tools: [Echo] });
    child.setAppState((s) => ({ ...s, cwd: '/child/only', planFilePath: '/plan.md' }));
    expect(child.getAppState().cwd).toBe('/child/only');
    expect(runtime.getAppState().cwd).toBe(temp.dir);
    expect(runtime.getAppState().planFilePath).toBeUndefined();
    child.setAppStateForTasks((s) => ({
      ...s,
      todos: { a1: [{ content: 'x', status: 'pending', activeForm: 'x-ing' }] },
    }));
    expect(runtime.getAppState().todos?.a1).toHaveLength(1);
    expect(child.getAppState().todos?.a1).toHaveLength(1);
    expect(child.getAppState().cwd).toBe('/child/only');
  });

  it('reads root-owned slots (tasks, todos) from the root, even after they change there', () => {
    const runtime = session();
    const child = createChildContext(runtime.context, { agentId: 'a1', tools: [Echo] });
    const task = {
      id: 'b000001',
      kind: 'bash' as const,
      description: 'x',
      status: 'running' as const,
      outputFile: '/o',
      startedAtMs: 0,
    };
    runtime.context.setAppStateForTasks((s) => ({ ...s, tasks: { ...s.tasks, [task.id]: task } }));
    expect(child.getAppState().tasks[task.id]).toEqual(task);
    // A scoped write cannot replace a root-owned slot.
    child.setAppState((s) => ({ ...s, tasks: {} }));
    expect(child.getAppState().tasks[task.id]).toEqual(task);
  });

  it('takes its own cwd (which becomes its project root), tools and agentId, and an empty conversation', () => {
    const parent = session().context;
    const child = createChildContext(
      { ...parent, messages: [{ role: 'user', content: 'parent talk' }] },
      { agentId: 'a1', tools: [], cwd: '/work/tree' },
    );
    expect(child.getAppState()).toMatchObject({ cwd: '/work/tree', projectRoot: '/work/tree' });
    expect(child.options.tools).toEqual([]);
    expect(child.agentId).toBe('a1');
    expect(child.messages).toEqual([]);
    expect(child.services).toBe(parent.services);
  });
});

describe('createChildContext: permission mode only narrows', () => {
  it.each([
    ['default', undefined, 'default', 'no request keeps the parent’s mode'],
    ['default', 'plan', 'plan', 'plan is narrower than default'],
    ['default', 'dontAsk', 'dontAsk', 'dontAsk is narrower than default'],
    ['default', 'acceptEdits', 'default', 'acceptEdits would widen default'],
    ['default', 'bypassPermissions', 'default', 'bypass would widen default'],
    ['acceptEdits', 'default', 'default', 'default is narrower than acceptEdits'],
    ['auto', 'acceptEdits', 'acceptEdits', 'acceptEdits is narrower than auto'],
    ['bypassPermissions', 'auto', 'auto', 'anything is narrower than bypass'],
    ['plan', 'dontAsk', 'plan', 'plan and dontAsk are not comparable: the parent’s stays'],
    ['dontAsk', 'plan', 'dontAsk', 'dontAsk and plan are not comparable: the parent’s stays'],
    ['plan', 'bypassPermissions', 'plan', 'a plan-mode parent never gets a bypassing child'],
  ] as const)('parent %s, requested %s → %s (%s)', (parentMode, requested, expected, _why) => {
    expect(narrowPermissionMode(parentMode, requested)).toBe(expected);
    const child = createChildContext(session([Echo], parentMode).context, {
      agentId: 'a1',
      tools: [Echo],
      ...(requested ? { permissionMode: requested } : {}),
    });
    expect(child.getAppState().permissionMode).toBe(expected);
  });
});

describe('createChildContext: abort', () => {
  it('a parent abort aborts the child; a child abort leaves the parent running', () => {
    const parent = session().context;
    const first = createChildContext(parent, { agentId: 'a1', tools: [Echo] });
    first.abortController.abort();
    expect(parent.abortController.signal.aborted).toBe(false);
    const parentController = new AbortController();
    const second = createChildContext(
      { ...parent, abortController: parentController },
      { agentId: 'a2', tools: [] },
    );
    parentController.abort('stop');
    expect(second.abortController.signal.aborted).toBe(true);
    expect(second.abortController.signal.reason).toBe('stop');
  });

  it('an extra signal aborts the child too', () => {
    const extra = new AbortController();
    const child = createChildContext(session().context, { agentId: 'a1', tools: [], signal: extra.signal });
    extra.abort();
    expect(child.abortController.signal.aborted).toBe(true);
  });

  it('leaves no listener on the parent’s signal once disposed or aborted', () => {
    const parentController = new AbortController();
    const parent = { ...session().context, abortController: parentController };
    const before = getEventListeners(parentController.signal, 'abort').length;
    for (let i = 0; i < 100; i++) {
      const child = createChildContext(parent, { agentId: `a${i}`, tools: [] });
      if (i % 2) child.dispose();
      else child.abortController.abort();
    }
    expect(getEventListeners(parentController.signal, 'abort').length).toBe(before);
  });
});

describe('sub-agent turns through the session runtime', () => {
  it('puts agentId on every progress event and update, and runs with the child’s tools', async () => {
    const Slow = makeTool({ name: 'Slow', safe: true, progress: [{ step: 1 }] });
    const runtime = session([Echo]);
    const sink: unknown[] = [];
    const parent = { ...runtime.context, onProgress: (event: unknown) => sink.push(event) };
    const child = createChildContext(parent, { agentId: 'agent-7', tools: [Slow] });
    const updates: ToolRuntimeUpdate[] = [];
    const run = runtime.runTools(
      [toolUse('c1', 'Slow', { text: 'x' }), toolUse('c2', 'Echo', { text: 'y' })],
      {
        context: child,
      },
    );
    let step = await run.next();
    while (!step.done) {
      updates.push(step.value);
      step = await run.next();
    }
    expect(sink).toEqual([{ toolUseId: 'c1', toolName: 'Slow', agentId: 'agent-7', data: { step: 1 } }]);
    for (const update of updates) {
      const agentId = update.type === 'progress' ? update.event.agentId : update.agentId;
      expect(agentId, update.type).toBe('agent-7');
    }
    expect(step.value.calls.map((c) => [c.toolUseId, c.agentId, c.status])).toEqual([
      ['c1', 'agent-7', 'ok'],
      ['c2', 'agent-7', 'error'],
    ]);
    expect(step.value.results[1]?.content).toContain('No such tool available: Echo');
  });

  it('a parent call that runs a sub-agent does not deadlock the gate, even when both are unsafe', async () => {
    const gates = new Map<string, Deferred<void>>();
    const order: string[] = [];
    let runtime!: ReturnType<typeof session>;
    const ChildWork = makeTool({
      name: 'ChildWork',
      safe: false,
      run: async (input) => {
        order.push(`start ${input.text}`);
        await gates.get(input.text)?.promise;
        order.push(`end ${input.text}`);
        return { data: input.text };
      },
    });
    const Agent = makeTool({
      name: 'Agent',
      safe: false,
      run: async (input, context: ToolUseContext) => {
        const child = createChildContext(context, { agentId: `agent-${input.text}`, tools: [ChildWork] });
        try {
          const turn = await runtime.runToolsToCompletion(
            [toolUse(`${input.text}-1`, 'ChildWork', { text: `${input.text}-1` })],
            { context: child },
          );
          return { data: String(turn.results[0]?.content) };
        } finally {
          child.dispose();
        }
      },
    });
    runtime = session([Agent, ChildWork]);
    gates.set('A-1', deferred());
    const turn = runtime.runToolsToCompletion([toolUse('p1', 'Agent', { text: 'A' })]);
    await waitUntil(() => order.includes('start A-1'), 'the sub-agent’s call started while Agent runs');
    gates.get('A-1')?.resolve();
    const { results } = await turn;
    expect(results[0]?.content).toBe('A-1');
    expect([runtime.gate.running, runtime.gate.waiting]).toEqual([0, 0]);
  });

  it('two parallel sub-agents’ unsafe calls never overlap, and both finish', async () => {
    let runtime!: ReturnType<typeof session>;
    let inside = 0;
    let maxInside = 0;
    const ChildWork = makeTool({
      name: 'ChildWork',
      safe: false,
      run: async (input) => {
        inside++;
        maxInside = Math.max(maxInside, inside);
        await new Promise((resolve) => setImmediate(resolve));
        inside--;
        return { data: input.text };
      },
    });
    const Agent = makeTool({
      name: 'Agent',
      safe: true,
      run: async (input, context: ToolUseContext) => {
        const child = createChildContext(context, { agentId: input.text, tools: [ChildWork] });
        const turn = await runtime.runToolsToCompletion(
          [1, 2, 3].map((n) => toolUse(`${input.text}-${n}`, 'ChildWork', { text: `${input.text}-${n}` })),
          { context: child },
        );
        child.dispose();
        return { data: turn.results.map((r) => r.content).join(',') };
      },
    });
    runtime = session([Agent, ChildWork]);
    const { results } = await runtime.runToolsToCompletion([
      toolUse('a', 'Agent', { text: 'A' }),
      toolUse('b', 'Agent', { text: 'B' }),
    ]);
    expect(results.map((r) => r.content)).toEqual(['A-1,A-2,A-3', 'B-1,B-2,B-3']);
    expect(maxInside).toBe(1);
  });

  it('aborting the parent turn aborts a sub-agent’s running call', async () => {
    let runtime!: ReturnType<typeof session>;
    const seen: boolean[] = [];
    const ChildWork = makeTool({
      name: 'ChildWork',
      run: (_input, context) =>
        new Promise((resolve) => {
          context.abortController.signal.addEventListener('abort', () => {
            seen.push(true);
            resolve({ data: 'stopped' });
          });
        }),
    });
    const Agent = makeTool({
      name: 'Agent',
      run: async (_input, context: ToolUseContext) => {
        const child = createChildContext(context, { agentId: 'a', tools: [ChildWork] });
        const turn = await runtime.runToolsToCompletion([toolUse('c', 'ChildWork', { text: '' })], {
          context: child,
        });
        return { data: String(turn.results[0]?.content) };
      },
    });
    runtime = session([Agent, ChildWork]);
    const controller = new AbortController();
    const turn = runtime.runToolsToCompletion([toolUse('p', 'Agent', { text: '' })], {
      signal: controller.signal,
    });
    await waitUntil(() => runtime.gate.running === 1 && seen.length === 0, 'the sub-agent’s call runs');
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const { results } = await turn;
    expect(results[0]?.content).toMatch(/^Interrupted/);
    await waitUntil(() => seen.length === 1, 'the sub-agent’s call saw the abort');
  });
});
