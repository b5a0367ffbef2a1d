/**
 * Glob's ordered listing through GNU find gives the files ripgrep lists (compared on the fixture
 * tree and on a tree of awkward entries), each with the mtime statSync gives; patterns whose glob
 * syntax could be read differently stay on ripgrep.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FIND_MAX_ROOT_DIR_BYTES,
  findListablePattern,
  gnuFindPath,
  mtimeMsOf,
  nameFilterOf,
  rootSuitsFind,
} from './find-listing.js';
import {
  type ListFilesRequest,
  listFiles,
  resolveSearchEngine,
  type SearchEngine,
  VCS_DIRECTORIES,
} from './index.js';
import { buildSearchFixture } from './test-tree.js';

let dir: string;
let tree: string;
let odd: string;
let rg: SearchEngine;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gantry-find-listing-'));
  tree = await buildSearchFixture(dir);
  // Entries find and ripgrep must treat alike: a FIFO, a socket-free special file set, links, VCS
  // names as files and directories at depth, names with brackets and spaces, a hidden directory.
  odd = path.join(dir, 'odd');
  for (const d of ['a/.git/objects', 'a/b/.hg', 'pages/[id]', '.cache/x', 'sp ace']) {
    await mkdir(path.join(odd, d), { recursive: true });
  }
  const files = [
    'a/.git/objects/o.ts',
    'a/b/.hg/h.ts',
    'a/b/.git',
    'a/b/c.ts',
    'pages/[id].tsx',
    'pages/[id]/index.tsx',
    '.cache/x/cached.ts',
    'sp ace/s p.ts',
    'top.ts',
    'top.tsx',
    'Top.TS',
    'n\u00e4me.ts',
  ];
  for (const f of files) await writeFile(path.join(odd, f), `${f}\n`);
  await symlink('top.ts', path.join(odd, 'link.ts'));
  await symlink('a', path.join(odd, 'dirlink'));
  execFileSync('mkfifo', [path.join(odd, 'fifo.ts')]);
  rg = await resolveSearchEngine({ engine: 'ripgrep' });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function list(
  root: string,
  request: Partial<ListFilesRequest> & { pattern: string },
): Promise<{ files: Map<string, number | undefined>; engine: string }> {
  const files = new Map<string, number | undefined>();
  const outcome = await listFiles(rg, {
    root,
    caseInsensitive: false,
    respectIgnore: false,
    excludeDirs: VCS_DIRECTORIES,
    signal: new AbortController().signal,
    ...request,
    onFile: (rel, mtimeMs) => {
      files.set(rel, mtimeMs);
      return true;
    },
  });
  return { files, engine: outcome.engine };
}

it('finds GNU find on this machine (the listing below would otherwise only test ripgrep against itself)', async () => {
  expect(process.platform).toBe('linux');
  expect(await gnuFindPath()).toMatch(/\/find$/);
});

describe('the same files as ripgrep, with the mtimes statSync gives', () => {
  it.each([
    ['fixture', '**/*.ts', 'recursive; ignored directories included; .git pruned; links left out'],
    ['fixture', '**/*', 'every regular file'],
    ['fixture', '*.md', 'anchored at the root: top level only'],
    ['fixture', 'src/**/*', 'everything under a directory'],
    ['fixture', '**/*.{ts,tsx}', 'braces (the glob matcher decides, find has no name test)'],
    ['fixture', 'src/[ab].ts', 'a character class'],
    ['fixture', '**/deep/*', 'a directory name at any depth'],
    ['fixture', '.*', 'dot-files at the top'],
    ['fixture', '**/*名前.ts', 'a non-ASCII name test'],
    ['odd', '**/*.ts', 'VCS directories and files of VCS names pruned at depth; FIFO and links left out'],
    ['odd', '**/*.tsx', 'names with brackets are plain names to -name'],
    ['odd', 'pages/[[]id]/*', 'a class holding a bracket'],
    ['odd', '**/*', 'hidden directories walked'],
    ['odd', '*', 'a bare star: top-level files only'],
    ['odd', 'sp ace/*', 'spaces in names'],
    ['odd', '**/*.TS', 'case matters'],
    ['odd', '**/n?me.ts', '? stays on ripgrep (one byte there, one character to the matcher)'],
    ['odd', '**/t?p.ts', '? on an ASCII name, on ripgrep too'],
  ])('%s %s (%s)', async (which, pattern, _why) => {
    const root = which === 'fixture' ? tree : odd;
    const viaFind = await list(root, { pattern, wantMtime: true });
    const viaRipgrep = await list(root, { pattern });
    expect(viaRipgrep.engine).toMatch(/^ripgrep /);
    expect(viaFind.engine).toMatch(findListablePattern(pattern) ? /^find / : /^ripgrep /);
    expect([...viaFind.files.keys()].sort()).toEqual([...viaRipgrep.files.keys()].sort());
    if (!pattern.includes('n?me')) expect(viaFind.files.size).toBeGreaterThan(0);
    for (const [rel, mtimeMs] of viaFind.files) {
      if (viaFind.engine.startsWith('find ')) expect(mtimeMs).toBe(statSync(path.join(root, rel)).mtimeMs);
      else expect(mtimeMs).toBeUndefined();
    }
  });

  it('without wantMtime, case-insensitively, or when ignore files are honoured, ripgrep lists', async () => {
    expect((await list(tree, { pattern: '**/*.ts' })).engine).toMatch(/^ripgrep /);
    expect((await list(tree, { pattern: '**/*.TS', wantMtime: true, caseInsensitive: true })).engine).toMatch(
      /^ripgrep /,
    );
    expect((await list(tree, { pattern: '**/*.ts', wantMtime: true, respectIgnore: true })).engine).toMatch(
      /^ripgrep /,
    );
  });

  it('lists VCS directories when they are not excluded', async () => {
    const { files, engine } = await list(odd, { pattern: '**/*.ts', wantMtime: true, excludeDirs: [] });
    expect(engine).toMatch(/^find /);
    expect(files.has('a/.git/objects/o.ts')).toBe(true);
    expect(files.has('a/b/.hg/h.ts')).toBe(true);
  });

  it('stops when onFile says so', async () => {
    let seen = 0;
    const outcome = await listFiles(rg, {
      root: tree,
      pattern: '**/*',
      caseInsensitive: false,
      respectIgnore: false,
      excludeDirs: VCS_DIRECTORIES,
      wantMtime: true,
      signal: new AbortController().signal,
      onFile: () => ++seen < 2,
    });
    expect(outcome.engine).toMatch(/^find /);
    expect(seen).toBe(2);
    expect(outcome.complete).toBe(false);
  });
});

