/**
 * `gantry hook` start-up: wall time per invocation for a Bash payload and a Read
 * payload, median of 30 process starts each, against `node -e 0` measured in the same run,
 * interleaved so machine load affects all alike. Target: warm ratio ≤ 1.5; stretch: warm path ≤ 25 ms.
 *
 * - warm: the normal path — a tiny client forwards to the resident hook server (hook-client.ts);
 *   the server is started by a first call and exits 5 s after the bench. Measured from the
 *   checkout's bin/gantry.js (which first compares dist/ with the sources) and from an installed
 *   layout (bin/gantry.js with no src/ beside it, as `npx gantry hook` runs it).
 * - cold: `GANTRY_HOOK_DAEMON=0`, everything in-process (the fallback when no server answers), with
 *   V8's code cache in the scratch home (made by the first cold run; src/cli/code-cache.ts).
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
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
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale', '--js-only'], {
    cwd: repo,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(build.stderr);
  const home = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-hook-bench-')));
  const project = path.join(home, 'app');
  mkdirSync(project);
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    GANTRY_HOOK_LOG: 'off',
    GANTRY_HOOK_DAEMON_IDLE_MS: '5000',
  };
  const coldEnv = { ...env, GANTRY_HOOK_DAEMON: '0' };
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
  // A literal command (src/shell/literal-command.ts): decided without the Bash grammar.
  const literal = payload('Bash', { command: 'git status' });
  const read = payload('Read', { file_path: path.join(project, 'src/a.ts') });
  const bin = path.join(repo, 'bin', 'gantry.js');
  const pkg = path.join(home, 'package');
  mkdirSync(path.join(pkg, 'bin'), { recursive: true });
  copyFileSync(bin, path.join(pkg, 'bin/gantry.js'));
  copyFileSync(path.join(repo, 'bin/package.json'), path.join(pkg, 'bin/package.json'));
  for (const f of ['dist', 'node_modules', 'package.json'])
    symlinkSync(path.join(repo, f), path.join(pkg, f));
  const installedBin = path.join(pkg, 'bin/gantry.js');
  // Start the hook server with one call and wait for its socket.
  timeRun([bin, 'hook'], bash, env);
  const runDir = path.join(home, '.gantry', 'run');
  for (
    let i = 0;
    i < 100 && !(existsSync(runDir) && readdirSync(runDir).some((f) => f.endsWith('.sock')));
    i++
  ) {
    await new Promise((r) => setTimeout(r, 50));
  }
  timeRun([bin, 'hook'], bash, env);
  const t = {
    node: [] as number[],
    bash: [] as number[],
    read: [] as number[],
    instBash: [] as number[],
    instRead: [] as number[],
    coldBash: [] as number[],
    coldRead: [] as number[],
    coldLiteral: [] as number[],
  };
  for (let i = 0; i < RUNS; i++) {
    t.node.push(timeRun(['-e', '0'], '', env));
    t.bash.push(timeRun([bin, 'hook'], bash, env));
    t.read.push(timeRun([bin, 'hook'], read, env));
    t.instBash.push(timeRun([installedBin, 'hook'], bash, env));
    t.instRead.push(timeRun([installedBin, 'hook'], read, env));
    t.coldBash.push(timeRun([bin, 'hook'], bash, coldEnv));
    t.coldRead.push(timeRun([bin, 'hook'], read, coldEnv));
    t.coldLiteral.push(timeRun([bin, 'hook'], literal, coldEnv));
  }
  const node = median(t.node);
  const [bashMs, readMs, instBash, instRead, coldBash, coldRead] = [
    t.bash,
    t.read,
    t.instBash,
    t.instRead,
    t.coldBash,
    t.coldRead,
  ].map(median) as [number, number, number, number, number, number];
  const coldLiteral = median(t.coldLiteral);
  await new Promise((r) => setTimeout(r, 5500)); // the server exits 5 s after its last request
  rmSync(home, { recursive: true, force: true });
  return {
    name: 'gantry hook per-invocation wall time (median of 30 process starts)',
    figures: {
      'node -e 0 ms': node,
      'warm (resident server) Bash payload ms': bashMs,
      'warm (resident server) Read payload ms': readMs,
      'warm Bash ratio to node -e 0': bashMs / node,
      'warm Read ratio to node -e 0': readMs / node,
      'warm installed Bash payload ms': instBash,
      'warm installed Read payload ms': instRead,
      'warm installed Bash ratio to node -e 0': instBash / node,
      'warm installed Read ratio to node -e 0': instRead / node,
      'cold (in-process) Bash payload ms': coldBash,
      'cold (in-process) Read payload ms': coldRead,
      'cold Bash ratio to node -e 0': coldBash / node,
      'cold Read ratio to node -e 0': coldRead / node,
      'cold (in-process) literal Bash (git status) ms': coldLiteral,
      'cold literal Bash ratio to node -e 0': coldLiteral / node,
    },
    targets: {
      'warm Bash ratio ≤ 1.5': bashMs / node <= 1.5,
      'warm Read ratio ≤ 1.5': readMs / node <= 1.5,
      'warm installed Bash ratio ≤ 1.5': instBash / node <= 1.5,
      'warm installed Read ratio ≤ 1.5': instRead / node <= 1.5,
      'warm path ≤ 25 ms (stretch)': Math.max(bashMs, readMs) <= 25,
    },
    notes: ['A fresh server per build: the socket name carries the bundle size and mtime.'],
  };
}
