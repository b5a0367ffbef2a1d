/**
 * bench/print: `gantry -p` side by side with Claude Code's `claude -p` on the same scripted fake
 * Messages API (real HTTP + SSE on 127.0.0.1) and the same 10-turn session: nine tool calls (Read
 * of a ~2K-character file, Bash `echo`) and a final answer, `--output-format json`, bypass mode in
 * both (nothing may stop at a permission), a fresh project per run, and one HOME per CLI kept across its runs as a
 * user's is (the first run of each, in the fresh HOME, is an untimed warm-up reported apart).
 *
 * Figures: wall time of the whole process (spawn to exit) per CLI, median over the runs, which
 * alternate which CLI goes first, split into start-up (spawn → first model request) and session
 * (first request → exit); the ratios; each CLI's share of input tokens read from the fake's
 * simulated prompt cache on turns 2–10 (the smallest of those turns), and the input tokens per
 * turn that were not cache reads.
 * Targets: gantry wall ≤ 0.5 × Claude Code's; cache reads ≥ 90% of input from turn 2 on, both.
 *
 * Claude Code is never a dependency: the bench uses `GANTRY_BENCH_CLAUDE_CODE` (a path to a
 * `claude` executable) when set, else installs `@anthropic-ai/claude-code` at the version below
 * into a scratch directory under the OS temp dir (outside the repository) on first use, with the
 * npm client. It runs as the peer notes ran it: `ANTHROPIC_BASE_URL` at the fake,
 * `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1`, `--permission-mode bypassPermissions`
 * (`IS_SANDBOX=1`, as this bench may run as root). When it cannot be installed or run, the report
 * says why and benches Gantry alone.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../src/testing/fake-anthropic-server.js';
import { type FakeReply, reply, type ScriptEntry } from '../src/testing/fake-model-script.js';
import type { BenchReport } from './run.js';

const CLAUDE_CODE_VERSION = '2.1.332';
const RUNS = Number(process.env.GANTRY_BENCH_PRINT_RUNS ?? 5);
const TURNS = 10;
const KEY = 'sk-bench-print';
/** The gantry entry to run: bin/gantry.js, or another build of it (`GANTRY_BENCH_GANTRY_ENTRY`). */
const GANTRY_BIN =
  process.env.GANTRY_BENCH_GANTRY_ENTRY ?? fileURLToPath(new URL('../bin/gantry.js', import.meta.url));

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

/** The claude executable, or why there is none. */
function claudeCode(): { bin: string } | { reason: string } {
  const given = process.env.GANTRY_BENCH_CLAUDE_CODE;
  if (given)
    return existsSync(given)
      ? { bin: given }
      : { reason: `GANTRY_BENCH_CLAUDE_CODE=${given} does not exist` };
  const dir = path.join(tmpdir(), 'gantry-bench-claude-code');
  const bin = path.join(dir, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(path.join(dir, 'package.json')))
      writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
    const r = spawnSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '-E', `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`],
      { cwd: dir, encoding: 'utf8', timeout: 600_000 },
    );
    if (r.status !== 0 || !existsSync(bin))
      return {
        reason: `npm install @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} failed: ${(r.stderr || r.error?.message || '').slice(-400)}`,
      };
  }
  const v = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (v.status !== 0)
    return { reason: `${bin} --version failed: ${(v.stderr || v.error?.message || '').slice(-400)}` };
  return { bin };
}

/** Nine tool calls over the project's files, then the answer; `arrivals` gets each request's time. */
function script(project: string, arrivals: number[]): ScriptEntry[] {
  const entries: FakeReply[] = [];
  for (let i = 0; i < TURNS - 1; i++) {
    entries.push(
      i % 3 === 2
        ? reply.toolUse('Bash', { command: `echo step-${i}`, description: `Print step ${i}` })
        : reply.toolUse('Read', { file_path: path.join(project, `file-${i}.txt`) }),
    );
  }
  entries.push(reply.text('All ten turns done.'));
  return entries.map((entry) => () => {
    arrivals.push(performance.now());
    return entry;
  });
}

interface RunFigures {
  wallMs: number;
  /** Spawn → first model request (start-up: module loading, settings, session set-up). */
  startupMs: number;
  /** First model request → process exit (the turns, and shutting down). */
  sessionMs: number;
  ok: boolean;
  detail: string;
  /** Cache-read share of input tokens per model request. */
  cacheShares: number[];
  /** Input tokens not read from the cache (uncached + cache writes) per model request. */
  uncached: number[];
  requests: number;
}

