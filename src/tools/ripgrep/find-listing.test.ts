/**
 * Glob's ordered listing through GNU find gives the files ripgrep lists (compared on the fixture
 * tree and on a tree of awkward entries), each with the mtime statSync gives; patterns whose glob
 * syntax could be read differently stay on ripgrep.
 */
import { execFileSync, spawn } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
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
  type GnuFind,
  gnuFindInfo,
  listFilesWithFind,
  splitRootEntries,
  versionHasFiles0From,
  walkerCount,
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
let find: GnuFind;

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
  find = (await gnuFindInfo()) as GnuFind;
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

/** Lists through find with `walkers` finds side by side. */
async function walk(root: string, pattern: string, walkers: number) {
  const files = new Map<string, number>();
  const request = {
    root,
    pattern,
    caseInsensitive: false,
    respectIgnore: false,
    excludeDirs: VCS_DIRECTORIES,
    signal: new AbortController().signal,
    onFile: () => true,
  };
  const outcome = await listFilesWithFind(
    find,
    request,
    (rel, mtimeMs) => {
      files.set(rel, mtimeMs);
      return true;
    },
    walkers,
  );
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
    [
      'fixture',
      '**/*.{ts}',
      'a one-alternative group stays on ripgrep (the matcher read it as literal braces)',
    ],
    ['fixture', '**/*{,.ts}', 'an empty alternative stays on ripgrep'],
  ])('%s %s (%s)', async (which, pattern, _why) => {
    const root = which === 'fixture' ? tree : odd;
    const viaFind = await list(root, { pattern, wantMtime: true });
    const viaRipgrep = await list(root, { pattern });
    expect(viaRipgrep.engine).toMatch(/^ripgrep /);
    // Patterns find cannot test: ripgrep lists and find stats what it listed (find-stat.ts).
    expect(viaFind.engine).toMatch(findListablePattern(pattern) ? /^find / : /^ripgrep \S+ with find /);
    expect([...viaFind.files.keys()].sort()).toEqual([...viaRipgrep.files.keys()].sort());
    if (!pattern.includes('n?me')) expect(viaFind.files.size).toBeGreaterThan(0);
    for (const [rel, mtimeMs] of viaFind.files) expect(mtimeMs).toBe(statSync(path.join(root, rel)).mtimeMs);
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
    ['[]]x', false, 'a class holding a closing bracket stays on ripgrep'],
    ['[a-z0-9]*.ts', true, 'ranges of ASCII letters and digits'],
    ['[a-c-e]*', false, 'a stray - after a range: the two readers differ'],
    ['[a.]*', false, 'punctuation in a class stays on ripgrep'],
    ['**/*.{ts}', false, 'one alternative: ripgrep reads it as a group, the matcher as literal braces'],
    ['*{,.ts}', false, 'an empty alternative first'],
    ['*{.ts,}', false, 'an empty alternative last'],
    ['{a,,b}.ts', false, 'an empty alternative inside'],
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
    expect(viaRipgrep.engine).toMatch(/^ripgrep \S+ with find /);
    expect(viaRipgrep.files.size).toBeGreaterThan(1000);
    const plain = await list(flat, { pattern: '**/*.ts' });
    expect([...viaRipgrep.files.keys()].sort()).toEqual([...plain.files.keys()].sort());
    for (const [rel, mtimeMs] of viaRipgrep.files)
      expect(mtimeMs).toBe(statSync(path.join(flat, rel)).mtimeMs);
  });
});

