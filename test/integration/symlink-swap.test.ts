/**
 * File operations act on what was checked: a real swapper process keeps replacing a symlink (or a
 * directory) on the path between an inside and an outside directory while the runtime, with the real
 * permission engine and the real tools, decides and runs hundreds of calls. Every call must either
 * act on the checked (inside) file or be refused; nothing may be read from or written to the outside
 * directory or the protected `~/.ssh`. The counts of each outcome are reported by the assertions'
 * messages; escapes must be 0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contentText, type PermissionMode, type ToolUseBlock } from '../../src/core/index.js';
import { createPermissionEngine, loadSettings } from '../../src/permissions/index.js';
import { assembleToolPool, createToolRuntime } from '../../src/runtime/index.js';
import { getAllBaseTools } from '../../src/tools/index.js';

const INSIDE = 'inside content\n';
const OUTSIDE = 'OUTSIDE SECRET\n';

interface World {
  root: string;
  home: string;
  project: string;
  outside: string;
  ssh: string;
}

let root: string | undefined;
let swapper: ChildProcess | undefined;

afterEach(async () => {
  if (swapper?.pid && swapper.exitCode === null) {
    try {
      process.kill(-swapper.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await new Promise((r) => swapper?.once('exit', r));
  }
  swapper = undefined;
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

function makeWorld(): World {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-swap-')));
  const home = path.join(root, 'home');
  const project = path.join(home, 'project');
  const outside = path.join(root, 'outside');
  const ssh = path.join(home, '.ssh');
  for (const d of [path.join(project, 'in'), outside, ssh]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(project, 'in', 's.txt'), INSIDE);
  writeFileSync(path.join(outside, 's.txt'), OUTSIDE);
  writeFileSync(path.join(ssh, 's.txt'), OUTSIDE);
  return { root, home, project, outside, ssh };
}

/**
 * Starts the swapper (a separate Node process) in `cwd`, in its own process group:
 * - `link`: `race` is a symlink renamed between `in` and `target`;
 * - `dir`: the real directory `in` itself is moved aside and replaced by a symlink to `target`.
 */
async function startSwapper(cwd: string, target: string, kind: 'link' | 'dir'): Promise<void> {
  // A tight loop of renames (thousands a second), so the window between check and use is hit often.
  const script =
    kind === 'link'
      ? `const f = require('fs'); const t = process.argv[1];
         try { f.symlinkSync('in', 'race'); } catch {}
         for (;;) {
           try { f.rmSync('r.t', { force: true }); f.symlinkSync(t, 'r.t'); f.renameSync('r.t', 'race');
                 f.rmSync('r.t', { force: true }); f.symlinkSync('in', 'r.t'); f.renameSync('r.t', 'race'); } catch {}
         }`
      : `const f = require('fs'); const t = process.argv[1];
         for (;;) {
           try { f.renameSync('in', 'd.t'); f.symlinkSync(t, 'in'); f.rmSync('in'); f.renameSync('d.t', 'in'); } catch {}
         }`;
  swapper = spawn(process.execPath, ['-e', script, target], { cwd, detached: true, stdio: 'ignore' });
  // Running once the path has been seen both ways.
  const seen = new Set<string>();
  const name = path.join(cwd, kind === 'link' ? 'race' : 'in');
  for (let i = 0; i < 20_000 && seen.size < 2; i++) {
    try {
      seen.add(realpathSync(name));
    } catch {
      // between the steps of a swap
    }
    if (i % 100 === 99) await new Promise((r) => setTimeout(r, 5));
  }
  expect(seen.size, 'the swapper runs').toBe(2);
}

/**
 * Stops the swapper and puts the path back to its inside state. Returns the texts of the files in
 * a directory that a write made at the inside path while the real one was aside (removed here):
 * such a write landed inside the project, at the path it was checked for, and is counted as inside.
 */
async function stopSwapper(cwd: string, kind: 'link' | 'dir'): Promise<string[]> {
  const child = swapper;
  swapper = undefined;
  if (child?.pid) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
  }
  if (kind === 'link') {
    rmSync(path.join(cwd, 'race'), { force: true });
    symlinkSync('in', path.join(cwd, 'race'));
  } else if (existsSync(path.join(cwd, 'd.t'))) {
    // `in` is a symlink, missing, or a directory a write created while the real one was aside.
    const made = path.join(cwd, 'in');
    const texts =
      existsSync(made) && lstatSync(made).isDirectory()
        ? readdirSync(made).map((f) => readFileSync(path.join(made, f), 'utf8'))
        : [];
    rmSync(made, { force: true, recursive: true });
    renameSync(path.join(cwd, 'd.t'), made);
    return texts;
  }
  return [];
}