describe('findListablePattern', () => {
  it.each([
    ['**/*.ts', true, 'stars and a literal'],
    ['src/**/*.{ts,tsx}', true, 'one level of braces'],
    ['pages/[id].tsx', true, 'a bracket class'],
    ['[!a-c]*.md', true, 'a negated class'],
    ['**/?.ts', false, '? is a byte to ripgrep, a character to the matcher'],
    ['[äb].ts', false, 'a non-ASCII character in a class'],
    ['[]]x', true, 'a class holding a closing bracket'],
    ['*.+(ts|js)', false, 'extglob'],
    ['@(a|b).ts', false, 'extglob @'],
    ['file(1).txt', false, 'parentheses: extglob syntax to one matcher, literal to the other'],
    ['{a,{b,c}}.ts', false, 'nested braces'],
    ['{1..3}.ts', false, 'a brace range'],
    ['{a,b.ts', false, 'unclosed brace: ripgrep reports it'],
    ['a}.ts', false, 'stray closing brace'],
    ['[abc.ts', false, 'unclosed bracket: ripgrep reports it'],
    ['x].ts', false, 'stray closing bracket'],
    ['[[:alpha:]].ts', false, 'a POSIX class'],
    ['a\\*b', false, 'a backslash escape'],
    ['!x.ts', false, 'a leading ! would negate'],
  ])('%s → %s (%s)', (pattern, expected, _why) => {
    expect(findListablePattern(pattern)).toBe(expected);
  });
});

describe('nameFilterOf', () => {
  it.each([
    ['**/*.ts', '*.ts', 'the last segment'],
    ['src/*Outlined.js', '*Outlined.js', 'a literal with a star'],
    ['README.md', 'README.md', 'a literal name'],
    ['**/*', undefined, 'a bare star filters nothing'],
    ['src/**', undefined, 'a globstar last'],
    ['**/?.ts', undefined, '? is one byte to fnmatch in the C locale'],
    ['**/*.{ts,tsx}', undefined, 'braces are not fnmatch syntax'],
    ['**/[ab].ts', undefined, 'classes are left to the matcher'],
  ])('%s → %s (%s)', (pattern, expected, _why) => {
    expect(nameFilterOf(pattern)).toBe(expected);
  });
});

describe('mtimeMsOf', () => {
  it.each([
    ['1704067200.0000000000', 1704067200000, 'whole seconds'],
    ['1704067200.1234567890', 1704067200000 + 123456789 / 1e6, 'nanoseconds'],
    ['1704067200.5', 1704067200500, 'fewer digits'],
    ['1704067200', 1704067200000, 'no fraction'],
  ])('%s → %d (%s)', (field, expected, _why) => {
    expect(mtimeMsOf(field)).toBe(expected);
  });

  it('equals statSync for a file with a sub-millisecond mtime', async () => {
    const f = path.join(dir, 'fine.txt');
    await writeFile(f, 'x');
    const out = execFileSync('find', [f, '-printf', '%T@'], { encoding: 'utf8' });
    expect(mtimeMsOf(out)).toBe(lstatSync(f).mtimeMs);
  });
});

describe('rootSuitsFind', () => {
  it('a root that is one huge directory is listed by ripgrep; an ordinary one by find', async () => {
    const flat = path.join(dir, 'flat');
    mkdirSync(flat);
    const long = 'n'.repeat(120);
    for (let i = 0; statSync(flat).size <= FIND_MAX_ROOT_DIR_BYTES; i++) {
      for (let j = 0; j < 200; j++) writeFileSync(path.join(flat, `${long}-${i}-${j}.ts`), '');
    }
    expect(rootSuitsFind(flat)).toBe(false);
    expect(rootSuitsFind(odd)).toBe(true);
    expect(rootSuitsFind(path.join(dir, 'missing'))).toBe(false);
    const viaRipgrep = await list(flat, { pattern: '**/*.ts', wantMtime: true });
    expect(viaRipgrep.engine).toMatch(/^ripgrep /);
    expect(viaRipgrep.files.size).toBeGreaterThan(1000);
  });
});
