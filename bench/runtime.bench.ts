/**
 * bench/runtime: the runtime's cost, against baselines measured in the same run.
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

/** Wall-clock and CPU time (user + system) of one run, in ms. */
interface Cost {
  wallMs: number;
  cpuMs: number;
}

/** One warm-up, then the median of 5 runs, for wall-clock and CPU time separately. */
async function measure(run: () => Promise<void>): Promise<Cost> {
  await run();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < 5; i++) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    await run();
    walls.push(performance.now() - start);
    const cpu = process.cpuUsage(cpuStart);
    cpus.push((cpu.user + cpu.system) / 1000);
  }
  return { wallMs: median(walls), cpuMs: median(cpus) };
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
    const direct = async (): Promise<void> => {
      for (let i = 0; i < CALLS; i++) {
        const input = Input.parse({ text: `call ${i}`, n: i });
        const generator = tool.call(input, context);
        let step = await generator.next();
        while (!step.done) step = await generator.next();
        tool.mapToolResultToContent(step.value.data, { toolUseId: `toolu_${i}`, input, context });
      }
    };
    const through = (safe: boolean) => async (): Promise<void> => {
      const t = trivial(safe);
      const { results } = await make([t]).runToolsToCompletion(uses(t.name, CALLS));
      if (results.length !== CALLS || results.some((r) => r.is_error))
        throw new Error('bench: unexpected results');
    };
    const streamed = async (): Promise<void> => {
      const t = trivial(false);
      let results = 0;
      for await (const update of make([t]).runTools(uses(t.name, CALLS)))
        if (update.type === 'result') results++;
      if (results !== CALLS) throw new Error('bench: unexpected results');
    };
    const directCost = await measure(direct);
    const serialCost = await measure(through(false));
    const safeCost = await measure(through(true));
    const streamedCost = await measure(streamed);
    const overheadUs = (cost: Cost, kind: keyof Cost) => ((cost[kind] - directCost[kind]) * 1000) / CALLS;

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
        'baseline: 10,000 direct calls, CPU (ms)': directCost.cpuMs,
        '10,000 unsafe calls through the runtime, CPU (ms)': serialCost.cpuMs,
        'overhead, unsafe calls, CPU (µs/call)': overheadUs(serialCost, 'cpuMs'),
        'overhead, safe calls in batches of 10, CPU (µs/call)': overheadUs(safeCost, 'cpuMs'),
        'overhead, unsafe calls via the runTools update stream, CPU (µs/call)': overheadUs(
          streamedCost,
          'cpuMs',
        ),
        'overhead, unsafe calls, wall clock (µs/call)': overheadUs(serialCost, 'wallMs'),
        'overhead, safe calls, wall clock (µs/call)': overheadUs(safeCost, 'wallMs'),
        'one 50 ms call (ms)': oneMs,
        'ten parallel 50 ms calls (ms)': tenMs,
        'parallel ratio (10 calls / 1 call)': ratio,
      },
      targets: {
        'overhead ≤ 50 µs/call, CPU (unsafe)': overheadUs(serialCost, 'cpuMs') <= 50,
        'overhead ≤ 50 µs/call, CPU (safe)': overheadUs(safeCost, 'cpuMs') <= 50,
        'parallel ratio ≤ 1.3': ratio <= 1.3,
      },
      notes: [
        'medians of 5 runs after one warm-up each',
        'targets use CPU time (process.cpuUsage): on a shared machine wall-clock time also counts waiting for a core',
      ],
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