describe('walkers side by side', () => {
  it('splitRootEntries deals every root entry to exactly one group, bytes unchanged', () => {
    const groups = splitRootEntries(odd, 3) as Buffer[];
    expect(groups).toHaveLength(3);
    const names = groups.flatMap((g) => g.toString('latin1').split('\0').slice(0, -1));
    expect(names.sort()).toEqual(readdirSync(odd, { encoding: 'latin1' }).sort());
    expect(splitRootEntries(odd, 1), 'one walker: no split').toBeUndefined();
    expect(splitRootEntries(odd, 100), 'fewer entries than walkers').toBeUndefined();
    expect(splitRootEntries(path.join(dir, 'missing'), 2), 'unreadable root').toBeUndefined();
  });

  it('several walkers list what one walker lists, a root name that is not UTF-8 included', async () => {
    const bytes = path.join(dir, 'bytes');
    mkdirSync(path.join(bytes, 'sub'), { recursive: true });
    writeFileSync(Buffer.concat([Buffer.from(`${bytes}/`), Buffer.from([0x62, 0xff, 0x2e, 0x74, 0x73])]), '');
    for (const n of ['a.ts', 'sub/b.ts', 'sub/c.md']) writeFileSync(path.join(bytes, n), n);
    const viaFind = await walk(bytes, '**/*.ts', 2);
    const viaRipgrep = await list(bytes, { pattern: '**/*.ts' });
    expect([...viaFind.files.keys()].sort()).toEqual([...viaRipgrep.files.keys()].sort());
    expect(viaFind.files.size).toBe(3);
    expect(viaFind.engine).toBe(`find ${find.path} (2 walkers)`);
    const everything = [...(await list(tree, { pattern: '**/*' })).files.keys()].sort();
    for (const walkers of [1, 2, 3]) {
      const whole = await walk(tree, '**/*', walkers);
      expect([...whole.files.keys()].sort(), `${walkers} walkers`).toEqual(everything);
    }
  });

  it('walkerCount: one per core up to four, one on a machine already busy', () => {
    expect(walkerCount(2, 0.5)).toBe(2);
    expect(walkerCount(16, 1)).toBe(4);
    expect(walkerCount(1, 0)).toBe(1);
    expect(walkerCount(2, 2.5), 'load at or above the cores').toBe(1);
  });

  it('a root entry swapped between a directory and a link to outside is never walked through the link', async () => {
    const swapRoot = path.join(dir, 'swap');
    const outside = path.join(dir, 'outside-swap');
    mkdirSync(path.join(swapRoot, 'sub'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    for (let i = 0; i < 20; i++) writeFileSync(path.join(swapRoot, `f${i}.txt`), '');
    writeFileSync(path.join(swapRoot, 'sub', 'inside.txt'), '');
    writeFileSync(path.join(outside, 'only-outside.txt'), '');
    const swapper = spawn(
      'sh',
      ['-c', 'while :; do mv sub sub.d && ln -s ../outside-swap sub && rm sub && mv sub.d sub; done'],
      { cwd: swapRoot, stdio: 'ignore' },
    );
    try {
      let leaked = 0;
      let walked = 0;
      for (let i = 0; i < 60; i++) {
        const { files, engine } = await walk(swapRoot, '**/*.txt', 2);
        expect(engine).toMatch(/\(2 walkers\)$/);
        walked += files.size;
        if ([...files.keys()].some((f) => f.includes('only-outside'))) leaked++;
      }
      expect(walked).toBeGreaterThan(0);
      expect(leaked).toBe(0);
    } finally {
      swapper.kill('SIGKILL');
      await new Promise((resolve) => swapper.once('exit', resolve));
    }
  });
});

describe('ripgrep listing, find stat-ing (find-stat.ts)', () => {
  it('a directory swapped with a link to outside while ripgrep lists and find stats never lists an outside file', async () => {
    const swapRoot = path.join(dir, 'swap-piped');
    const outside = path.join(dir, 'outside-swap-piped');
    mkdirSync(path.join(swapRoot, 'sub'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    for (let i = 0; i < 20; i++) writeFileSync(path.join(swapRoot, `f${i}.txt`), '');
    writeFileSync(path.join(swapRoot, 'sub', 'inside.txt'), '');
    writeFileSync(path.join(outside, 'only-outside.txt'), '');
    const swapper = spawn(
      'sh',
      ['-c', 'while :; do mv sub sub.d && ln -s ../outside-swap-piped sub && rm sub && mv sub.d sub; done'],
      { cwd: swapRoot, stdio: 'ignore' },
    );
    try {
      let leaked = 0;
      let listed = 0;
      for (let i = 0; i < 60; i++) {
        // `?` keeps the pattern on ripgrep, whose names find stats.
        const { files, engine } = await list(swapRoot, { pattern: '**/*.tx?', wantMtime: true });
        expect(engine).toMatch(/^ripgrep \S+ with find /);
        listed += files.size;
        if ([...files.keys()].some((f) => f.includes('only-outside'))) leaked++;
      }
      expect(listed).toBeGreaterThan(0);
      expect(leaked).toBe(0);
    } finally {
      swapper.kill('SIGKILL');
      await new Promise((resolve) => swapper.once('exit', resolve));
    }
  });
});

describe('versionHasFiles0From', () => {
  it.each([
    ['find (GNU findutils) 4.9.0', true, 'the first release with -files0-from'],
    ['find (GNU findutils) 4.10.0', true, 'a later minor'],
    ['find (GNU findutils) 5.0', true, 'a later major'],
    ['find (GNU findutils) 4.8.0', false, 'Debian bullseye: no -files0-from'],
    ['find (GNU findutils) 4.6.0.225-235f', false, 'an old release'],
    ['BusyBox v1.36.1', false, 'not GNU find'],
  ])('%s → %s (%s)', (text, expected, _why) => {
    expect(versionHasFiles0From(text)).toBe(expected);
  });

  it('a find without -files0-from walks `.` with one find', async () => {
    const one = await listFilesWithFind(
      { ...find, files0From: false },
      {
        root: tree,
        pattern: '**/*',
        caseInsensitive: false,
        respectIgnore: false,
        excludeDirs: VCS_DIRECTORIES,
        signal: new AbortController().signal,
        onFile: () => true,
      },
      () => true,
      2,
    );
    expect(one.engine).toBe(`find ${find.path}`);
  });
});
