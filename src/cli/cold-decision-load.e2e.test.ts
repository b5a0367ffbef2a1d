/**
 * What a decision made in-process (no resident server: the first call, or `GANTRY_HOOK_DAEMON=0`)
 * loads, in real processes from bin/gantry.js: a Read hook call, a literal Bash hook call and
 * `gantry check -- 'git status'` answer as before and load none of the Node built-ins they do not
 * use (docs/startup.md, "What a cold decision costs"), with the hook log on; a Bash line that needs
 * the grammar still gets its answer (the modules load when used).
 */
import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/shared-data.js';

let home: string;
let project: string;

beforeAll(() => {
  const r = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale', '--js-only'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  home = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-cold-load-')));
  project = path.join(home, 'app');
  mkdirSync(project);
});

afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

/** Built-ins a Read decision, a literal Bash line and a plain check never use. */
const UNUSED = ['child_process', 'crypto', 'net', 'worker_threads', 'perf_hooks', 'os', 'tty'];

/** Runs bin/gantry.js with a probe that records `process.moduleLoadList` at exit. */
function run(args: string[], input: string) {
  const probe = path.join(home, 'probe.cjs');
  const loaded = path.join(home, 'loaded.json');
  writeFileSync(
    probe,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(process.moduleLoadList)));`,
  );
  const r = spawnSync(process.execPath, ['-r', probe, path.join(REPO_ROOT, 'bin', 'gantry.js'), ...args], {
    input,
    cwd: project,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: home,
      GANTRY_HOOK_DAEMON: '0',
      GANTRY_HOOK_LOG: path.join(home, 'hook-log.jsonl'),
    },
  });
  const modules = (JSON.parse(readFileSync(loaded, 'utf8')) as string[])
    .filter((m) => m.startsWith('NativeModule '))
    .map((m) => m.slice('NativeModule '.length));
  return { ...r, modules };
}

const payload = (tool_name: string, tool_input: Record<string, unknown>) =>
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 's',
    cwd: project,
    permission_mode: 'default',
    tool_use_id: 't',
    tool_name,
    tool_input,
  });

describe('an in-process decision loads only what it uses', () => {
  it.each([
    [
      'a Read hook call (no shell: no V8 flag, so no node:v8 either)',
      ['hook'],
      () => payload('Read', { file_path: path.join(project, 'src/a.ts') }),
      /"permissionDecision":"allow"/,
      ['v8'],
    ],
    [
      'a literal Bash hook call',
      ['hook'],
      () => payload('Bash', { command: 'git status' }),
      /"permissionDecision":"allow"/,
      [],
    ],
    [
      'a plain check of a literal line (no grammar: no V8 flag, so no node:v8 either)',
      ['check', '--', 'git status'],
      () => '',
      /^ALLOW {2}Bash git status/,
      ['v8'],
    ],
  ])('%s: gantry %j', (_reason, args, input, answer, alsoUnused) => {
    // twice: the first run writes the code cache, the second runs from it
    for (let i = 0; i < 2; i++) {
      const r = run(args, input());
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(answer);
      expect(r.modules.filter((m) => [...UNUSED, ...alsoUnused].includes(m))).toEqual([]);
    }
  });

  it('hook calls with and without the Liftoff flag keep one code cache each, neither remade', () => {
    const read = payload('Read', { file_path: path.join(project, 'c.ts') });
    const bash = payload('Bash', { command: 'git status' });
    run(['hook'], read);
    run(['hook'], bash);
    const cacheDir = path.join(home, '.gantry', 'cache');
    const caches = () =>
      readdirSync(cacheDir)
        .filter((f) => f.startsWith('gantry-hook-cold.cjs-'))
        .map((f) => `${f}@${statSync(path.join(cacheDir, f)).mtimeMs}`)
        .sort();
    const before = caches();
    expect(before.map((f) => f.split('-')[3])).toEqual(['default', 'liftoff']);
    run(['hook'], read);
    run(['hook'], bash);
    expect(caches()).toEqual(before);
  });

  it('checks with and without the Liftoff flag keep one code cache each, neither remade', () => {
    const literal = ['check', '--', 'ls -la'];
    const parsed = ['check', '--', 'ls -la | head'];
    expect(run(literal, '').status).toBe(0);
    expect(run(parsed, '').status).toBe(0);
    const cacheDir = path.join(home, '.gantry', 'cache');
    const caches = () =>
      readdirSync(cacheDir)
        .filter((f) => f.startsWith('gantry-check-local.cjs-'))
        .map((f) => `${f}@${statSync(path.join(cacheDir, f)).mtimeMs}`)
        .sort();
    const before = caches();
    // `default` (Node's flags) for the literal line, no variant (Liftoff-only) for the other
    expect(before.map((f) => f.split('-')[3] === 'default').sort()).toEqual([false, true]);
    const again = [run(literal, ''), run(parsed, '')];
    expect(again.map((r) => r.stdout.split('\n')[0])).toEqual([
      'ALLOW  Bash ls -la (read-only)',
      'ALLOW  Bash ls -la | head (2 sub-commands, read-only)',
    ]);
    expect(again[0]?.modules).not.toContain('v8');
    expect(again[1]?.modules).toContain('v8');
    expect(caches()).toEqual(before);
  });

  it('a Bash line the grammar parses gets its answer, loading what it needs', () => {
    const r = run(['hook'], payload('Bash', { command: 'rm -rf ~ && echo "$HOME"' }));
    expect(r.status, r.stderr).toBe(2);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('the hook log records the decision with its latency', () => {
    run(['hook'], payload('Read', { file_path: path.join(project, 'b.ts') }));
    const lines = readFileSync(path.join(home, 'hook-log.jsonl'), 'utf8').trim().split('\n');
    const last = JSON.parse(lines[lines.length - 1] as string) as { decision: string; latency_ms: number };
    expect(last.decision).toBe('allow');
    expect(typeof last.latency_ms).toBe('number');
    expect(last.latency_ms).toBeGreaterThan(0);
  });
});