/** A fresh project per run; `home` is the CLI's own HOME, kept across its runs as a user's is. */
function world(home: string): { root: string; home: string; project: string } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-bench-print-')));
  const project = path.join(root, 'project');
  mkdirSync(project, { recursive: true });
  for (let i = 0; i < TURNS; i++)
    writeFileSync(
      path.join(project, `file-${i}.txt`),
      Array.from({ length: 40 }, (_, l) => `file ${i} line ${l}: some stable content for the bench`).join(
        '\n',
      ),
    );
  return { root, home, project };
}

function baseEnv(home: string, url: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(ANTHROPIC_|OPENAI_|CLAUDE|GANTRY_)/.test(k)) env[k] = v;
  return { ...env, HOME: home, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url };
}

function runProcess(cmd: string, args: string[], cwd: string, env: Record<string, string>) {
  return new Promise<{
    code: number | null;
    stdout: string;
    stderr: string;
    ms: number;
    start: number;
    end: number;
  }>((resolve) => {
    const t = performance.now();
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const end = performance.now();
      resolve({ code, stdout, stderr, ms: end - t, start: t, end });
    });
  });
}

function usages(fake: FakeAnthropicServer) {
  return fake.messageRequests
    .filter((r) => r.route === undefined && r.usage)
    .map((r) => r.usage as NonNullable<typeof r.usage>);
}

function shares(fake: FakeAnthropicServer): number[] {
  return usages(fake).map((u) => {
    const total = u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;
    return total ? u.cache_read_input_tokens / total : 0;
  });
}

async function runOnce(
  which: 'gantry' | 'claude',
  claudeBin: string | undefined,
  home: string,
): Promise<RunFigures> {
  const w = world(home);
  const arrivals: number[] = [];
  // Requests that are not the main loop's (a side query of either CLI) get a short answer off-script.
  const fake = await startFakeAnthropicServer({
    apiKey: KEY,
    script: script(w.project, arrivals),
    routes: [
      {
        name: 'side query',
        when: (r) => !Array.isArray(r.body?.tools) || r.body.tools.length === 0,
        script: () => reply.text('ok'),
      },
    ],
  });
  try {
    const env = baseEnv(w.home, fake.url);
    const prompt = 'Read the project files one by one as I direct, then report.';
    const r =
      which === 'gantry'
        ? await runProcess(
            process.execPath,
            [GANTRY_BIN, '-p', '--output-format', 'json', '--permission-mode', 'bypassPermissions', prompt],
            w.project,
            env,
          )
        : await runProcess(
            claudeBin as string,
            ['-p', '--output-format', 'json', '--permission-mode', 'bypassPermissions', prompt],
            w.project,
            {
              ...env,
              CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
              IS_SANDBOX: '1',
              DISABLE_AUTOUPDATER: '1',
            },
          );
    let ok = false;
    let detail = '';
    try {
      const result = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '') as {
        result?: string;
        num_turns?: number;
      };
      ok = r.code === 0 && result.result === 'All ten turns done.';
      detail = `exit ${r.code}, num_turns ${result.num_turns}`;
    } catch {
      detail = `exit ${r.code}, stdout ${r.stdout.slice(0, 200)} stderr ${r.stderr.slice(-300)}`;
    }
    const main = fake.messageRequests.filter((q) => q.route === undefined);
    const first = arrivals[0] ?? r.end;
    return {
      wallMs: r.ms,
      startupMs: first - r.start,
      sessionMs: r.end - first,
      ok,
      detail,
      cacheShares: shares(fake),
      uncached: usages(fake).map((u) => u.input_tokens + u.cache_creation_input_tokens),
      requests: main.length,
    };
  } finally {
    await fake.close();
    rmSync(w.root, { recursive: true, force: true });
  }
}

