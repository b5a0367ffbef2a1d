/**
 * bin/gantry.js in a git checkout never runs a dist/ older than the sources: in a scratch copy of
 * the checkout (src/, scripts/, bin/, the manifests, a `.git` marker, node_modules linked), a first
 * run builds dist/, an edited source is rebuilt before the next run, and a build that cannot be
 * made is reported instead of running the old one.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
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
    env: { PATH: process.env.PATH, HOME: root },
  });
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
