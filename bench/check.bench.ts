/**
 * `gantry check` cold start: wall time of one `gantry check -- 'git status'` process, median of 20
 * runs, against `node -e 0` measured in the same run, interleaved so machine load affects all alike.
 * Target: ratio ≤ 2.0.
 *
 * - installed: bin/gantry.js laid out as in an installed package (no src/ beside it, so no source
 *   comparison), running the built dist/ of this checkout;
 * - checkout: bin/gantry.js of this checkout, which first compares dist/ with the sources;
 * - sources through tsx: how bin/gantry.js ran `check` before it ran the built code (for reference;
 *   tsx's transform cache is warm after the first run).
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchReport } from './run.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = 20;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function timeRun(args: string[], env: NodeJS.ProcessEnv, cwd: string): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, cwd, encoding: 'utf8' });
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
    copyFileSync(path.join(repo, 'bin/gantry.js'), path.join(pkg, 'bin/gantry.js'));
    for (const f of ['dist', 'node_modules', 'package.json'])
      symlinkSync(path.join(repo, f), path.join(pkg, f));
    const env = { PATH: process.env.PATH, HOME: home };
    const check = ['check', '--', 'git status'];
    const installed = [path.join(pkg, 'bin/gantry.js'), ...check];
    const checkout = [path.join(repo, 'bin/gantry.js'), ...check];
    const tsxRunner = path.join(root, 'tsx-runner.mjs');
    writeFileSync(
      tsxRunner,
      [
        `import { register } from ${JSON.stringify(pathToFileURL(path.join(repo, 'node_modules/tsx/dist/esm/api/index.mjs')).href)};`,
        'register();',
        `const { main } = await import(${JSON.stringify(pathToFileURL(path.join(repo, 'src/cli/main.ts')).href)});`,
        'await main(process.argv);',
      ].join('\n'),
    );
    const sources = [tsxRunner, ...check];
    timeRun(installed, env, project); // page cache warm for all
    timeRun(sources, env, project); // tsx's transform cache warm
    const t = {
      node: [] as number[],
      installed: [] as number[],
      checkout: [] as number[],
      sources: [] as number[],
    };
    for (let i = 0; i < RUNS; i++) {
      t.node.push(timeRun(['-e', '0'], env, project));
      t.installed.push(timeRun(installed, env, project));
      t.checkout.push(timeRun(checkout, env, project));
      t.sources.push(timeRun(sources, env, project));
    }
    const node = median(t.node);
    const inst = median(t.installed);
    const co = median(t.checkout);
    const src = median(t.sources);
    return {
      name: `gantry check cold start (median of ${RUNS} process starts)`,
      figures: {
        'node -e 0 ms': node,
        'installed gantry check ms': inst,
        'checkout gantry check ms': co,
        'sources through tsx ms': src,
        'installed ratio to node -e 0': inst / node,
        'checkout ratio to node -e 0': co / node,
        'sources through tsx ratio to node -e 0': src / node,
      },
      targets: {
        'installed ratio ≤ 2.0': inst / node <= 2.0,
        'checkout ratio ≤ 2.0': co / node <= 2.0,
      },
      notes: ["Each run decides `git status` with the user's settings (none) in a fresh process."],
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
