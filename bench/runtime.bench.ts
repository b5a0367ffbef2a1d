/**
 * bench/runtime (issue 2): the runtime's cost, against baselines measured in the same run.
 *
 * 1. Per-call overhead: 10,000 trivial calls through `runToolsToCompletion` (lookup, parse,
 *    validateInput, permission phase with the allow-all decider, call, mapping, budgets, ordering),
 *    minus the same 10,000 calls made directly (the tool's own generator + mapping). Target ≤ 50 µs.
 *    Measured for unsafe calls (one at a time) and safe calls (batches of 10), and for the
 *    `runTools` update stream (2 updates per call through async generators; no target).
 * 2. Parallelism: 10 concurrency-safe calls that each wait 50 ms, as a ratio to one such call.
 *    Target ≤ 1.3 (ten calls finish in about one wait, not ten).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { buildTool, type ToolUseBlock, type ToolUseContext } from '../src/core/index.js';
import { allowAllDecider, createToolRuntime } from '../src/runtime/index.js';
import type { BenchReport } from './run.js';

const CALLS = 10_000;
const WAIT_MS = 50;

const Input = z.strictObject({ text: z.string(), n: z.number().int().optional() });
const trivial = (safe: boolean) =>
  buildTool({
    name: safe ? 'SafeEcho' : 'Echo',
    description: 'Echoes its input.',
    inputSchema: Input,
    isConcurrencySafe: () => safe,
    async *call(input: { text: string }, _context: ToolUseContext) {
      return { data: input.text };
    },
  });
const Wait = buildTool({
  name: 'Wait',
  description: 'Waits 50 ms.',
  inputSchema: z.strictObject({}),
  isConcurrencySafe: () => true,
  async *call() {
    await sleep(WAIT_MS);
    return { data: 'waited' };
  },
});

function uses(name: string, count: number): ToolUseBlock[] {
  return Array.from({ length: count }, (_, i) => ({
    type: 'tool_use' as const,
    id: `toolu_${i}`,
    name,
    input: { text: `call ${i}`, n: i },
  }));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

export default async function bench(): Promise<BenchReport> {
  const dir = await mkdtemp(path.join(tmpdir(), 'gantry-bench-'));
  try {
    const make = (tools: ReturnType<typeof trivial>[] | (typeof Wait)[]) =>
      createToolRuntime({ tools, cwd: dir, sessionDir: dir, decide: allowAllDecider, env: {} });

    // Baseline: the same tool work without the runtime.
    const tool = trivial(false);
    const context = make([tool]).context as ToolUseContext;
    const direct = async (): Promise<number> => {
      const start = performance.now();
      for (let i = 0; i < CALLS; i++) {
        const input = Input.parse({ text: `call ${i}`, n: i });
        const generator = tool.call(input, context);
        let step = await generator.next();
        while (!step.done) step = await generator.next();
        tool.mapToolResultToContent(step.value.data, `toolu_${i}`);
      }
      return performance.now() - start;
    };
    const through = async (safe: boolean): Promise<number> => {
      const t = trivial(safe);
      const runtime = make([t]);
      const blocks = uses(t.name, CALLS);
      const start = performance.now();
      const { results } = await runtime.runToolsToCompletion(blocks);
      const elapsed = performance.now() - start;
      if (results.length !== CALLS || results.some((r) => r.is_error))
        throw new Error('bench: unexpected results');
      return elapsed;
    };
    const streamed = async (): Promise<number> => {
      const t = trivial(false);
      const runtime = make([t]);
      const blocks = uses(t.name, CALLS);
      const start = performance.now();
      let results = 0;
      for await (const update of runtime.runTools(blocks)) if (update.type === 'result') results++;
      const elapsed = performance.now() - start;
      if (results !== CALLS) throw new Error('bench: unexpected results');
      return elapsed;
    };
    // Warm up JIT and module state.
    await direct();
    await through(false);
    await through(true);
    await streamed();
    const directMs = median([await direct(), await direct(), await direct()]);
    const serialMs = median([await through(false), await through(false), await through(false)]);
    const safeMs = median([await through(true), await through(true), await through(true)]);
    const streamedMs = median([await streamed(), await streamed(), await streamed()]);
    const streamedOverheadUs = ((streamedMs - directMs) * 1000) / CALLS;
    const serialOverheadUs = ((serialMs - directMs) * 1000) / CALLS;
    const safeOverheadUs = ((safeMs - directMs) * 1000) / CALLS;

    // Parallelism: 10 safe waits vs 1.
    const waitRuntime = make([Wait]);
    const timeWaits = async (count: number): Promise<number> => {
      const start = performance.now();
      await waitRuntime.runToolsToCompletion(
        Array.from({ length: count }, (_, i) => ({
          type: 'tool_use' as const,
          id: `w${i}`,
          name: 'Wait',
          input: {},
        })),
      );
      return performance.now() - start;
    };
    await timeWaits(1);
    const oneMs = median([
      await timeWaits(1),
      await timeWaits(1),
      await timeWaits(1),
      await timeWaits(1),
      await timeWaits(1),
    ]);
    const tenMs = median([
      await timeWaits(10),
      await timeWaits(10),
      await timeWaits(10),
      await timeWaits(10),
      await timeWaits(10),
    ]);
    const ratio = tenMs / oneMs;

    return {
      name: 'runtime',
      figures: {
        'baseline: 10,000 direct calls (ms)': directMs,
        '10,000 unsafe calls through the runtime (ms)': serialMs,
        '10,000 safe calls through the runtime, batches of 10 (ms)': safeMs,
        'overhead, unsafe calls (µs/call)': serialOverheadUs,
        'overhead, safe calls (µs/call)': safeOverheadUs,
        'overhead, unsafe calls via the runTools update stream (µs/call)': streamedOverheadUs,
        'one 50 ms call (ms)': oneMs,
        'ten parallel 50 ms calls (ms)': tenMs,
        'parallel ratio (10 calls / 1 call)': ratio,
      },
      targets: {
        'overhead ≤ 50 µs/call (unsafe)': serialOverheadUs <= 50,
        'overhead ≤ 50 µs/call (safe)': safeOverheadUs <= 50,
        'parallel ratio ≤ 1.3': ratio <= 1.3,
      },
      notes: ['medians of 3 runs (overhead) and 5 runs (parallel), after one warm-up each'],
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
