/**
 * File-tools benchmark:
 *
 * - Grep (files_with_matches and content; a literal and a regex) and Glob, run through the tools'
 *   own call + result mapping, against raw ripgrep run with the same arguments the tools pass
 *   (the same binary, spawned the same way, output drained). Median wall time of alternating runs;
 *   ratio = ours / raw. Targets: Grep ≤ 1.15, Glob ≤ 1.25.
 *   Also reported (no target): ratios against what a user would type for the same answer with
 *   ripgrep's own mtime sort (`rg -l --sortr=modified`, `rg --files --sort=modified`), and against
 *   plain unsorted `rg -l` / `rg --files -g` (what the mtime order the spec asks for costs).
 * - Read of 2,000 lines at a deep offset in a 1 GiB file, in a child process (bundled with esbuild,
 *   plain node, so tsx's own ~35 MB is not counted): wall time and peak RSS
 *   (`process.resourceUsage().maxRSS`), beside the same child that only loads the tool. Target: peak
 *   RSS < 100 MB. Reference time: `sed -n 'A,Bp;Bq'` on the same file. The 2,000 lines are ~55k
 *   tokens, over Read's default 25k output cap, so the child raises it (`compat.readMaxOutputTokens`).
 *
 * The tree is @mui/icons-material@9.5.0 (43,010 files, MIT), fetched with `npm pack` into the
 * gitignored `.bench-tmp/` on first use and reused after; the 1 GiB file is generated there too.
 */
import { execFile, spawn } from 'node:child_process';
import { createWriteStream, existsSync, statSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import type { AnyTool, ToolUseContext } from '../src/core/index.js';
import { makeToolContext, runToolOk } from '../src/testing/tool-harness.js';
import { GlobTool } from '../src/tools/glob/glob.tool.js';
import { gnuFindPath } from '../src/tools/ripgrep/find-listing.js';
import { GrepTool } from '../src/tools/grep/grep.tool.js';
import {
  DEFAULT_MAX_COLUMNS,
  resolveSearchEngine,
  ripgrepListArgs,
  ripgrepSearchArgs,
  type SearchMode,
  VCS_DIRECTORIES,
} from '../src/tools/ripgrep/index.js';
import type { BenchReport } from './run.js';

const run = promisify(execFile);
const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CACHE = path.join(REPO, '.bench-tmp');
const MUI = '@mui/icons-material@9.5.0';
const ITERATIONS = 15;
const WARMUP = 2;
const GIB = 1024 * 1024 * 1024;
const LINE_BYTES = 100;
const READ_OFFSET = 10_000_001;
const READ_LIMIT = 2_000;

/** Unpacks the npm tarball into .bench-tmp/mui/package once; returns the tree. */
async function ensureMuiTree(): Promise<string> {
  const dir = path.join(CACHE, 'mui');
  const tree = path.join(dir, 'package');
  if (existsSync(path.join(tree, 'package.json'))) return tree;
  await mkdir(dir, { recursive: true });
  const { stdout } = await run('npm', ['pack', MUI, '--pack-destination', dir, '--silent'], { cwd: dir });
  const tarball = stdout.trim().split('\n').pop() as string;
  await run('tar', ['-xzf', path.join(dir, tarball), '-C', dir]);
  return tree;
}

/** A 1 GiB text file of 100-byte numbered lines, generated once. */
async function ensureBigFile(): Promise<string> {
  const file = path.join(CACHE, 'read-1gib.txt');
  const lines = Math.ceil(GIB / LINE_BYTES);
  if (existsSync(file) && statSync(file).size === lines * LINE_BYTES) return file;
  await mkdir(CACHE, { recursive: true });
  const out = createWriteStream(file);
  const pad = 'x'.repeat(LINE_BYTES - 12);
  let chunk: string[] = [];
  for (let i = 1; i <= lines; i++) {
    chunk.push(`${String(i).padStart(10, '0')} ${pad}\n`);
    if (chunk.length === 10_000 || i === lines) {
      if (!out.write(chunk.join(''))) await new Promise<void>((r) => out.once('drain', () => r()));
      chunk = [];
    }
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  return file;
}

/** Runs one tool call through the runtime; returns the length of the model text. */
async function runTool(
  tool: AnyTool,
  input: Record<string, unknown>,
  context: ToolUseContext,
): Promise<number> {
  return JSON.stringify((await runToolOk(tool, input, context)).content).length;
}

/** Spawns raw ripgrep and drains its output; resolves with the number of bytes. */
function runRaw(rgPath: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.RIPGREP_CONFIG_PATH;
    const child = spawn(rgPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    child.stdout.on('data', (c: Buffer) => {
      bytes += c.length;
    });
    child.on('error', reject);
    child.on('close', () => resolve(bytes));
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

/** Median ms of each contender, run alternately (ITERATIONS after WARMUP). */
async function race(contenders: Record<string, () => Promise<unknown>>): Promise<Record<string, number>> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  const names = Object.keys(contenders);
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    const order = i % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const start = performance.now();
      await (contenders[name] as () => Promise<unknown>)();
      if (i >= WARMUP) (times[name] as number[]).push(performance.now() - start);
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(times[n] as number[])]));
}