async function runtimeFor(w: World, mode: PermissionMode) {
  const settings = loadSettings({ projectRoot: w.project, home: w.home, managedFiles: [] });
  const engine = createPermissionEngine({ settings });
  const runtime = createToolRuntime({
    tools: assembleToolPool({ builtIn: await getAllBaseTools(), isDenied: (n) => engine.isToolDenied(n) })
      .callable,
    cwd: w.project,
    sessionDir: path.join(w.root, 'session'),
    permissionMode: mode,
    decide: engine.decider,
    // No one approves an ask: only what the engine allows runs.
    canUseTool: async () => ({ behavior: 'deny', message: 'not approved' }),
  });
  let n = 0;
  /** Runs the calls as one turn (concurrency-safe ones in parallel, as a model's batch would). */
  const batch = async (calls: { name: string; input: Record<string, unknown> }[]) => {
    const blocks: ToolUseBlock[] = calls.map((c) => ({ type: 'tool_use', id: `toolu_swap_${++n}`, ...c }));
    const turn = await runtime.runToolsToCompletion(blocks);
    return turn.results.map((r) => ({ isError: r.is_error === true, text: contentText(r.content) }));
  };
  const run = async (name: string, input: Record<string, unknown>) =>
    (await batch([{ name, input }]))[0] as { isError: boolean; text: string };
  return Object.assign(run, { batch });
}

const filesIn = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('n'));

describe.each([
  ['a symlink on the path swapped to an outside directory', 'link', 'outside'],
  ['a symlink on the path swapped to the protected ~/.ssh', 'link', 'ssh'],
  ['a real directory on the path replaced by a symlink to outside', 'dir', 'outside'],
] as const)('%s', (_name, kind, where) => {
  it('acceptEdits: 200 Writes land inside or are refused; none outside', async () => {
    const w = makeWorld();
    const target = where === 'ssh' ? w.ssh : w.outside;
    const run = await runtimeFor(w, 'acceptEdits');
    await startSwapper(w.project, target, kind);
    const base = kind === 'link' ? 'race' : 'in';
    let written = 0;
    let refused = 0;
    for (let i = 0; i < 200; i++) {
      const r = await run('Write', {
        file_path: path.join(w.project, base, `n${i}.txt`),
        content: `write ${i}\n`,
      });
      if (r.isError) refused++;
      else written++;
    }
    const escaped = filesIn(target);
    expect(escaped, `written ${written}, refused ${refused}`).toEqual([]);
    expect(written + refused).toBe(200);
    await stopSwapper(w.project, kind);
    const settled = await run('Write', { file_path: path.join(w.project, base, 'after.txt'), content: 'x' });
    expect(settled.isError, 'with the path at rest the same Write runs').toBe(false);
  });

  it('default mode: 300 Reads (batches of 10 in parallel) return the inside file or a refusal, never the outside one', async () => {
    const w = makeWorld();
    const target = where === 'ssh' ? w.ssh : w.outside;
    const run = await runtimeFor(w, 'default');
    await startSwapper(w.project, target, kind);
    const base = kind === 'link' ? 'race' : 'in';
    let inside = 0;
    let refused = 0;
    let leaked = 0;
    for (let i = 0; i < 30; i++) {
      const reads = Array.from({ length: 10 }, () => ({
        name: 'Read',
        input: { file_path: path.join(w.project, base, 's.txt') },
      }));
      for (const r of await run.batch(reads)) {
        if (r.text.includes('OUTSIDE SECRET')) leaked++;
        else if (r.isError) refused++;
        else if (r.text.includes('inside content')) inside++;
      }
    }
    expect(leaked, `inside ${inside}, refused ${refused}`).toBe(0);
    expect(inside + refused).toBe(300);
    await stopSwapper(w.project, kind);
    const settled = await run('Read', { file_path: path.join(w.project, base, 's.txt') });
    expect(settled.text, 'with the path at rest the same Read returns the file').toContain('inside content');
  });

  it('default mode: Grep and Glob rooted on the swapped path never list or show outside files', async () => {
    const w = makeWorld();
    const target = where === 'ssh' ? w.ssh : w.outside;
    writeFileSync(path.join(target, 'only-outside.txt'), OUTSIDE);
    const run = await runtimeFor(w, 'default');
    await startSwapper(w.project, target, kind);
    const base = path.join(w.project, kind === 'link' ? 'race' : 'in');
    let leaked = 0;
    let answered = 0;
    for (let i = 0; i < 20; i++) {
      const calls = Array.from({ length: 5 }, () => [
        { name: 'Grep', input: { pattern: 'SECRET|content', path: base, output_mode: 'content' } },
        { name: 'Glob', input: { pattern: '*.txt', path: base } },
      ]).flat();
      for (const r of await run.batch(calls)) {
        if (r.text.includes('OUTSIDE SECRET') || r.text.includes('only-outside')) leaked++;
        else if (!r.isError) answered++;
      }
    }
    expect(leaked, `answered ${answered}`).toBe(0);
    await stopSwapper(w.project, kind);
    const settled = await run('Grep', { pattern: 'content', path: base, output_mode: 'content' });
    expect(settled.text, 'with the path at rest the same Grep finds the inside file').toContain(
      'inside content',
    );
  });
});