export default async function printBench(): Promise<BenchReport> {
  const cc = claudeCode();
  const claudeBin = 'bin' in cc ? cc.bin : undefined;
  const gantry: RunFigures[] = [];
  const claude: RunFigures[] = [];
  // Each CLI keeps one HOME across its runs, as a user's is: the first run of each, untimed, leaves
  // what a CLI keeps between runs (Gantry's code cache in ~/.gantry/cache, Claude Code's state in
  // ~/.claude) and warms the OS page cache (the 400 MB binary). Its wall time is reported apart.
  const homes = {
    gantry: realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-bench-print-home-'))),
    claude: realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-bench-print-home-'))),
  };
  let gantryFirst: RunFigures;
  let claudeFirst: RunFigures | undefined;
  try {
    gantryFirst = await runOnce('gantry', claudeBin, homes.gantry);
    if (claudeBin) claudeFirst = await runOnce('claude', claudeBin, homes.claude);
    for (let i = 0; i < RUNS; i++) {
      const order: ('gantry' | 'claude')[] = i % 2 === 0 ? ['gantry', 'claude'] : ['claude', 'gantry'];
      for (const which of order) {
        if (which === 'claude' && !claudeBin) continue;
        (which === 'gantry' ? gantry : claude).push(await runOnce(which, claudeBin, homes[which]));
      }
    }
  } finally {
    for (const h of Object.values(homes)) rmSync(h, { recursive: true, force: true });
  }
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const fromTurn2 = (runs: RunFigures[]) => Math.min(...runs.flatMap((r) => r.cacheShares.slice(1)));
  const gWall = median(gantry.map((r) => r.wallMs));
  const figures: BenchReport['figures'] = {
    runs: RUNS,
    'gantry -p wall ms (median)': gWall,
    'gantry start-up ms, spawn → first request (median)': median(gantry.map((r) => r.startupMs)),
    'gantry session ms, first request → exit (median)': median(gantry.map((r) => r.sessionMs)),
    'gantry model requests per run': gantry[0]?.requests ?? 0,
    'gantry runs that completed the session': `${gantry.filter((r) => r.ok).length}/${gantry.length}`,
    'gantry cache read % per turn (first run)': (gantry[0]?.cacheShares ?? []).map(pct).join(' / '),
    'gantry cache read % min from turn 2': pct(fromTurn2(gantry)),
    'gantry uncached input tokens per turn (first run)': (gantry[0]?.uncached ?? []).join(' / '),
    'gantry first run in a fresh HOME, wall ms (untimed warm-up)': gantryFirst.wallMs,
  };
  const targets: BenchReport['targets'] = {
    'gantry cache reads ≥ 90% of input from turn 2 on': fromTurn2(gantry) >= 0.9,
  };
  const notes: string[] = [
    `gantry entry: ${GANTRY_BIN}`,
    'each CLI keeps one HOME across its runs; its first run (fresh HOME) is an untimed warm-up',
  ];
  if (claudeBin) {
    const cWall = median(claude.map((r) => r.wallMs));
    Object.assign(figures, {
      'claude -p wall ms (median)': cWall,
      'claude start-up ms, spawn → first request (median)': median(claude.map((r) => r.startupMs)),
      'claude session ms, first request → exit (median)': median(claude.map((r) => r.sessionMs)),
      'gantry / claude wall ratio': gWall / cWall,
      'gantry / claude session ratio (without start-up)':
        median(gantry.map((r) => r.sessionMs)) / median(claude.map((r) => r.sessionMs)),
      'claude model requests per run': claude[0]?.requests ?? 0,
      'claude runs that completed the session': `${claude.filter((r) => r.ok).length}/${claude.length}`,
      'claude cache read % per turn (first run)': (claude[0]?.cacheShares ?? []).map(pct).join(' / '),
      'claude cache read % min from turn 2': pct(fromTurn2(claude)),
      'claude uncached input tokens per turn (first run)': (claude[0]?.uncached ?? []).join(' / '),
      'claude first run in a fresh HOME, wall ms (untimed warm-up)': claudeFirst?.wallMs ?? 0,
      'first runs, gantry / claude wall ratio': gantryFirst.wallMs / (claudeFirst?.wallMs ?? Number.NaN),
    });
    targets['gantry -p wall ≤ 0.5 × claude -p'] = gWall <= 0.5 * cWall;
    targets['claude cache reads ≥ 90% of input from turn 2 on'] = fromTurn2(claude) >= 0.9;
    notes.push(`Claude Code ${CLAUDE_CODE_VERSION} from ${claudeBin}`);
    for (const r of claude.filter((x) => !x.ok)) notes.push(`claude run did not complete: ${r.detail}`);
  } else {
    notes.push(`Claude Code not benched: ${(cc as { reason: string }).reason}`);
  }
  for (const r of gantry.filter((x) => !x.ok)) notes.push(`gantry run did not complete: ${r.detail}`);
  return { name: 'gantry -p vs claude -p, 10-turn scripted session', figures, targets, notes };
}