interface GrepCase {
  label: string;
  pattern: string;
  mode: 'files_with_matches' | 'content';
}

const GREP_CASES: GrepCase[] = [
  { label: 'files literal (21.5k files match)', pattern: 'createSvgIcon', mode: 'files_with_matches' },
  { label: 'files literal (1.2k files match)', pattern: '"circle"', mode: 'files_with_matches' },
  {
    label: 'files regex (1.8k files match)',
    pattern: 'M\\d+\\.\\d+ \\d+\\.\\d+c',
    mode: 'files_with_matches',
  },
  { label: 'content literal (2.2k lines)', pattern: '"circle"', mode: 'content' },
  { label: 'content regex (1.9k lines)', pattern: 'M\\d+\\.\\d+ \\d+\\.\\d+c', mode: 'content' },
];

const GLOB_CASES = [
  { label: 'glob **/*Outlined.js', pattern: '**/*Outlined.js' },
  { label: 'glob **/*.js (10.8k files)', pattern: '**/*.js' },
];

/** Read in a child process; returns its timing and peak RSS (MB). */
async function readInChild(bundle: string, file: string, mode: 'read' | 'load-only') {
  const { stdout } = await run(
    process.execPath,
    [bundle, file, String(READ_OFFSET), String(READ_LIMIT), mode],
    {
      maxBuffer: 1024 * 1024,
    },
  );
  return JSON.parse(stdout) as { ms: number; maxRssMb: number; lines: number; firstLine: string };
}

const CHILD_SOURCE = `
import { ReadTool } from './src/tools/read/read.tool.ts';
import { makeToolContext } from './src/testing/tool-harness.ts';
const [file, offset, limit, mode] = process.argv.slice(2);
let ms = 0, lines = 0, firstLine = '';
if (mode === 'read') {
  // 2,000 lines of 100 bytes are ~55k tokens: raise Read's output cap so the window is returned.
  const context = makeToolContext({ cwd: '/', compat: { readMaxOutputTokens: 100000 } });
  const start = performance.now();
  const input = { file_path: file, offset: Number(offset), limit: Number(limit) };
  const generator = ReadTool.call(input, context);
  let step = await generator.next();
  while (!step.done) step = await generator.next();
  const text = ReadTool.mapToolResultToContent(step.value.data, { toolUseId: 'bench', input, context });
  ms = performance.now() - start;
  const body = typeof text === 'string' ? text : JSON.stringify(text);
  lines = body.split('\\n').filter((l) => /^\\s*\\d+/.test(l)).length;
  firstLine = body.split('\\n')[0].slice(0, 40);
}
process.stdout.write(JSON.stringify({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024, lines, firstLine }));
`;