/** A one-cell notebook whose cell source is `source`. */
const notebook = (source: string) =>
  JSON.stringify({
    cells: [
      { cell_type: 'code', id: 'c1', metadata: {}, source: [source], outputs: [], execution_count: null },
    ],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5,
  });

describe.each([
  ['a symlink on the path swapped to an outside directory', 'link', 'outside'],
  ['a symlink on the path swapped to the protected ~/.ssh', 'link', 'ssh'],
  ['a real directory on the path replaced by a symlink to outside', 'dir', 'outside'],
] as const)('%s: Edit and NotebookEdit', (_name, kind, where) => {
  it('acceptEdits: 60 Read+Edit and 60 Read+NotebookEdit pairs change the inside file or are refused; the outside twins stay as they were', async () => {
    const w = makeWorld();
    const target = where === 'ssh' ? w.ssh : w.outside;
    // Twins with the same content inside and outside: an Edit that followed the swapped link
    // would find its string in the outside file as well and change it.
    for (const dir of [path.join(w.project, 'in'), target])
      for (let i = 0; i < 60; i++) {
        writeFileSync(path.join(dir, `e${i}.txt`), `edit me ${i}\n`);
        writeFileSync(path.join(dir, `nb${i}.ipynb`), notebook(`print(${i})`));
      }
    const run = await runtimeFor(w, 'acceptEdits');
    const base = path.join(w.project, kind === 'link' ? 'race' : 'in');
    if (kind === 'link') symlinkSync('in', path.join(w.project, 'race'));
    // Read with the path at rest (Edit needs the file read first), then edit under the swapper.
    for (let i = 0; i < 60; i++) {
      await run('Read', { file_path: path.join(base, `e${i}.txt`) });
      await run('Read', { file_path: path.join(base, `nb${i}.ipynb`) });
    }
    await startSwapper(w.project, target, kind);
    let edited = 0;
    let refused = 0;
    for (let i = 0; i < 60; i++) {
      const file = path.join(base, `e${i}.txt`);
      const nb = path.join(base, `nb${i}.ipynb`);
      const e = await run('Edit', { file_path: file, old_string: `edit me ${i}`, new_string: `edited ${i}` });
      const n = await run('NotebookEdit', {
        notebook_path: nb,
        cell_id: 'c1',
        new_source: `print("edited ${i}")`,
      });
      for (const r of [e, n]) {
        if (r.isError) refused++;
        else edited++;
      }
    }
    const madeDir = await stopSwapper(w.project, kind);
    const changedOutside = readdirSync(target).filter((f) => {
      const text = readFileSync(path.join(target, f), 'utf8');
      return text.includes('edited');
    });
    expect(changedOutside, `edited ${edited}, refused ${refused}`).toEqual([]);
    expect(edited + refused).toBe(120);
    // Every Edit that ran changed the inside file; with the path at rest, one more pair runs.
    const insideEdited = readdirSync(path.join(w.project, 'in')).filter((f) =>
      readFileSync(path.join(w.project, 'in', f), 'utf8').includes('edited'),
    );
    // (an edit that ran while the real directory was aside wrote into a directory made at the
    // same inside path: counted as inside, as for Write)
    expect(insideEdited.length + madeDir.filter((t) => t.includes('edited')).length).toBe(edited);
    writeFileSync(path.join(w.project, 'in', 'late.txt'), 'edit me late\n');
    const late = path.join(base, 'late.txt');
    await run('Read', { file_path: late });
    const settled = await run('Edit', {
      file_path: late,
      old_string: 'edit me late',
      new_string: 'edited late',
    });
    expect(settled.isError, 'with the path at rest the same Edit runs').toBe(false);
  });
});
