/**
 * `gantry check` cold start: wall time of one `gantry check -- 'git status'` process, median of 20
 * runs, against `node -e 0` measured in the same run, interleaved so machine load affects all alike.
 * Target: ratio ≤ 2.0.
 *
 * - installed: bin/gantry.js laid out as in an installed package (no src/ beside it, so no source
 *   comparison), running the built dist/ of this checkout;
 * - checkout: bin/gantry.js of this checkout, which first compares dist/ with the sources;
 * - with the resident server: the hook's server runs (started by one `gantry hook` call, as a host
 *   with the hook installed has it), and the check process forwards to it (check-client.ts);
 * - in-process: `GANTRY_HOOK_DAEMON=0`, the whole guard loaded by the check process (what a check
 *   costs when no server runs; `git status` is a literal line, so the grammar is not), with V8's
 *   code cache in the scratch home (made by the first, untimed run; src/cli/code-cache.ts).
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchReport } from './run.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = 20;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function timeRun(args: string[], env: NodeJS.ProcessEnv, cwd: string, input = ''): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, cwd, encoding: 'utf8', input });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr}`);
  return ms;
}

export default async function bench(): Promise<BenchReport> {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale', '--js-only'], {
    cwd: repo,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(build.stderr);
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-check-bench-')));
  try {
    const home = path.join(root, 'home');
    const project = path.join(home, 'app');
    mkdirSync(project, { recursive: true });
    // An installed layout: package/bin/gantry.js beside package/dist, package.json, node_modules.
    const pkg = path.join(root, 'package');
    mkdirSync(path.join(pkg, 'bin'), { recursive: true });
    for (const f of ['gantry.js', 'package.json'])
      copyFileSync(path.join(repo, 'bin', f), path.join(pkg, 'bin', f));
    for (const f of ['dist', 'node_modules', 'package.json'])
      symlinkSync(path.join(repo, f), path.join(pkg, f));
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      GANTRY_HOOK_LOG: 'off',
      GANTRY_HOOK_DAEMON_IDLE_MS: '5000',
    };
    const inProcess = { ...env, GANTRY_HOOK_DAEMON: '0' };
    const check = ['check', '--', 'git status'];
    const installed = [path.join(pkg, 'bin/gantry.js'), ...check];
    const checkout = [path.join(repo, 'bin/gantry.js'), ...check];
    timeRun(installed, inProcess, project); // page cache warm for all
    // Start the resident server with one hook call and wait for its socket.
    const hookCall = JSON.stringify({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      cwd: project,
    });
    timeRun([path.join(pkg, 'bin/gantry.js'), 'hook'], env, project, hookCall);
    const runDir = path.join(home, '.gantry', 'run');
    for (
      let i = 0;
      i < 100 && !(existsSync(runDir) && readdirSync(runDir).some((f) => f.endsWith('.sock')));
      i++
    )
      await new Promise((r) => setTimeout(r, 50));
    if (!readdirSync(runDir).some((f) => f.endsWith('.sock')))
      throw new Error('the resident server did not start');
    timeRun(installed, env, project);
    const t = {
      node: [] as number[],
      installed: [] as number[],
      checkout: [] as number[],
      installedLocal: [] as number[],
      checkoutLocal: [] as number[],
    };
    for (let i = 0; i < RUNS; i++) {
      t.node.push(timeRun(['-e', '0'], env, project));
      t.installed.push(timeRun(installed, env, project));
      t.checkout.push(timeRun(checkout, env, project));
      t.installedLocal.push(timeRun(installed, inProcess, project));
      t.checkoutLocal.push(timeRun(checkout, inProcess, project));
    }
    const node = median(t.node);
    const [inst, co, instLocal, coLocal] = [t.installed, t.checkout, t.installedLocal, t.checkoutLocal].map(
      median,
    ) as [number, number, number, number];
    return {
      name: `gantry check cold start (median of ${RUNS} process starts)`,
      figures: {
        'node -e 0 ms': node,
        'installed, resident server ms': inst,
        'checkout, resident server ms': co,
        'installed, in-process ms': instLocal,
        'checkout, in-process ms': coLocal,
        'installed, resident server ratio to node -e 0': inst / node,
        'checkout, resident server ratio to node -e 0': co / node,
        'installed, in-process ratio to node -e 0': instLocal / node,
        'checkout, in-process ratio to node -e 0': coLocal / node,
      },
      targets: {
        'installed, resident server ratio ≤ 2.0': inst / node <= 2.0,
        'checkout, resident server ratio ≤ 2.0': co / node <= 2.0,
        'installed, in-process ratio ≤ 2.0': instLocal / node <= 2.0,
        'checkout, in-process ratio ≤ 2.0': coLocal / node <= 2.0,
      },
      notes: [
        "Each run decides `git status` with the user's settings (none) in a fresh process.",
        'In-process is the fallback when no server runs; a check never starts a server itself.',
        'In-process runs take the code cache the first (untimed) run made in the scratch home.',
      ],
    };
  } finally {
    await new Promise((r) => setTimeout(r, 5500)); // the server exits 5 s after its last request
    rmSync(root, { recursive: true, force: true });
  }
}
