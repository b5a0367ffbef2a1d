import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSandboxSettings } from '../core/sandbox-settings.js';
import { diffProtected, planFilesystem, snapshotProtected } from './filesystem-policy.js';

let root: string;
let project: string;
let home: string;
let tmp: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'gantry-fsplan-'));
  project = path.join(root, 'project');
  home = path.join(root, 'home');
  tmp = path.join(root, 'session-tmp');
  for (const d of [
    '.git/hooks',
    '.git/modules/sub/hooks',
    '.claude/worktrees',
    '.vscode',
    'src/deep',
    'sub',
  ]) {
    mkdirSync(path.join(project, d), { recursive: true });
  }
  writeFileSync(path.join(project, '.git', 'config'), '');
  writeFileSync(path.join(project, '.git', 'modules', 'sub', 'config'), '');
  writeFileSync(path.join(project, '.env'), 'A=1');
  writeFileSync(path.join(project, '.env.example'), 'A=');
  writeFileSync(path.join(project, 'notes.txt'), '');
  symlinkSync(path.join(project, 'notes.txt'), path.join(project, '.npmrc'));
  writeFileSync(path.join(project, 'sub', '.bashrc'), '');
  mkdirSync(path.join(home, '.ssh'), { recursive: true });
  writeFileSync(path.join(home, '.netrc'), '');
  mkdirSync(tmp);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const plan = (cwd: string) =>
  planFilesystem({
    settings: defaultSandboxSettings(),
    workingDirectories: [project],
    cwd,
    sessionTmpDir: tmp,
    harnessFiles: [],
    homes: [home],
    settingsRoot: project,
  });

describe('planFilesystem', () => {
  it('binds the working dirs and temp dir writable, protected paths read-only, credentials hidden, shallow before deep', () => {
    const p = plan(project);
    const rel = (x: string) => path.relative(root, x);
    expect(p.ops.map((o) => `${o.op} ${rel(o.path)}`)).toEqual([
      'bind project',
      'bind session-tmp',
      'mask-file home/.netrc',
      'mask-dir home/.ssh',
      'ro-bind project/.claude',
      'ro-bind project/.env',
      'ro-bind project/.vscode',
      'ro-bind project/notes.txt',
      'bind project/.claude/worktrees',
      'ro-bind project/.git/config',
      'ro-bind project/.git/hooks',
      'ro-bind project/.git/modules/sub/config',
      'ro-bind project/.git/modules/sub/hooks',
    ]);
    expect(p.writable).toEqual([project, tmp]);
    expect(p.hidden).toEqual([path.join(home, '.ssh'), path.join(home, '.netrc')]);
  });

  it.each<[string, string, string]>([
    ['.env.example', 'template variant is not protected', 'project'],
    ['sub/.bashrc', 'nested rc files are protected only when the cwd is there', 'project'],
  ])('%s is left writable (%s)', (name, _why) => {
    expect(plan(project).readOnly.map((r) => r.path)).not.toContain(path.join(project, name));
  });

  it('the cwd and its ancestors inside the project are scanned too', () => {
    expect(plan(path.join(project, 'sub')).readOnly.map((r) => r.path)).toContain(
      path.join(project, 'sub', '.bashrc'),
    );
  });

  it('a symlink at a protected name protects its target', () => {
    expect(plan(project).readOnly).toContainEqual({
      path: path.join(project, 'notes.txt'),
      why: '.npmrc: package-manager configuration: can run code or redirect installs',
    });
  });
});

describe('snapshotProtected / diffProtected', () => {
  it('reports protected names created or replaced, not ordinary files or changes inside .git', () => {
    const before = snapshotProtected([project]);
    writeFileSync(path.join(project, '.envrc'), 'x');
    writeFileSync(path.join(project, 'ordinary.txt'), 'x');
    writeFileSync(path.join(project, '.git', 'index'), 'x');
    rmSync(path.join(project, '.env'));
    writeFileSync(path.join(project, '.env'), 'B=2 replaced');
    const after = snapshotProtected([project]);
    expect(diffProtected(before, after)).toEqual([
      { path: path.join(project, '.env'), change: 'replaced' },
      { path: path.join(project, '.envrc'), change: 'created' },
    ]);
  });
});
