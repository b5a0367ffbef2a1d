/**
 * Peak RSS of the Bash tool running `yes | head -c 1000000000` (1 GB of output, spilled to a file),
 * target under 150 MB.
 *
 * Each figure is the `process.resourceUsage().maxRSS` of a fresh child Node process, so it is the
 * tool's peak, not the harness's:
 * - baseline: bare `node -e 0` (the ratio's denominator, as the issue asks);
 * - tool ready + `echo hi`: the Bash tool with its parser initialised through `describeCall` (as the
 *   runtime does before every call) running a trivial command: what the tool costs before output
 *   matters;
 * - tool ready + 1 GB: the same, running `yes | head -c 1000000000`.
 * The difference of the last two is what output handling costs.
 *
 * The tool runs from an esbuild bundle of this file (dependencies external, loaded from
 * node_modules as a published build would), under V8's default flags and under `--liftoff-only`
 * (the flag `gantry hook` sets, docs/dependencies.md "Start-up cost of one-shot processes": the tree-sitter grammar's background wasm tier-up
 * compile alone adds ~30 MB of peak whatever the command prints). One more run through tsx shows
 * the development setup, where transpiling the sources adds ~70 MB. The child mode is selected by
 * `GANTRY_BASH_BENCH_CHILD`.
 *
 * Per-call cost, side by side with a baseline (`GANTRY_BASH_BENCH_BASELINE`, default `main`: its
 * `src/` is extracted with `git archive` under node_modules/.cache, so it resolves the same
 * dependencies): three fresh tsx children, each loading both trees and interleaving their calls
 * (so a change of load falls on both alike), run the Bash tool on `true` (after a warm-up) and,
 * separately, `startProcess` on a plain spec (`true` itself, not a Bash tool spec). Per call: wall
 * time, and CPU time of the Node process plus its reaped children (`/proc/self/stat`
 * cutime/cstime) plus each tree's group watchdog (its own `/proc/<pid>/stat`), in µs. The median of
 * the three children is reported, and this tree minus the baseline. `GANTRY_BASH_BENCH_PARTS` picks `rss`, `per-call` or both (default).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchReport } from './run.js';

const BIG = 'yes | head -c 1000000000';
const TARGET_BYTES = 150 * 1024 * 1024;
const thisFile = fileURLToPath(import.meta.url);
const repoRoot = path.resolve(path.dirname(thisFile), '..');

/** Child mode: run `command` through the tool; print `{maxRssBytes, spilledBytes, …}` as the last line. */
async function child(command: string): Promise<void> {
  const { stat } = await import('node:fs/promises');
  const { createBashTool } = await import('../src/tools/bash/bash.tool.js');
  const { makeTestSession, runTool } = await import('../src/testing/tool-harness.js');
  const tool = createBashTool();
  const session = await makeTestSession();
  await tool.describeCall({ command }, session.context);
  const started = Date.now();
  const result = await runTool<{ persistedOutputPath?: string; stdout: string }>(
    tool,
    { command },
    session.context,
  );
  if (!result.ok) throw new Error(result.error);
  const spilled = result.data.persistedOutputPath ? (await stat(result.data.persistedOutputPath)).size : 0;
  const out = {
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    spilledBytes: spilled,
    modelChars: result.data.stdout.length,
    seconds: (Date.now() - started) / 1000,
  };
  await session.cleanup();
  console.log(JSON.stringify(out));
}

/** Clock ticks per second of /proc's times (`getconf CLK_TCK`; 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU clock ticks in /proc/<pid>/stat: `own` = utime + stime, `children` = cutime + cstime (reaped children). */
function statTicks(pid: number | 'self'): { own: number; children: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    // fields[0] is field 3 (state): utime 14, stime 15, cutime 16, cstime 17.
    return { own: f[11]! + f[12]!, children: f[13]! + f[14]! };
  } catch {
    return { own: 0, children: 0 };
  }
}

/** One tree's loaded modules and its two per-call workloads. */
interface TreeUnderTest {
  viaTool: () => Promise<void>;
  plain: () => Promise<void>;
  watchdogPid: () => number | undefined;
  cleanup: () => Promise<void>;
}

