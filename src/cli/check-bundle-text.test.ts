/**
 * scripts/build-bundle-text.mjs `shareEsmInterop`: the start-up bundles' `__toESM` helper returns one
 * object per CommonJS module instead of one per importing module (docs/startup.md). Checked on a
 * real esbuild bundle run in a real Node process: the program prints the same values with and
 * without the rewrite, only the importers' namespace objects become one; a bundle without the helper
 * is left byte for byte; a helper that is not at the top fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');
const TEXT = pathToFileURL(path.join(repo, 'scripts/build-bundle-text.mjs')).href;
const ESBUILD = pathToFileURL(createRequire(import.meta.url).resolve('esbuild')).href;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Runs an ES module script with node in `dir`; its stdout (throws on a non-zero exit). */
function node(dir: string, script: string): string {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
}

/** A scratch program of two ES modules importing `node:path` (default and named) and a CommonJS file. */
function program(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'gantry-bundle-text-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'c.cjs'), 'exports.n = 1; exports.bump = () => ++exports.n;\n');
  for (const m of ['a', 'b'])
    writeFileSync(
      path.join(dir, `${m}.mjs`),
      [
        "import path, { basename } from 'node:path';",
        "import * as c from './c.cjs';",
        `export const ${m} = { path, c, base: basename('/x/${m}.txt'), join: path.join('${m}', 'y') };`,
      ].join('\n'),
    );
  writeFileSync(
    path.join(dir, 'entry.mjs'),
    [
      "import { a } from './a.mjs';",
      "import { b } from './b.mjs';",
      'a.c.bump();',
      'console.log(JSON.stringify({ base: [a.base, b.base], join: [a.join, b.join], n: [a.c.n, b.c.n],',
      '  keys: Object.keys(a.path).length === Object.keys(b.path).length, sameNs: a.c === b.c }));',
    ].join('\n'),
  );
  return dir;
}

describe('shareEsmInterop', () => {
  it('keeps what the program prints and makes one namespace object per CommonJS module', () => {
    const dir = program();
    const out = node(
      dir,
      [
        `import { build } from ${JSON.stringify(ESBUILD)};`,
        "import { writeFileSync } from 'node:fs';",
        "import { execFileSync } from 'node:child_process';",
        `import { shareEsmInterop } from ${JSON.stringify(TEXT)};`,
        "const r = await build({ entryPoints: ['entry.mjs'], bundle: true, platform: 'node', format: 'cjs', write: false, minifyWhitespace: true });",
        'const plain = r.outputFiles[0].contents;',
        "const shared = shareEsmInterop(plain, 'entry');",
        "writeFileSync('plain.cjs', plain); writeFileSync('shared.cjs', shared);",
        "const run = (f) => execFileSync(process.execPath, [f], { encoding: 'utf8' });",
        "console.log(JSON.stringify({ plain: run('plain.cjs'), shared: run('shared.cjs'), changed: Buffer.compare(plain, shared) !== 0 }));",
      ].join('\n'),
    );
    const { plain, shared, changed } = JSON.parse(out) as { plain: string; shared: string; changed: boolean };
    expect(changed).toBe(true);
    const p = JSON.parse(plain) as Record<string, unknown>;
    const s = JSON.parse(shared) as Record<string, unknown>;
    expect(p.sameNs).toBe(false);
    expect(s.sameNs).toBe(true);
    expect({ ...s, sameNs: undefined }).toEqual({ ...p, sameNs: undefined });
    expect(s).toMatchObject({ base: ['a.txt', 'b.txt'], join: ['a/y', 'b/y'], n: [2, 2], keys: true });
  });

  it('leaves a bundle without the helper as it is and refuses one whose helper is not at the top', () => {
    const dir = program();
    const out = node(
      dir,
      [
        `import { shareEsmInterop } from ${JSON.stringify(TEXT)};`,
        "const none = Buffer.from('console.log(1);\\n');",
        'const late = Buffer.from(`${"//".padEnd(5000, "x")}\\nvar __toESM = (mod, isNodeMode, target) => mod;\\n`);',
        'let refused = false;',
        "try { shareEsmInterop(late, 'late'); } catch (e) { refused = /not at the top/.test(e.message); }",
        "console.log(JSON.stringify({ same: shareEsmInterop(none, 'none') === none, refused }));",
      ].join('\n'),
    );
    expect(JSON.parse(out)).toEqual({ same: true, refused: true });
  });
});
