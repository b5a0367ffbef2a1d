import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, type ToolUseContext } from '../../core/index.js';
import { makeTempDir, makeToolContext, runToolError, runToolOk } from '../../testing/tool-harness.js';
import { buildSearchFixture, setMtime } from '../ripgrep/test-tree.js';
import { createGlobTool, type GlobOutput, GlobTool } from './glob.tool.js';

let dir: string;
let tree: string;
let cleanup: () => Promise<void>;
let context: ToolUseContext;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('gantry-glob-'));
  tree = await buildSearchFixture(dir);
  context = makeToolContext({ cwd: tree });
});
afterAll(async () => cleanup());

const glob = (input: Record<string, unknown>, ctx = context, tool = GlobTool) =>
  runToolOk<GlobOutput>(tool, input, ctx);

describe('Glob: what is listed', () => {
  it('matches recursively, in mtime order (oldest first), relative to the cwd', async () => {
    const run = await glob({ pattern: '**/*.ts' });
    expect(run.data.filenames).toEqual([
      'ignored/skip.ts',
      '.hidden/h.ts',
      'src/a.ts',
      'src/nested/deep/c.ts',
      'src/ünïcödé-名前.ts',
    ]);
    expect(run.content).toBe(run.data.filenames.join('\n'));
    expect(run.data).toMatchObject({ numFiles: 5, truncated: false, totalMatches: 5 });
    expect(run.data.durationMs).toBeGreaterThanOrEqual(0);
  });

  it.each([
    ['*.md', ['README.md'], 'a pattern without ** is anchored at the root: top level only'],
    ['.*', ['.gitignore', '.env'], 'dot-files are included'],
    ['**/*.log', ['debug.log'], '.gitignore is not honoured by Glob (the Claude Code tools reference)'],
    ['node_modules/**/*.js', ['node_modules/pkg/index.js'], 'ignored directories are listed too'],
    ['src/[ab].ts*', ['src/a.ts', 'src/b.tsx'], 'character classes'],
    ['**/*.{md,tsx}', ['README.md', 'src/b.tsx', 'docs/guide.md'], 'braces'],
    ['src/link-*', [], 'symbolic links are not followed or listed'],
    ['**/HEAD', [], 'VCS directories are skipped unless the pattern names them'],
    ['**/.git/*', ['.git/HEAD', '.git/config'], 'a pattern that names .git lists it'],
    ['src/-dash.txt', ['src/-dash.txt'], 'a file name starting with a dash'],
    ['src/a:b.txt', ['src/a:b.txt'], 'a file name with a colon'],
    ['**/*名前*', ['src/ünïcödé-名前.ts'], 'unicode names'],
  ])('%s → %j (%s)', async (pattern, expected) => {
    expect((await glob({ pattern })).data.filenames).toEqual(expected);
  });

  it('says "No files found" when nothing matches, also under a directory that does not exist', async () => {
    expect((await glob({ pattern: '**/*.nothing' })).content).toBe('No files found');
    expect((await glob({ pattern: 'no-such-dir/**/*.ts' })).content).toBe('No files found');
  });

  it('takes a path relative to the cwd and an absolute pattern', async () => {
    expect((await glob({ pattern: '**/*.ts', path: 'src/nested' })).data.filenames).toEqual([
      'src/nested/deep/c.ts',
    ]);
    expect((await glob({ pattern: path.join(tree, 'docs/*.md') })).data.filenames).toEqual(['docs/guide.md']);
  });

  it('treats path "undefined" and "null" as absent (models send them)', async () => {
    expect((await glob({ pattern: '*.md', path: 'undefined' })).data.filenames).toEqual(['README.md']);
    expect((await glob({ pattern: '*.md', path: 'null' })).data.filenames).toEqual(['README.md']);
  });

  it('expands ~ in path', async () => {
    const before = process.env.HOME;
    process.env.HOME = dir;
    try {
      expect((await glob({ pattern: '*.md', path: '~/tree' })).data.filenames).toEqual(['README.md']);
    } finally {
      process.env.HOME = before;
    }
  });

  it('shows absolute paths for results outside the cwd', async () => {
    const ctx = makeToolContext({ cwd: path.join(tree, 'src') });
    expect((await glob({ pattern: 'docs/*.md', path: tree }, ctx)).data.filenames).toEqual([
      path.join(tree, 'docs/guide.md'),
    ]);
  });

  it('follows a symlinked search root to its target', async () => {
    const run = await glob({ pattern: '*.txt', path: 'src/link-dir' });
    expect(run.data.filenames).toEqual([path.join(dir, 'outside/secret/key.txt')]);
  });
});

describe('Glob: compat switches', () => {
  it.each([
    [
      { globSortOrder: 'newest-first' },
      '**/*.ts',
      ['src/ünïcödé-名前.ts', 'src/nested/deep/c.ts', 'src/a.ts', '.hidden/h.ts', 'ignored/skip.ts'],
      'newest first',
    ],
    [{ globRespectGitignore: true }, '**/*.log', [], '.gitignore honoured'],
    [{ globIncludeVcsDirs: true }, '**/HEAD', ['.git/HEAD'], 'VCS directories listed, as Claude Code does'],
  ] as const)('%j %s → %j (%s)', async (compat, pattern, expected, _why) => {
    expect((await glob({ pattern }, makeToolContext({ cwd: tree, compat }))).data.filenames).toEqual(
      expected,
    );
  });

  it('shows absolute paths with searchPathStyle absolute', async () => {
    const ctx = makeToolContext({ cwd: tree, compat: { searchPathStyle: 'absolute' } });
    expect((await glob({ pattern: '*.md' }, ctx)).data.filenames).toEqual([path.join(tree, 'README.md')]);
  });
});