async function benchRead(figures: BenchReport['figures'], targets: Record<string, boolean>, notes: string[]) {
  const file = await ensureBigFile();
  const bundle = path.join(CACHE, 'read-child.mjs');
  await build({
    stdin: { contents: CHILD_SOURCE, resolveDir: REPO, loader: 'ts', sourcefile: 'read-child.ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: bundle,
    logLevel: 'error',
  });
  // The bundle loads the tool's description from beside itself (import.meta.url).
  await copyFile(path.join(REPO, 'src/tools/read/read.prompt.md'), path.join(CACHE, 'read.prompt.md'));
  const loadOnly = await readInChild(bundle, file, 'load-only');
  const reads = [];
  for (let i = 0; i < 3; i++) reads.push(await readInChild(bundle, file, 'read'));
  const last = READ_OFFSET + READ_LIMIT - 1;
  const sed = await race({
    sed: () => run('sed', ['-n', `${READ_OFFSET},${last}p;${last}q`, file], { maxBuffer: 8 * 1024 * 1024 }),
  });
  const readMs = median(reads.map((r) => r.ms));
  const peak = Math.max(...reads.map((r) => r.maxRssMb));
  figures['read 2,000 lines at line 10,000,001 of 1 GiB: ms (median of 3)'] = readMs;
  figures['read: peak RSS MB (child, bundled, plain node)'] = peak;
  figures['read: RSS MB of the same child loading the tool only'] = loadOnly.maxRssMb;
  figures['read: RSS MB added by the read'] = peak - loadOnly.maxRssMb;
  figures['read: lines returned'] = reads[0]?.lines ?? 0;
  figures['read vs sed -n (same lines): time ratio'] = readMs / (sed.sed as number);
  targets['Read peak RSS < 100 MB'] = peak < 100;
  notes.push(`Read's first returned line: ${JSON.stringify(reads[0]?.firstLine)}`);
}

/** The benchmark entry (bench/run.ts). */
export default async function fileToolsBench(): Promise<BenchReport> {
  const figures: BenchReport['figures'] = {};
  const targets: Record<string, boolean> = {};
  const notes: string[] = [];
  const tree = await ensureMuiTree();
  const engine = await resolveSearchEngine({ engine: 'ripgrep' });
  if (engine.kind !== 'ripgrep') throw new Error('the benchmark needs ripgrep');
  const rg = engine.rgPath;
  notes.push(
    `tree: ${MUI} (${tree}); ripgrep: ${rg} (${engine.source}); ${ITERATIONS} runs after ${WARMUP} warm-up, median`,
  );
  const find = await gnuFindPath();
  notes.push(
    `Glob's ordered listing: ${find ? `GNU find ${find} (mtimes from the walk)` : 'ripgrep and a stat per match (no GNU find)'}`,
  );
  const context = makeToolContext({ cwd: tree });

  for (const c of GREP_CASES) {
    const mode: SearchMode = c.mode === 'content' ? 'content' : 'files';
    const same = ripgrepSearchArgs({
      root: tree,
      rootIsFile: false,
      pattern: c.pattern,
      caseInsensitive: false,
      multiline: false,
      globs: [],
      respectIgnore: true,
      excludeDirs: VCS_DIRECTORIES,
      mode,
      onlyMatching: false,
      before: 0,
      after: 0,
      maxColumns: DEFAULT_MAX_COLUMNS,
    });
    const plain = mode === 'files' ? ['-l', '-e', c.pattern] : ['-n', '-e', c.pattern];
    const contenders: Record<string, () => Promise<unknown>> = {
      ours: () => runTool(GrepTool, { pattern: c.pattern, output_mode: c.mode }, context),
      same: () => runRaw(rg, same, tree),
      plain: () => runRaw(rg, plain, tree),
    };
    if (mode === 'files')
      contenders.sorted = () => runRaw(rg, ['-l', '--sortr=modified', '-e', c.pattern], tree);
    const t = await race(contenders);
    const ratio = (t.ours as number) / (t.same as number);
    figures[`Grep ${c.label}: ours ms`] = t.ours as number;
    figures[`Grep ${c.label}: ratio vs rg same flags`] = ratio;
    figures[`Grep ${c.label}: ratio vs plain rg ${mode === 'files' ? '-l' : '-n'}`] =
      (t.ours as number) / (t.plain as number);
    if (t.sorted !== undefined)
      figures[`Grep ${c.label}: ratio vs rg -l --sortr=modified`] = (t.ours as number) / t.sorted;
    targets[`Grep ${c.label} ≤ 1.15 × rg`] = ratio <= 1.15;
  }

  for (const c of GLOB_CASES) {
    const same = ripgrepListArgs({
      root: tree,
      pattern: c.pattern,
      caseInsensitive: false,
      respectIgnore: false,
      excludeDirs: VCS_DIRECTORIES,
    });
    const t = await race({
      ours: () => runTool(GlobTool, { pattern: c.pattern }, context),
      same: () => runRaw(rg, same, tree),
      plain: () => runRaw(rg, ['--files', '-g', c.pattern], tree),
      sorted: () =>
        runRaw(rg, ['--files', '--hidden', '--no-ignore', '--sort=modified', '-g', c.pattern], tree),
    });
    const ratio = (t.ours as number) / (t.same as number);
    figures[`Glob ${c.label}: ours ms`] = t.ours as number;
    figures[`Glob ${c.label}: ratio vs rg --files same flags`] = ratio;
    figures[`Glob ${c.label}: ratio vs plain rg --files -g`] = (t.ours as number) / (t.plain as number);
    figures[`Glob ${c.label}: ratio vs rg --files --sort=modified`] =
      (t.ours as number) / (t.sorted as number);
    targets[`Glob ${c.label} ≤ 1.25 × rg --files -g`] = ratio <= 1.25;
  }

  try {
    await benchRead(figures, targets, notes);
  } catch (error) {
    targets['Read peak RSS < 100 MB'] = false;
    notes.push(`Read benchmark failed: ${(error as Error).message.slice(0, 500)}`);
  }
  return { name: 'file tools: Grep/Glob vs raw ripgrep, Read of a 1 GiB file', figures, targets, notes };
}
