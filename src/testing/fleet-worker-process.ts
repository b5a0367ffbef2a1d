/**
 * A fleet worker process for tests and benchmarks: the real worker (`startWorker`) with quick
 * failover settings and two ledger tools in place of Read and Write, so a test can count how often
 * a call really ran and can kill a worker in the middle of one: each call appends
 * `<tool> <tool_use_id>` to the file `ledger` beside the file it reads or writes.
 *
 * Run: `node --import tsx src/testing/fleet-worker-process.ts`, configured by the environment:
 * `FLEET_DATABASE`, `FLEET_HOME`, `FLEET_WORKER_ID`, `FLEET_SLOW_MS` (a call on a path containing `.slow` pauses this long:
 * Read before reading, Write after writing), `FLEET_CONCURRENCY`, `FLEET_DEAD_AFTER_MS`,
 * `FLEET_MODEL_RPM` (the fleet-wide model-request rate limit),
 * `FLEET_HTTP=1` (serve approvals; token `FLEET_TOKEN`), plus the model's (`ANTHROPIC_BASE_URL`, …).
 * Prints one JSON line `{ready, worker, approvals}` when it takes work; SIGTERM stops it.
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import type { AnyTool, ToolUseContext } from '../core/index.js';
import { startWorker } from '../fleet/worker.js';

const env = process.env;
const slowMs = Number(env.FLEET_SLOW_MS ?? 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function ledgerTool(tool: AnyTool, pause: 'before' | 'after'): AnyTool {
  const wrapped = Object.create(tool) as AnyTool;
  wrapped.call = async function* (input: Record<string, unknown>, context: ToolUseContext) {
    const file = String(input.file_path ?? '');
    const slow = file.includes('.slow');
    if (file) appendFileSync(path.join(path.dirname(file), 'ledger'), `${tool.name} ${context.toolUseId}\n`);
    if (slow && pause === 'before') await sleep(slowMs);
    const result = yield* tool.call(input, context);
    if (slow && pause === 'after') await sleep(slowMs);
    return result;
  };
  return wrapped;
}

const worker = await startWorker({
  databaseUrl: env.FLEET_DATABASE ?? '',
  fleetHome: env.FLEET_HOME ?? '',
  ...(env.FLEET_WORKER_ID ? { workerId: env.FLEET_WORKER_ID } : {}),
  ...(env.HOME ? { home: env.HOME } : {}),
  env,
  concurrency: Number(env.FLEET_CONCURRENCY ?? 4),
  ...(env.FLEET_MODEL_RPM ? { modelRequestsPerMinute: Number(env.FLEET_MODEL_RPM) } : {}),
  deadAfterMs: Number(env.FLEET_DEAD_AFTER_MS ?? 1500),
  heartbeatMs: 250,
  sweepMs: 250,
  pollingIntervalMs: 50,
  ...(env.FLEET_HTTP === '1' ? { httpPort: 0, httpToken: env.FLEET_TOKEN ?? '' } : {}),
  tools: (tools) =>
    tools.map((t) =>
      t.name === 'Read' ? ledgerTool(t, 'before') : t.name === 'Write' ? ledgerTool(t, 'after') : t,
    ),
  log: (line) => process.stderr.write(`[${env.FLEET_WORKER_ID}] ${line}\n`),
});
process.stdout.write(
  `${JSON.stringify({ ready: true, worker: worker.workerId, approvals: worker.approvalUrl ?? null })}\n`,
);
process.once('SIGTERM', () => {
  void worker.stop().finally(() => process.exit(0));
});