describe('Glob: the 100 cap', () => {
  let many: string;
  beforeAll(async () => {
    many = path.join(dir, 'many');
    await mkdir(many);
    for (let i = 0; i < 150; i++) {
      const file = path.join(many, `f${String(i).padStart(3, '0')}.txt`);
      await writeFile(file, '');
      // f149 is the oldest, f000 the newest.
      await setMtime(file, new Date(Date.parse('2024-01-01T00:00:00Z') + (149 - i) * 1000).toISOString());
    }
  });

  it('returns the 100 oldest files and says the result was truncated', async () => {
    const run = await glob({ pattern: '*.txt', path: many });
    expect(run.data.numFiles).toBe(100);
    expect(run.data.truncated).toBe(true);
    expect(run.data.totalMatches).toBe(150);
    expect(run.data.filenames[0]).toBe(path.join(many, 'f149.txt'));
    expect(run.data.filenames[99]).toBe(path.join(many, 'f050.txt'));
    expect(run.content).toContain('(Results are truncated: showing 100 of 150 matching files, oldest first.');
    expect(run.content).toContain('more specific pattern or path');
  });

  it('keeps the same answer on the JavaScript fallback', async () => {
    const rg = await glob({ pattern: '*.txt', path: many });
    const js = await glob(
      { pattern: '*.txt', path: many },
      context,
      createGlobTool({ engine: 'javascript' }),
    );
    expect(js.data.filenames).toEqual(rg.data.filenames);
  });
});

describe('Glob: bad input', () => {
  it.each([
    [
      { pattern: '*', path: 'README.md' },
      /Path is not a directory: .*README\.md.*pass its parent directory/,
      'path is a file',
    ],
    [
      { pattern: '*', path: 'nope' },
      /Directory does not exist: nope\. The current working directory is /,
      'missing path',
    ],
    [{ pattern: 'a\0b' }, /NUL/, 'NUL in the pattern'],
    [{ pattern: '*', extra: 1 }, /InputValidationError/, 'unknown field'],
    [{ path: '.' }, /InputValidationError/, 'pattern missing'],
  ])('%j → %s (%s)', async (input, message, _why) => {
    expect(await runToolError(GlobTool, input, context)).toMatch(message);
  });

  it('rejects with AbortError when the turn is aborted (the tool itself honours the signal)', async () => {
    // The runtime never starts a call of an aborted turn, so the tool's own check is driven directly.
    const ctx = makeToolContext({ cwd: tree });
    ctx.abortController.abort();
    await expect(
      GlobTool.call(GlobTool.inputSchema.parse({ pattern: '**/*' }), ctx).next(),
    ).rejects.toBeInstanceOf(AbortError);
  });
});

describe('Glob: permissions and flags', () => {
  it('is read-only and concurrency-safe', () => {
    expect(GlobTool.isReadOnly({ pattern: '*' })).toBe(true);
    expect(GlobTool.isConcurrencySafe()).toBe(true);
  });

  it.each([
    [{ pattern: '**/*.ts' }, 'tree', undefined, 'the cwd when path is absent'],
    [{ pattern: '*.ts', path: 'src' }, 'tree/src', undefined, 'path resolved against the cwd'],
    [
      { pattern: '../outside/**/*' },
      'outside',
      undefined,
      'a pattern climbing out names the directory it reads',
    ],
    [{ pattern: '/etc/*.conf' }, '/etc', undefined, 'an absolute pattern names its directory'],
    [
      { pattern: '*', path: 'src/link-dir' },
      'outside/secret',
      'tree/src/link-dir',
      'symlinks resolved; the link as named too',
    ],
  ])('%j reads %s (as named: %s) (%s)', async (input, where, asNamed, _why) => {
    const abs = (p: string) => (path.isAbsolute(p) ? p : path.join(dir, p));
    const expected = abs(where);
    const d = await GlobTool.describeCall(input as never, context);
    expect(d.ruleContents).toEqual(asNamed ? [expected, abs(asNamed)] : [expected]);
    expect(d.effects[0]).toMatchObject({
      kind: 'read',
      target: expected,
      certainty: 'known',
      source: 'tool-input',
    });
    if (asNamed) expect(d.effects[1]).toMatchObject({ kind: 'read', target: abs(asNamed) });
    expect(d.effects).toHaveLength(asNamed ? 2 : 1);
    expect(d.readOnly).toBe(true);
  });

  it('lists a directory reached through a symlinked parent once resolved', async () => {
    const linkParent = path.join(dir, 'link-to-tree');
    await symlink(tree, linkParent);
    const d = await GlobTool.describeCall({ pattern: '*.md', path: linkParent }, context);
    expect(d.ruleContents).toEqual([tree, linkParent]);
  });
});
