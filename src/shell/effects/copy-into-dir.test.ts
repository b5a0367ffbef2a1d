/**
 * Copies into an existing directory write `dir/basename(source)` (docs/shell-analysis.md "Copies
 * into directories"). Oracle: the real cp/mv/ln/install run in a temporary world (HOME inside it);
 * every file they create must be a write effect of the analysis, which asks the real filesystem
 * whether the destination is a directory (`fsPathResolver.isDirectory`).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapPathResolver } from '../../core/paths.js';
import { analyzeCommand } from '../analyze.js';
import { initShellParser } from '../parser.js';

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-copy-dir-')));
let counter = 0;

beforeAll(async () => {
  await initShellParser();
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Every path below `dir` (files and directories), absolute. */
function tree(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    out.push(p);
    if (statSync(p).isDirectory()) out.push(...tree(p));
  }
  return out;
}

/** A fresh world: project with `evil.sh`, `.bashrc`, `sub/`, `tree/.bashrc`; an empty home. */
function world(): { cwd: string; home: string } {
  const base = path.join(root, `w${counter++}`);
  const cwd = path.join(base, 'project');
  const home = path.join(base, 'home');
  mkdirSync(path.join(cwd, 'sub'), { recursive: true });
  mkdirSync(path.join(cwd, 'tree'), { recursive: true });
  mkdirSync(home, { recursive: true });
  for (const f of ['evil.sh', '.bashrc', 'x', 'tree/.bashrc']) writeFileSync(path.join(cwd, f), 'x');
  return { cwd, home };
}

/** [command, reason]: run for real; everything new under home or the project must be a write. */
const ROWS: [string, string][] = [
  ['cp evil.sh ~', 'a home directory without a trailing slash'],
  ['cp .bashrc ~', 'the source name is protected in the home directory'],
  ['cp .bashrc "$HOME"', 'the home directory as a variable'],
  ['cp x sub', 'an existing project directory without a slash'],
  ['cp x newname', 'a name that does not exist is the file written'],
  ['mv .bashrc ~', 'mv into the home directory'],
  ['cp -t ~ .bashrc', 'cp -t'],
  ['mv -t ~ evil.sh', 'mv -t'],
  ['ln -s "$PWD/x" ~', 'ln -s into a directory makes DIR/basename'],
  ['ln -t ~ -s "$PWD/evil.sh"', 'ln -t'],
  ['install -m 644 .bashrc ~', 'install into a directory'],
  ['install -t ~ evil.sh', 'install -t'],
  ['cp -r tree/. ~', 'the contents of a directory go straight into the destination'],
  ['cp x evil.sh sub', 'several sources: the destination is a directory'],
];

describe('copies into existing directories (oracle: the real programs)', () => {
  it.each(ROWS)('%s (%s)', (command) => {
    const { cwd, home } = world();
    const before = new Set([...tree(cwd), ...tree(home)]);
    execFileSync('bash', ['-c', command], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: home, PWD: cwd },
      // stdin is not a socket: bash started on a socket with no SHLVL reads ~/.bashrc.
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const created = [...tree(cwd), ...tree(home)].filter((p) => !before.has(p));
    expect(created.length).toBeGreaterThan(0);
    const a = analyzeCommand(command, { cwd, home });
    const writes = a.effects.filter((e) => e.kind === 'write');
    for (const f of created) {
      const covered = writes.some(
        (e) =>
          e.target === f ||
          (e.certainty === 'unknown' && e.target.endsWith('/*') && path.dirname(f) === e.target.slice(0, -2)),
      );
      expect(covered, `${f} is written`).toBe(true);
    }
  });
});

describe('without a directory probe, both names are written', () => {
  const opts = { cwd: '/p', home: '/h', resolver: mapPathResolver({}) };
  const writes = (command: string) =>
    analyzeCommand(command, opts)
      .effects.filter((e) => e.kind === 'write')
      .map((e) => (e.certainty === 'unknown' ? `?${e.target}` : e.target));

  it.each([
    ['cp x dest', ['/p/dest', '/p/dest/x'], 'dest may be a file or a directory'],
    ['cp .bashrc /h', ['/h/.bashrc'], 'the home directory is always a directory'],
    ['cp .bashrc ~', ['/h/.bashrc'], '~ is the home directory'],
    ['cp x .', ['/p/x'], 'the cwd'],
    ['cp -T x dest', ['/p/dest'], '-T: never a directory'],
    ['ln -s /t link', ['/p/link', '/p/link/t'], 'ln -s target link'],
    ['rsync .bashrc /h', ['/h/.bashrc'], 'rsync into the home directory'],
    ['rsync -a src/ /h/', ['?/h/*'], 'rsync src/ copies the contents of src'],
    ['scp host:.bashrc /h', ['/h/.bashrc'], 'scp a remote file into the home directory'],
  ])('%s → %j (%s)', (command, expected) => {
    expect(writes(command).sort()).toEqual([...expected].sort());
  });
});
