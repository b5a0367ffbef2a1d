/**
 * `gantry replay` throughput: calls decided per second over all of
 * ../shared/data/real/agent-tool-calls.jsonl (dry run, no hooks), in one process.
 */
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { replayFiles } from '../src/cli/replay/replay.js';
import { sharedFile } from '../src/testing/shared-data.js';
import type { BenchReport } from './run.js';

export default async function bench(): Promise<BenchReport> {
  const file = sharedFile('data/real/agent-tool-calls.jsonl');
  if (!file) return { name: 'gantry replay throughput', figures: {}, notes: ['../shared missing: skipped'] };
  const home = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-replay-bench-')));
  const guard = { home, managedFiles: [] as string[] };
  await replayFiles([file], { guard }); // warm-up: parser load, JIT
  const t0 = process.hrtime.bigint();
  const s = await replayFiles([file], { guard });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return {
    name: 'gantry replay throughput (agent-tool-calls.jsonl, dry run)',
    figures: {
      calls: s.rows,
      seconds: seconds,
      'calls per second': s.rows / seconds,
      'allow / ask / deny': `${s.byDecision.allow} / ${s.byDecision.ask} / ${s.byDecision.deny}`,
    },
  };
}
