/**
 * bench/mcp: round trips through the real `gantry mcp` process
 * (started with `node bin/gantry.js mcp`, the built command line) with the SDK's stdio client, against
 * baselines measured in the same run. Start-up is not measured: only round trips after connect,
 * after a warm-up.
 *
 * 1. Read: median round trip of 200 Read calls on a small file, against
 *    `@modelcontextprotocol/server-filesystem` doing the same reads (`read_text_file`). Target ≤ 1.2.
 * 2. Search on a tree of 2,000 files the bench creates: median of 50 Grep calls (files with matches)
 *    against raw `rg -l PATTERN DIR`, and of 50 Glob calls against raw `rg --files -g GLOB DIR`,
 *    both spawned from this process with the same ripgrep binary Gantry uses. Targets ≤ 1.3.
 *    Also reported: ripgrep with the exact flags Gantry passes (ripgrepSearchArgs/ripgrepListArgs),
 *    which separates the cost of those flags from the cost of the tool pipeline and MCP.
 *    server-filesystem's `search_files` on the same tree and glob is reported for comparison.
 * 3. Glob with 10,000 matches (a second tree of 10,000 files): median of 20 Glob calls, which list
 *    and order every match by modification time, against raw `rg --files -g GLOB DIR` (no order)
 *    and `rg --files --sort modified -g GLOB DIR` (ripgrep ordering by mtime). Target ≤ 1.25 against
 *    the unordered listing.
 *
 * Calls of the compared parties alternate in blocks, so a change of machine load hits both alike.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { connectGantryStdio, makeLayout, REPO, serverEnv, textOf } from '../src/mcp/server/test-support.js';
import {
  DEFAULT_MAX_COLUMNS,
  loadVscodeRgPath,
  ripgrepListArgs,
  ripgrepSearchArgs,
  VCS_DIRECTORIES,
} from '../src/tools/ripgrep/index.js';
import { gnuFindPath } from '../src/tools/ripgrep/find-listing.js';
import type { BenchReport } from './run.js';

const run = promisify(execFile);

const READS = 200;
const SEARCHES = 50;
const BLOCK = 25;
const WARM_UP = 20;
const TREE_DIRS = 20;
const TREE_SUBDIRS = 10;
const TREE_FILES = 10; // per subdirectory → 20 × 10 × 10 = 2,000 files
const NEEDLE = 'needle_7f3a';
const BIG_GLOBS = 20;
const BIG_FILES = 10_000; // 50 × 10 directories × 20 files

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Times `count` calls of each party, alternating blocks of BLOCK calls; per-call ms for each. */
async function alternate(
  count: number,
  parties: Record<string, () => Promise<void>>,
): Promise<Record<string, number[]>> {
  const times: Record<string, number[]> = {};
  for (const [name, call] of Object.entries(parties)) {
    times[name] = [];
    for (let i = 0; i < WARM_UP; i++) await call();
  }
  for (let done = 0; done < count; done += BLOCK) {
    for (const [name, call] of Object.entries(parties)) {
      for (let i = 0; i < Math.min(BLOCK, count - done); i++) {
        const start = performance.now();
        await call();
        (times[name] as number[]).push(performance.now() - start);
      }
    }
  }
  return times;
}

/** 2,000 small files in nested directories; every 10th contains the needle; every 5th is Markdown. */
async function makeTree(root: string): Promise<{ files: number; withNeedle: number; markdown: number }> {
  let files = 0;
  let withNeedle = 0;
  let markdown = 0;
  for (let d = 0; d < TREE_DIRS; d++) {
    for (let s = 0; s < TREE_SUBDIRS; s++) {
      const dir = path.join(root, `pkg${d}`, `mod${s}`);
      await mkdir(dir, { recursive: true });
      for (let f = 0; f < TREE_FILES; f++) {
        const n = files++;
        const md = n % 5 === 0;
        if (md) markdown++;
        const lines = Array.from({ length: 30 }, (_, i) => `line ${i} of file ${n}: some ordinary text`);
        if (n % 10 === 3) {
          lines[17] = `const value = ${NEEDLE}(${n});`;
          withNeedle++;
        }
        await writeFile(path.join(dir, `file${f}.${md ? 'md' : 'ts'}`), `${lines.join('\n')}\n`);
      }
    }
  }
  return { files, withNeedle, markdown };
}