async function loadTree(root: string): Promise<TreeUnderTest> {
  const load = (rel: string) => import(pathToFileURL(path.join(root, rel)).href);
  const { createBashTool } = await load('src/tools/bash/bash.tool.ts');
  const { makeTestSession, runTool } = await load('src/testing/tool-harness.ts');
  const { startProcess } = await load('src/tools/bash/exec.ts');
  const { groupWatchdogPid } = await load('src/tools/bash/group-watchdog.ts');
  const tool = createBashTool();
  const session = await makeTestSession();
  await tool.describeCall({ command: 'true' }, session.context);
  return {
    viaTool: async () => {
      const r = await runTool(tool, { command: 'true' }, session.context);
      if (!r.ok) throw new Error(r.error);
    },
    plain: async () => {
      const spec = {
        file: 'true',
        args: [],
        cwd: session.root,
        env: { PATH: process.env.PATH },
        harnessWritablePaths: [],
      };
      const proc = await startProcess({
        spec,
        outputFile: path.join(session.root, 'plain.out'),
        graceMs: 100,
      });
      await proc.exited;
    },
    watchdogPid: () => groupWatchdogPid(),
    cleanup: () => session.cleanup(),
  };
}

/**
 * The gate alone, in this tree: `spawn` → exit of `true`, without the rest of startProcess (no
 * /proc scans, no watchdog), ungated against gated, interleaved; for a Bash tool spec (its bash
 * reads the gate) and for a plain spec (`/bin/sh` reads it). µs per spawn: `{shell|plain}{Ungated|Gated}{Wall|Cpu}Us`.
 */
async function gateAlone(root: string, calls: number): Promise<Record<string, number>> {
  const { spawn } = await import('node:child_process');
  const load = (rel: string) => import(pathToFileURL(path.join(root, rel)).href);
  const { gatedArgv, GATE_GO } = await load('src/tools/bash/spawn-gate.ts');
  const { buildShellSpawnSpec } = await load('src/tools/bash/spawn-spec.ts');
  const cwd = repoRoot;
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  const shell = buildShellSpawnSpec({ command: 'true', cwd, cwdFile: '/dev/null', env });
  const plain = { file: 'true', args: [], cwd, env, harnessWritablePaths: [] };
  const run = (spec: { file: string; args: string[] }, gated: boolean) =>
    new Promise<void>((resolve, reject) => {
      const argv = gated ? gatedArgv(spec) : spec;
      const child = spawn(argv.file, argv.args, {
        cwd,
        env,
        stdio: gated ? ['ignore', 'ignore', 'ignore', 'pipe'] : ['ignore', 'ignore', 'ignore'],
        detached: true,
      });
      child.once('error', reject);
      // As exec.ts does: the go-ahead right after the spawn returns.
      (child.stdio[3] as import('node:stream').Writable | null | undefined)?.end(GATE_GO);
      child.once('exit', () => resolve());
    });
  const variants: [string, () => Promise<void>][] = [
    ['shellUngated', () => run(shell, false)],
    ['shellGated', () => run(shell, true)],
    ['plainUngated', () => run(plain, false)],
    ['plainGated', () => run(plain, true)],
  ];
  const out: Record<string, number> = {};
  for (const [, fn] of variants) for (let i = 0; i < 20; i++) await fn();
  const wall = variants.map(() => 0);
  const cpu = variants.map(() => 0);
  const nodeCpu = variants.map(() => 0);
  for (let i = 0; i < calls; i++) {
    for (let j = 0; j < variants.length; j++) {
      const k = i % 2 === 0 ? j : variants.length - 1 - j;
      const k0 = statTicks('self').children;
      const c0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      await variants[k]![1]();
      wall[k]! += Number(process.hrtime.bigint() - t0) / 1000;
      const own = process.cpuUsage(c0);
      nodeCpu[k]! += own.user + own.system;
      cpu[k]! += own.user + own.system + ((statTicks('self').children - k0) * 1e6) / TICKS_PER_SECOND;
    }
  }
  variants.forEach(([name], k) => {
    out[`${name}WallUs`] = wall[k]! / calls;
    out[`${name}CpuUs`] = cpu[k]! / calls;
    out[`${name}NodeCpuUs`] = nodeCpu[k]! / calls;
  });
  return out;
}

/**
 * Per-call child: loads every tree in `roots` into this one process and runs their calls
 * interleaved (A B B A A B …), so a change of load on the machine (or of the number of processes
 * /proc scans walk) falls on both alike. Prints, per root, `{tool…, plain…}` µs per call.
 */
