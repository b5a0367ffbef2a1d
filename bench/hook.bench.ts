/**
 * `gantry hook` start-up (issue 7 benchmark): wall time per invocation for a Bash payload and a Read
 * payload, median of 30 cold process starts each, against `node -e 0` measured in the same run,
 * interleaved so machine load affects all three alike. Target: ratio ≤ 2.0.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchReport } from './run.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = 30;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function timeRun(args: string[], input: string, env: NodeJS.ProcessEnv): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input, env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0 && r.status !== 2) throw new Error(`hook failed: ${r.stderr}`);
  return ms;
}

export default async function bench(): Promise<BenchReport> {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repo, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(build.stderr);
  const home = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-hook-bench-')));
  const project = path.join(home, 'app');
  mkdirSync(project);
  const env = { PATH: process.env.PATH, HOME: home, GANTRY_HOOK_LOG: 'off' };
  const payload = (tool_name: string, tool_input: unknown) =>
    JSON.stringify({
      hook_event_name: 'PreToolUse',
      session_id: 's',
      cwd: project,
      permission_mode: 'default',
      tool_use_id: 't',
      tool_name,
      tool_input,
    });
  const bash = payload('Bash', { command: 'git status && rg -n TODO src | head -20' });
  const read = payload('Read', { file_path: path.join(project, 'src/a.ts') });
  const bin = path.join(repo, 'bin', 'gantry.js');
  const t = { node: [] as number[], bash: [] as number[], read: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    t.node.push(timeRun(['-e', '0'], '', env));
    t.bash.push(timeRun([bin, 'hook'], bash, env));
    t.read.push(timeRun([bin, 'hook'], read, env));
  }
  const node = median(t.node);
  const bashMs = median(t.bash);
  const readMs = median(t.read);
  return {
    name: 'gantry hook start-up (median of 30 cold starts)',
    figures: {
      'node -e 0 ms': node,
      'hook Bash payload ms': bashMs,
      'hook Read payload ms': readMs,
      'Bash ratio to node -e 0': bashMs / node,
      'Read ratio to node -e 0': readMs / node,
    },
    targets: { 'Bash ratio ≤ 2.0': bashMs / node <= 2.0, 'Read ratio ≤ 2.0': readMs / node <= 2.0 },
  };
}
