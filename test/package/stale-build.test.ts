/**
 * bin/gantry.js in a git checkout never runs a dist/ older than the sources: in a scratch copy of
 * the checkout (src/, scripts/, bin/, the manifests, a `.git` marker, node_modules linked), a first
 * run builds dist/, an edited source is rebuilt before the next run, and a build that cannot be
 * made is reported instead of running the old one. `check` and `hook` compare only the sources of
 * the bundles they run (scripts/build-inputs.cjs `guardStaleReason`): an edit there, a file moved
 * into place with an old mtime, or a new file an import could resolve to is rebuilt before they run;
 * an edit elsewhere is left to the command that runs it, and a new test file rebuilds nothing.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let root: string;
let checkout: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-stale-')));
  checkout = path.join(root, 'checkout');
  mkdirSync(path.join(checkout, '.git'), { recursive: true });
  for (const f of ['src', 'scripts', 'bin'])
    cpSync(path.join(REPO, f), path.join(checkout, f), { recursive: true });
  for (const f of ['package.json', 'tsconfig.json', 'tsconfig.build.json']) {
    cpSync(path.join(REPO, f), path.join(checkout, f));
  }
  symlinkSync(path.join(REPO, 'node_modules'), path.join(checkout, 'node_modules'));
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

function gantry(...args: string[]) {
  return spawnSync(process.execPath, [path.join(checkout, 'bin/gantry.js'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: root, GANTRY_HOOK_DAEMON: '0', GANTRY_HOOK_LOG: 'off' },
  });
}

/** The mtime of a built file (a rebuild that changes it writes it anew). */
const builtAt = (f: string) => statSync(path.join(checkout, 'dist', f)).mtimeMs;

/** Replaces `from` by `to` in a source file of the checkout. */
function edit(file: string, from: string, to: string) {
  const p = path.join(checkout, file);
  const text = readFileSync(p, 'utf8');
  expect(text).toContain(from);
  writeFileSync(p, text.replace(from, to));
}

describe('bin/gantry.js in a git checkout', () => {
  it('builds a missing dist/, then rebuilds after a source edit before running', () => {
    const first = gantry('check', '--help');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('Explain the permission decision');
    expect(JSON.parse(readFileSync(path.join(checkout, 'dist/.build-stamp.json'), 'utf8'))).toMatchObject({
      types: false,
    });

    const main = path.join(checkout, 'src/cli/program.ts');
    writeFileSync(main, readFileSync(main, 'utf8').replace('Explain the permission decision', 'Edited text'));
    const second = gantry('check', '--help');
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('Edited text');
    expect(second.stdout).not.toContain('Explain the permission decision');
  });

  it('check rebuilds after an edit of a source it runs, not after an edit elsewhere', () => {
    expect(gantry('check', '--', 'git status').stdout).toContain('ALLOW  Bash git status');
    const cli = builtAt('fast/gantry-cli.cjs');
    // an edit only the command line's bundle is built from: check and hook leave it for later
    edit('src/cli/program.ts', 'Edited text', 'Edited again');
    expect(gantry('check', '--', 'git status').status).toBe(0);
    const hook = spawnSync(process.execPath, [path.join(checkout, 'bin/gantry.js'), 'hook'], {
      cwd: root,
      encoding: 'utf8',
      input: JSON.stringify({
        hook_event_name: 'PreToolUse',
        tool_name: 'Read',
        tool_input: { file_path: `${root}/a` },
        cwd: root,
      }),
      env: { PATH: process.env.PATH, HOME: root, GANTRY_HOOK_DAEMON: '0', GANTRY_HOOK_LOG: 'off' },
    });
    expect(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecision).toBe('allow');
    expect(builtAt('fast/gantry-cli.cjs')).toBe(cli);
    // …which runs it rebuilt
    expect(gantry('check', '--help').stdout).toContain('Edited again');
    // an edit of the check's own output
    edit('src/cli/shared/format-check.ts', '├─ reason: ', '├─ because: ');
    expect(gantry('check', '--', 'git status').stdout).toContain('├─ because: ');
  });

  it('check rebuilds after a file is moved into place with an old mtime', () => {
    const target = path.join(checkout, 'src/cli/shared/format-check.ts');
    const moved = path.join(root, 'format-check.ts');
    writeFileSync(moved, readFileSync(target, 'utf8').replace('├─ because: ', '├─ moved in: '));
    const old = new Date(Date.now() - 86_400_000);
    utimesSync(moved, old, old);
    renameSync(moved, target);
    expect(statSync(target).mtimeMs).toBeLessThan(Date.now() - 3_600_000);
    expect(gantry('check', '--', 'git status').stdout).toContain('├─ moved in: ');
  });

  it('check rebuilds for a new file beside its sources, but not for a new test file', () => {
    const local = builtAt('fast/gantry-check-local.cjs');
    writeFileSync(path.join(checkout, 'src/cli/shared/extra.test.ts'), 'export {};\n');
    expect(gantry('check', '--', 'git status').status).toBe(0);
    expect(builtAt('fast/gantry-check-local.cjs')).toBe(local);
    // `./format-check.js` now resolves to this file rather than to format-check.ts
    writeFileSync(
      path.join(checkout, 'src/cli/shared/format-check.js'),
      [
        "export function formatCheck() { return 'from the new file\\n'; }",
        'export function toCheckJson() { return {}; }',
        '',
      ].join('\n'),
    );
    const old = new Date(Date.now() - 86_400_000);
    utimesSync(path.join(checkout, 'src/cli/shared/format-check.js'), old, old);
    expect(gantry('check', '--', 'git status').stdout).toBe('from the new file\n');
    rmSync(path.join(checkout, 'src/cli/shared/format-check.js'));
    expect(gantry('check', '--', 'git status').stdout).toContain('├─ moved in: ');
  });

  it('says so, and runs nothing, when the stale dist/ cannot be rebuilt', () => {
    const main = path.join(checkout, 'src/cli/program.ts');
    writeFileSync(main, `${readFileSync(main, 'utf8')}\nexport const broken = ;\n`);
    const r = gantry('check', '--help');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^gantry: the sources changed since dist\/ was built, and rebuilding it failed; run `npm run build`/,
    );
  });
});