async function perCallChild(roots: string[], calls: number): Promise<void> {
  const trees = await Promise.all(roots.map(loadTree));
  const result: Record<string, number>[] = roots.map(() => ({}));
  for (const kind of ['viaTool', 'plain'] as const) {
    for (const t of trees) for (let i = 0; i < 20; i++) await t[kind]();
    const wall = trees.map(() => 0);
    const cpu = trees.map(() => 0);
    const watchdogTicks = trees.map((t) => statTicks(t.watchdogPid() ?? 'self').own);
    for (let i = 0; i < calls; i++) {
      for (let j = 0; j < trees.length; j++) {
        const k = i % 2 === 0 ? j : trees.length - 1 - j;
        const k0 = statTicks('self').children;
        const c0 = process.cpuUsage();
        const t0 = process.hrtime.bigint();
        await trees[k]![kind]();
        wall[k]! += Number(process.hrtime.bigint() - t0) / 1000;
        const own = process.cpuUsage(c0);
        // Node's own CPU in µs; the reaped command's (and any wrapper's) in clock ticks.
        cpu[k]! += own.user + own.system + ((statTicks('self').children - k0) * 1e6) / TICKS_PER_SECOND;
      }
    }
    trees.forEach((t, k) => {
      const pid = t.watchdogPid();
      const watchdog = pid ? ((statTicks(pid).own - watchdogTicks[k]!) * 1e6) / TICKS_PER_SECOND : 0;
      const prefix = kind === 'viaTool' ? 'tool' : 'plain';
      result[k]![`${prefix}WallUs`] = wall[k]! / calls;
      result[k]![`${prefix}CpuUs`] = (cpu[k]! + watchdog) / calls;
    });
  }
  for (const t of trees) await t.cleanup();
  Object.assign(result[0]!, await gateAlone(roots[0]!, calls));
  console.log(JSON.stringify(result));
}