/**
 * CPU time (ns) a process has used so far, all threads (libuv's thread pool included), from
 * /proc/<pid>/task/<tid>/schedstat; undefined where /proc is missing. Threads that ended are not
 * counted (the pool's threads live as long as the process).
 */
function cpuNs(pid: number | null | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    let total = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`))
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    return total;
  } catch {
    return undefined;
  }
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(`bench/mcp: ${message}`);
}

/** 10,000 one-line `.ts` files in 500 directories. */
async function makeBigTree(root: string): Promise<number> {
  let files = 0;
  for (let d = 0; d < 50; d++)
    for (let s = 0; s < 10; s++) {
      const dir = path.join(root, `pkg${d}`, `mod${s}`);
      await mkdir(dir, { recursive: true });
      for (let f = 0; f < BIG_FILES / 500; f++) {
        await writeFile(path.join(dir, `f${f}.ts`), `export const v${files} = ${files};\n`);
        files++;
      }
    }
  return files;
}

export default async function bench(): Promise<BenchReport> {
  const layout = await makeLayout('gantry-bench-mcp-');
  const tree = path.join(layout.project, 'tree');
  const bigTree = path.join(layout.project, 'big');
  const small = path.join(layout.project, 'small.txt');
  await writeFile(small, `${Array.from({ length: 20 }, (_, i) => `small file line ${i + 1}`).join('\n')}\n`);
  const counts = await makeTree(tree);
  const bigFiles = await makeBigTree(bigTree);
  const rgPath = await loadVscodeRgPath();
  const findPath = await gnuFindPath();
  if (!rgPath) throw new Error('bench/mcp: @vscode/ripgrep is not installed');

  const gantry = await connectGantryStdio(['--cwd', layout.project], { home: layout.home });
  const fsClient = new Client({ name: 'gantry-bench', version: '1' });
  const fsTransport = new StdioClientTransport({
    command: process.execPath,
    args: [
      path.join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'),
      layout.project,
    ],
    env: serverEnv(layout.home),
    stderr: 'ignore',
  });
  await fsClient.connect(fsTransport);
  try {
    // Every party must really do the work: check one answer of each before timing.
    const gRead = await gantry.client.callTool({ name: 'Read', arguments: { file_path: small } });
    expect(
      !gRead.isError && textOf(gRead).includes('small file line 20'),
      `gantry Read failed: ${textOf(gRead)}`,
    );
    const fRead = await fsClient.callTool({ name: 'read_text_file', arguments: { path: small } });
    expect(!fRead.isError && textOf(fRead).includes('small file line 20'), 'server-filesystem read failed');
    const gGrep = await gantry.client.callTool({ name: 'Grep', arguments: { pattern: NEEDLE, path: tree } });
    expect(
      textOf(gGrep).startsWith(`Found ${counts.withNeedle} files`),
      `gantry Grep: ${textOf(gGrep).slice(0, 200)}`,
    );
    const rgGrep = await run(rgPath, ['-l', NEEDLE, tree], { maxBuffer: 64 << 20 });
    expect(rgGrep.stdout.trim().split('\n').length === counts.withNeedle, 'rg -l count');
    const gGlob = await gantry.client.callTool({
      name: 'Glob',
      arguments: { pattern: '**/*.md', path: tree },
    });
    expect(!gGlob.isError && textOf(gGlob).includes('.md'), `gantry Glob: ${textOf(gGlob).slice(0, 200)}`);
    const rgGlob = await run(rgPath, ['--files', '-g', '*.md', tree], { maxBuffer: 64 << 20 });
    expect(rgGlob.stdout.trim().split('\n').length === counts.markdown, 'rg --files count');
    const fSearch = await fsClient.callTool({
      name: 'search_files',
      arguments: { path: tree, pattern: '**/*.md' },
    });
    expect(textOf(fSearch).split('\n').length === counts.markdown, 'server-filesystem search_files count');

    const cpuBefore = { gantry: cpuNs(gantry.transport.pid), filesystem: cpuNs(fsTransport.pid) };
    // ripgrep exactly as Gantry's Grep and Glob run it (their flags, cwd = the searched root), to
    // tell the cost of the flags from the cost of the tool pipeline and MCP.
    const grepArgs = ripgrepSearchArgs({
      root: tree,
      rootIsFile: false,
      pattern: NEEDLE,
      caseInsensitive: false,
      multiline: false,
      globs: [],
      respectIgnore: true,
      excludeDirs: VCS_DIRECTORIES,
      mode: 'files',
      onlyMatching: false,
      before: 0,
      after: 0,
      maxColumns: DEFAULT_MAX_COLUMNS,
    });
    const globArgs = ripgrepListArgs({
      root: tree,
      pattern: '**/*.md',
      caseInsensitive: false,
      respectIgnore: false,
      excludeDirs: VCS_DIRECTORIES,
    });

    const reads = await alternate(READS, {
      gantry: async () => {
        await gantry.client.callTool({ name: 'Read', arguments: { file_path: small } });
      },
      filesystem: async () => {
        await fsClient.callTool({ name: 'read_text_file', arguments: { path: small } });
      },
    });
    const cpuAfter = { gantry: cpuNs(gantry.transport.pid), filesystem: cpuNs(fsTransport.pid) };
    const cpuPerReadUs = (k: 'gantry' | 'filesystem') => {
      const a = cpuAfter[k];
      const b = cpuBefore[k];
      return a === undefined || b === undefined ? Number.NaN : (a - b) / 1000 / READS;
    };
    const greps = await alternate(SEARCHES, {
      gantry: async () => {
        await gantry.client.callTool({ name: 'Grep', arguments: { pattern: NEEDLE, path: tree } });
      },
      rg: async () => {
        await run(rgPath, ['-l', NEEDLE, tree], { maxBuffer: 64 << 20 });
      },
      rgGantryFlags: async () => {
        await run(rgPath, grepArgs, { cwd: tree, maxBuffer: 64 << 20 });
      },
    });
    const globs = await alternate(SEARCHES, {
      gantry: async () => {
        await gantry.client.callTool({ name: 'Glob', arguments: { pattern: '**/*.md', path: tree } });
      },
      rg: async () => {
        await run(rgPath, ['--files', '-g', '*.md', tree], { maxBuffer: 64 << 20 });
      },
      rgGantryFlags: async () => {
        await run(rgPath, globArgs, { cwd: tree, maxBuffer: 64 << 20 });
      },
      filesystem: async () => {
        await fsClient.callTool({ name: 'search_files', arguments: { path: tree, pattern: '**/*.md' } });
      },
    });

    const gBig = await gantry.client.callTool({
      name: 'Glob',
      arguments: { pattern: '**/*.ts', path: bigTree },
    });
    expect(
      textOf(gBig).includes(`of ${bigFiles} matching files`),
      `gantry Glob on ${bigFiles} files: ${textOf(gBig).slice(-300)}`,
    );
    const bigGlobs = await alternate(BIG_GLOBS, {
      gantry: async () => {
        await gantry.client.callTool({ name: 'Glob', arguments: { pattern: '**/*.ts', path: bigTree } });
      },
      rg: async () => {
        await run(rgPath, ['--files', '-g', '*.ts', bigTree], { maxBuffer: 64 << 20 });
      },
      rgSorted: async () => {
        await run(rgPath, ['--files', '--sort', 'modified', '-g', '*.ts', bigTree], { maxBuffer: 64 << 20 });
      },
    });

    const m = (t: Record<string, number[]>, k: string) => median(t[k] as number[]);
    const bigGlobRatio = m(bigGlobs, 'gantry') / m(bigGlobs, 'rg');
    const readRatio = m(reads, 'gantry') / m(reads, 'filesystem');
    const grepRatio = m(greps, 'gantry') / m(greps, 'rg');
    const globRatio = m(globs, 'gantry') / m(globs, 'rg');
    return {
      name: 'mcp',
      figures: {
        'Read, gantry mcp, median round trip (ms)': m(reads, 'gantry'),
        'read_text_file, server-filesystem, median round trip (ms)': m(reads, 'filesystem'),
        'Read ratio (gantry / server-filesystem)': readRatio,
        'Read, gantry mcp server CPU per call (µs)': cpuPerReadUs('gantry'),
        'read_text_file, server-filesystem CPU per call (µs)': cpuPerReadUs('filesystem'),
        'Grep, gantry mcp, median round trip (ms)': m(greps, 'gantry'),
        'rg -l, spawned, median (ms)': m(greps, 'rg'),
        'Grep ratio (gantry / rg)': grepRatio,
        "rg with Gantry's Grep flags, spawned, median (ms)": m(greps, 'rgGantryFlags'),
        "Grep ratio (gantry / rg with Gantry's flags)": m(greps, 'gantry') / m(greps, 'rgGantryFlags'),
        'Glob, gantry mcp, median round trip (ms)': m(globs, 'gantry'),
        'rg --files -g, spawned, median (ms)': m(globs, 'rg'),
        'Glob ratio (gantry / rg)': globRatio,
        "rg with Gantry's Glob flags, spawned, median (ms)": m(globs, 'rgGantryFlags'),
        "Glob ratio (gantry / rg with Gantry's flags)": m(globs, 'gantry') / m(globs, 'rgGantryFlags'),
        'search_files, server-filesystem, median round trip (ms)': m(globs, 'filesystem'),
        'search_files ratio (server-filesystem / rg)': m(globs, 'filesystem') / m(globs, 'rg'),
        'Glob 10k matches, gantry mcp, median round trip (ms)': m(bigGlobs, 'gantry'),
        'rg --files -g on 10k, spawned, median (ms)': m(bigGlobs, 'rg'),
        'rg --files --sort modified -g on 10k, spawned, median (ms)': m(bigGlobs, 'rgSorted'),
        'Glob 10k ratio (gantry / rg --files)': bigGlobRatio,
        'Glob 10k ratio (gantry / rg --sort modified)': m(bigGlobs, 'gantry') / m(bigGlobs, 'rgSorted'),
      },
      targets: {
        'Read ratio ≤ 1.2': readRatio <= 1.2,
        'Grep ratio ≤ 1.3': grepRatio <= 1.3,
        'Glob ratio ≤ 1.3': globRatio <= 1.3,
        'Glob 10k ratio ≤ 1.25': bigGlobRatio <= 1.25,
      },
      notes: [
        `${READS} reads of a 20-line file; ${SEARCHES} searches each on ${counts.files} files (${counts.withNeedle} match the Grep pattern, ${counts.markdown} the glob **/*.md)`,
        `Glob 10k: ${BIG_GLOBS} calls on ${bigFiles} files, every one a match (**/*.ts)`,
        `calls alternate in blocks of ${BLOCK} after ${WARM_UP} warm-up calls per party; start-up is not measured`,
        'server CPU per call: all threads of the server process (/proc schedstat), warm-up calls included, divided by the timed calls',
        `ripgrep: ${rgPath}`,
        `Glob's ordered listing: ${findPath ? `GNU find ${findPath} (mtimes from the walk)` : 'ripgrep and a stat per match (no GNU find)'}`,
      ],
    };
  } finally {
    await gantry.client.close();
    await fsClient.close();
    await layout.cleanup();
  }
}