/** The baseline's `src/` under node_modules/.cache (resolving this tree's node_modules), or undefined without git. */
function baselineTree(ref: string): string | undefined {
  const dir = path.join(
    repoRoot,
    'node_modules',
    '.cache',
    'gantry-bench',
    `baseline-${ref.replace(/[^\w.-]/g, '_')}`,
  );
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    const tar = execFileSync('git', ['-C', repoRoot, 'archive', ref, 'src'], {
      maxBuffer: 256 * 1024 * 1024,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    return dir;
  } catch {
    return undefined;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Per-call figures of this tree against the baseline, alternating children (see the module comment). */
function perCall(figures: BenchReport['figures'], notes: string[]): void {
  const ref = process.env.GANTRY_BASH_BENCH_BASELINE ?? 'main';
  const baseline = baselineTree(ref);
  const calls = Number(process.env.GANTRY_BASH_BENCH_CALLS ?? 200);
  const trees: [string, string][] = [['this tree', repoRoot]];
  if (baseline) trees.push([ref, baseline]);
  else notes.push(`per-call: no baseline (git archive ${ref} failed); this tree only`);
  const runs = trees.map(() => [] as Record<string, number>[]);
  for (let round = 0; round < 3; round++) {
    const stdout = execFileSync(process.execPath, ['--import', 'tsx', thisFile], {
      env: {
        ...process.env,
        GANTRY_BASH_BENCH_PERCALL: JSON.stringify(trees.map(([, root]) => root)),
        GANTRY_BASH_BENCH_CALLS: String(calls),
      },
      encoding: 'utf8',
    });
    const rows = JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, number>[];
    rows.forEach((row, k) => runs[k]!.push(row));
  }
  const names = {
    toolWallUs: 'Bash tool `true` wall µs/call',
    toolCpuUs: 'Bash tool `true` CPU µs/call',
    plainWallUs: 'startProcess plain spec `true` wall µs/call',
    plainCpuUs: 'startProcess plain spec `true` CPU µs/call',
  };
  const med = (k: number, key: keyof typeof names) => median(runs[k]!.map((r) => r[key]!));
  for (const key of Object.keys(names) as (keyof typeof names)[]) {
    trees.forEach(([label], k) => {
      figures[`[per call, ${label}] ${names[key]}`] = med(k, key);
    });
    if (baseline) {
      figures[`[per call, added vs ${ref}] ${names[key]}`] = med(0, key) - med(1, key);
      figures[`[per call, ratio vs ${ref}] ${names[key]}`] = med(0, key) / med(1, key);
    }
  }
  const gate = (key: string) => median(runs[0]!.map((r) => r[key]!));
  for (const kind of ['shell', 'plain'] as const) {
    const label =
      kind === 'shell' ? 'Bash tool spec (its bash reads the gate)' : 'plain spec (/bin/sh reads the gate)';
    for (const m of ['Wall', 'Cpu', 'NodeCpu'] as const) {
      const [ungated, gated] = [gate(`${kind}Ungated${m}Us`), gate(`${kind}Gated${m}Us`)];
      const what = { Wall: 'wall', Cpu: 'CPU', NodeCpu: 'Node-only CPU' }[m];
      figures[`[gate alone, ${label}] spawn→exit ${what} µs ungated`] = ungated;
      figures[`[gate alone, ${label}] spawn→exit ${what} µs gated`] = gated;
      figures[`[gate alone, ${label}] added ${what} µs`] = gated - ungated;
    }
  }
  if (baseline) rmSync(baseline, { recursive: true, force: true });
}

function runChild(args: string[], env: Record<string, string> = {}): Record<string, number> {
  const stdout = execFileSync(process.execPath, args, {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, number>;
}

/** Bundles this file (dependencies external) into node_modules/.cache, with the prompt files beside it. */
async function bundle(): Promise<string> {
  const { build } = await import('esbuild');
  const outDir = path.join(repoRoot, 'node_modules', '.cache', 'gantry-bench');
  mkdirSync(outDir, { recursive: true });
  const outfile = path.join(outDir, 'bash-tool.bench.mjs');
  await build({
    entryPoints: [thisFile],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'error',
  });
  const promptDir = path.join(repoRoot, 'src', 'tools', 'bash');
  for (const f of readdirSync(promptDir)) {
    if (f.endsWith('.prompt.md')) copyFileSync(path.join(promptDir, f), path.join(outDir, f));
  }
  return outfile;
}

export default async function bench(): Promise<BenchReport> {
  const parts = (process.env.GANTRY_BASH_BENCH_PARTS ?? 'rss,per-call').split(',');
  const figures: BenchReport['figures'] = {};
  const targets: Record<string, boolean> = {};
  const notes: string[] = [];
  if (parts.includes('rss')) await rss(figures, targets);
  if (parts.includes('per-call')) perCall(figures, notes);
  return {
    name: 'Bash tool peak RSS with 1 GB of output; per-call cost against a baseline',
    figures,
    targets,
    notes: [
      'Output goes from the command straight to the spill file (fds 1 and 2 = the file); the tool reads it back through one 1 MiB buffer, decoded in 32 KiB slices, into bounded head/tail/error-line buffers.',
      'Most of the RSS is Node, the modules and the tree-sitter grammar, not output: compare each 1 GB run with the echo run of the same flags.',
      'Per call: CPU counts the Node process (process.cpuUsage, µs), its reaped children (the command, any gate wrapper) and the group watchdog (10 ms clock ticks summed over all calls of a run: a command of ~5 ms is half a tick, so the children part carries a few hundred µs of sampling noise per call; Node-only CPU is exact).',
      ...notes,
    ],
  };
}

async function rss(figures: BenchReport['figures'], targets: Record<string, boolean>): Promise<void> {
  const bare = runChild([
    '-e',
    'console.log(JSON.stringify({maxRssBytes: process.resourceUsage().maxRSS * 1024}))',
  ]);
  const bundled = await bundle();
  const mb = (bytes: number) => bytes / (1024 * 1024);
  figures['bare node -e 0 maxRSS MB'] = mb(bare.maxRssBytes!);
  for (const [label, flags] of [
    ['bundled, default V8 flags', []],
    ['bundled, --liftoff-only', ['--liftoff-only']],
  ] as const) {
    const run = (command: string) => runChild([...flags, bundled], { GANTRY_BASH_BENCH_CHILD: command });
    const small = run('echo hi');
    const big = run(BIG);
    figures[`[${label}] tool ready + echo hi maxRSS MB`] = mb(small.maxRssBytes!);
    figures[`[${label}] tool ready + 1 GB output maxRSS MB`] = mb(big.maxRssBytes!);
    figures[`[${label}] ratio 1 GB run / bare node`] = big.maxRssBytes! / bare.maxRssBytes!;
    figures[`[${label}] output handling MB (1 GB run - echo run)`] = mb(
      big.maxRssBytes! - small.maxRssBytes!,
    );
    figures[`[${label}] spill file bytes`] = big.spilledBytes!;
    figures[`[${label}] model-visible chars`] = big.modelChars!;
    figures[`[${label}] 1 GB wall time s`] = big.seconds!;
    targets[`[${label}] peak RSS < 150 MB`] = big.maxRssBytes! < TARGET_BYTES;
    targets[`[${label}] spill file holds the whole 1 GB`] = big.spilledBytes === 1_000_000_000;
  }
  const dev = runChild(['--import', 'tsx', thisFile], { GANTRY_BASH_BENCH_CHILD: BIG });
  figures['[tsx, development] tool ready + 1 GB output maxRSS MB'] = mb(dev.maxRssBytes!);
  figures['[tsx, development] ratio 1 GB run / bare node'] = dev.maxRssBytes! / bare.maxRssBytes!;
}

if (process.argv[1] === thisFile || process.argv[1]?.endsWith('bash-tool.bench.mjs')) {
  if (process.env.GANTRY_BASH_BENCH_CHILD) await child(process.env.GANTRY_BASH_BENCH_CHILD);
  if (process.env.GANTRY_BASH_BENCH_PERCALL)
    await perCallChild(
      JSON.parse(process.env.GANTRY_BASH_BENCH_PERCALL) as string[],
      Number(process.env.GANTRY_BASH_BENCH_CALLS ?? 200),
    );
}
