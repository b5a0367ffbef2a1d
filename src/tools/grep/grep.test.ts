import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, type ToolUseContext } from '../../core/index.js';
import { makeTempDir, makeToolContext, runToolError, runToolOk } from '../../testing/tool-harness.js';
import { buildSearchFixture, setMtime } from '../ripgrep/test-tree.js';
import type { GrepOutput } from './grep-output.js';
import { createGrepTool, GREP_MAX_RESULT_SIZE_CHARS, GrepTool, splitGlobField } from './grep.tool.js';

let dir: string;
let tree: string;
let cleanup: () => Promise<void>;
let context: ToolUseContext;
const JsGrep = createGrepTool({ engine: 'javascript' });

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('gantry-grep-'));
  tree = await buildSearchFixture(dir);
  context = makeToolContext({ cwd: tree });
});
afterAll(async () => cleanup());

const grep = (input: Record<string, unknown>, ctx = context, tool = GrepTool) =>
  runToolOk<GrepOutput>(tool, input, ctx);

describe('Grep files_with_matches (default)', () => {
  it('lists matching files newest first, relative to the cwd, without ignored files, .git or symlinks', async () => {
    const run = await grep({ pattern: 'foo' });
    expect(run.content).toBe(
      [
        'Found 14 files',
        'docs/guide.md',
        'src/min.js',
        'src/bom.txt',
        'src/utf16.txt',
        'src/a:b.txt',
        'src/-dash.txt',
        'src/crlf.txt',
        'src/ünïcödé-名前.ts',
        'src/nested/deep/c.ts',
        'src/b.tsx',
        'src/a.ts',
        'README.md',
        '.hidden/h.ts',
        '.env',
      ].join('\n'),
    );
    expect(run.data).toMatchObject({ mode: 'files_with_matches', numFiles: 14, hasMore: false });
  });

  it('follows a touched file to the top (mtime order)', async () => {
    await setMtime(path.join(tree, 'README.md'), '2030-01-01T00:00:00Z');
    try {
      expect((await grep({ pattern: 'foo' })).data.filenames[0]).toBe('README.md');
    } finally {
      await setMtime(path.join(tree, 'README.md'), '2024-01-01T00:08:00Z');
    }
  });

  it('says "No files found" when nothing matches', async () => {
    expect((await grep({ pattern: 'absent-text-xyz' })).content).toBe('No files found');
  });
});

describe('Grep content mode', () => {
  it('prints path:line:text with line numbers by default, in path order', async () => {
    const run = await grep({ pattern: 'foo', output_mode: 'content', glob: 'src/nested/**' });
    expect(run.content).toBe('src/nested/deep/c.ts:2:line two foo\nsrc/nested/deep/c.ts:6:line six foo');
    expect(run.data).toMatchObject({
      mode: 'content',
      numLines: 2,
      numMatches: 2,
      filenames: ['src/nested/deep/c.ts'],
    });
  });

  it.each([
    [
      { '-C': 1 },
      'c.ts-1-line one\nc.ts:2:line two foo\nc.ts-3-line three\n--\nc.ts-5-line five\nc.ts:6:line six foo\nc.ts-7-line seven',
      '-C',
    ],
    [
      { context: 1, '-C': 3 },
      'c.ts-1-line one\nc.ts:2:line two foo\nc.ts-3-line three\n--\nc.ts-5-line five\nc.ts:6:line six foo\nc.ts-7-line seven',
      'context wins over -C',
    ],
    [{ '-A': 1 }, 'c.ts:2:line two foo\nc.ts-3-line three\n--\nc.ts:6:line six foo\nc.ts-7-line seven', '-A'],
    [
      { '-B': 3 },
      'c.ts-1-line one\nc.ts:2:line two foo\nc.ts-3-line three\nc.ts-4-line four\nc.ts-5-line five\nc.ts:6:line six foo',
      '-B merges adjacent groups',
    ],
    [{ '-n': false }, 'c.ts:line two foo\nc.ts:line six foo', 'no line numbers'],
  ])('%j (%s)', async (extra, expected, _why) => {
    const deep = makeToolContext({ cwd: path.join(tree, 'src/nested/deep') });
    const run = await grep({ pattern: 'foo', output_mode: 'content', ...extra }, deep);
    expect(run.content).toBe(expected);
  });

  it('leaves out the path when the search root is a file (as ripgrep does)', async () => {
    expect((await grep({ pattern: 'foo', path: 'src/a.ts', output_mode: 'content' })).content).toBe(
      '2:export function foo() {\n5:// foo again',
    );
  });

  it.each([
    [
      { pattern: '-x', path: 'src/-dash.txt' },
      '1:has -x flag',
      'a pattern starting with a dash is a pattern, not a flag',
    ],
    [{ pattern: '--long-flag', path: 'src/-dash.txt' }, '2:and --long-flag foo', 'a double dash too'],
    [
      { pattern: 'end$', path: 'src/crlf.txt' },
      '2:foo at end',
      'CRLF: $ matches before \\r\\n and no \\r is printed',
    ],
    [{ pattern: 'FOO', '-i': true, path: 'README.md' }, '3:foo bar baz\n4:FOO upper', '-i'],
    [
      { pattern: 'ünïcödé', path: 'src' },
      'src/ünïcödé-名前.ts:1:export const ünï = "foo ünïcödé";',
      'unicode text and file name',
    ],
    [{ pattern: 'utf16 foo', path: 'src' }, 'src/utf16.txt:1:utf16 foo line', 'UTF-16 with a BOM is decoded'],
    [
      { pattern: 'struct A \\{.*?\\}', multiline: true, path: 'src/multi.txt' },
      '1:struct A {\n2:  field: u32,\n3:}',
      'multiline spans lines',
    ],
    [{ pattern: 'fo+', '-o': true, path: 'src/a.ts' }, '2:foo\n5:foo', '-o prints the matched part'],
    [{ pattern: 'foo', path: 'src/a:b.txt' }, '1:colon name foo', 'a colon in the file name'],
  ])('%j (%s)', async (input, expected, _why) => {
    expect((await grep({ output_mode: 'content', ...input })).content).toBe(expected);
  });

  it('cuts a minified line to a preview', async () => {
    const run = await grep({ pattern: 'foo', output_mode: 'content', path: 'src/min.js' });
    expect(run.content).toBe(`1:${'var a=1;'.repeat(62)}var  [... omitted end of long line]`);
  });

  it('says "No matches found" when nothing matches', async () => {
    expect((await grep({ pattern: 'absent-text-xyz', output_mode: 'content' })).content).toBe(
      'No matches found',
    );
  });
});

describe('Grep count mode', () => {
  it('prints path:count per file in path order, then the total', async () => {
    const run = await grep({ pattern: 'foo', output_mode: 'count', glob: '*.ts' });
    expect(run.content).toBe(
      '.hidden/h.ts:1\nsrc/a.ts:2\nsrc/nested/deep/c.ts:2\nsrc/ünïcödé-名前.ts:1\n\nFound 6 total occurrences across 4 files.',
    );
    expect(run.data).toMatchObject({ mode: 'count', numMatches: 6, numFiles: 4 });
  });
});

describe('Grep paging (head_limit / offset)', () => {
  let paged: string;
  let ctx: ToolUseContext;
  beforeAll(async () => {
    paged = path.join(dir, 'paged');
    await mkdir(paged);
    for (let i = 0; i < 30; i++) {
      const file = path.join(paged, `f${String(i).padStart(2, '0')}.txt`);
      await writeFile(file, 'hit one\nmiss\nhit two\n');
      await setMtime(file, new Date(Date.parse('2024-01-01T00:00:00Z') + i * 1000).toISOString());
    }
    ctx = makeToolContext({ cwd: paged });
  });

  it('content: pages of lines that continue where the last one ended', async () => {
    const first = await grep({ pattern: 'hit', output_mode: 'content', head_limit: 5 }, ctx);
    expect(first.content).toBe(
      'f00.txt:1:hit one\nf00.txt:3:hit two\nf01.txt:1:hit one\nf01.txt:3:hit two\nf02.txt:1:hit one\n\n[Showing lines 1-5. Use offset=5 to see more.]',
    );
    const second = await grep({ pattern: 'hit', output_mode: 'content', head_limit: 5, offset: 5 }, ctx);
    expect(second.content.toString().split('\n')[0]).toBe('f02.txt:3:hit two');
    expect(second.data).toMatchObject({ appliedLimit: 5, appliedOffset: 5, hasMore: true });
    const last = await grep({ pattern: 'hit', output_mode: 'content', head_limit: 5, offset: 55 }, ctx);
    expect(last.content).toBe(
      'f27.txt:3:hit two\nf28.txt:1:hit one\nf28.txt:3:hit two\nf29.txt:1:hit one\nf29.txt:3:hit two',
    );
  });

  it('content: an offset past the end says so instead of "no matches"', async () => {
    const run = await grep({ pattern: 'hit', output_mode: 'content', offset: 1000 }, ctx);
    expect(run.content).toBe(
      'No entries at this offset: offset=1000, but the search has only 60 lines. Use a smaller offset (offset=0 starts from the beginning).',
    );
  });

  it('files_with_matches: newest first, paged, with the total', async () => {
    const run = await grep({ pattern: 'hit', head_limit: 3, offset: 3 }, ctx);
    expect(run.content).toBe(
      'Found 30 files\nf26.txt\nf25.txt\nf24.txt\n\n[Showing files 4-6 of 30. Use offset=6 to see more.]',
    );
  });

  it('count: paged rows, total over every file', async () => {
    const run = await grep({ pattern: 'hit', output_mode: 'count', head_limit: 2 }, ctx);
    expect(run.content).toBe(
      'f00.txt:2\nf01.txt:2\n\nFound 60 total occurrences across 30 files.\n\n[Showing files 1-2 of 30. Use offset=2 to see more.]',
    );
  });

  it('defaults to 250 entries and 0 means no limit', async () => {
    expect((await grep({ pattern: 'hit|miss', output_mode: 'content' }, ctx)).data).toMatchObject({
      numLines: 90,
      hasMore: false,
    });
    const limited = await grep(
      { pattern: 'hit|miss', output_mode: 'content', head_limit: 0 },
      makeToolContext({ cwd: paged, compat: { grepHeadLimitDefault: 10 } }),
    );
    expect(limited.data.numLines).toBe(90);
    const compat = await grep(
      { pattern: 'hit', output_mode: 'content' },
      makeToolContext({ cwd: paged, compat: { grepHeadLimitDefault: 10 } }),
    );
    expect(compat.data).toMatchObject({ numLines: 10, hasMore: true });
  });
});

describe('Grep filters', () => {
  it.each([
    [
      { glob: '*.ts,*.tsx' },
      ['.hidden/h.ts', 'src/a.ts', 'src/b.tsx', 'src/nested/deep/c.ts', 'src/ünïcödé-名前.ts'],
      'comma-separated globs',
    ],
    [{ glob: '"*.md"' }, ['README.md', 'docs/guide.md'], 'quotes around the glob are dropped'],
    [{ glob: '*.{md,tsx}' }, ['README.md', 'docs/guide.md', 'src/b.tsx'], 'braces keep their commas'],
    [{ glob: '*.log' }, ['debug.log'], "an explicit glob reaches a .gitignore'd file (ripgrep semantics)"],
    [
      { type: 'ts' },
      ['.hidden/h.ts', 'src/a.ts', 'src/b.tsx', 'src/nested/deep/c.ts', 'src/ünïcödé-名前.ts'],
      '--type',
    ],
    [{ path: 'ignored' }, ['ignored/skip.ts'], 'an ignored directory named as the path is searched'],
    [{ path: 'src/link-dir' }, ['../outside/secret/key.txt'], 'a symlinked root is resolved to its target'],
  ])('%j (%s)', async (extra, expected, _why) => {
    const run = await grep({ pattern: 'foo', output_mode: 'count', ...extra });
    const shown = run.data.filenames.map((f) => (f.startsWith('/') ? path.relative(tree, f) : f));
    expect(shown).toEqual(expected);
  });

  it.each([
    ['*.ts,*.tsx', ['*.ts', '*.tsx'], 'commas separate'],
    ['*.ts *.md', ['*.ts', '*.md'], 'spaces separate'],
    ['*.{ts,tsx}', ['*.{ts,tsx}'], 'braces keep commas'],
    ['".gitignore"', ['.gitignore'], 'quotes dropped'],
    ['  ', [], 'blank'],
  ])('splitGlobField(%j) → %j (%s)', (field, expected) => {
    expect(splitGlobField(field)).toEqual(expected);
  });
});

describe('Grep errors', () => {
  it.each([
    [
      { pattern: 'a{' },
      /Invalid pattern: regex parse error[\s\S]*escape literal characters/,
      'bad regex: ripgrep diagnostic and the fix',
    ],
    [
      { pattern: 'x', type: 'nosuchtype' },
      /Invalid type: unrecognized file type: nosuchtype[\s\S]*type name ripgrep knows/,
      'unknown type',
    ],
    [
      { pattern: 'x', path: 'missing' },
      /Path does not exist: missing\. The current working directory is .*omit path/,
      'missing path',
    ],
    [{ pattern: 'x', output_mode: 'lines' }, /InputValidationError/, 'unknown output_mode'],
    [{ pattern: 'x', head_limit: -1 }, /InputValidationError/, 'negative head_limit'],
    [{ pattern: 'x', bogus: true }, /InputValidationError/, 'unknown field'],
  ])('%j → %s (%s)', async (input, message, _why) => {
    expect(await runToolError(GrepTool, input, context)).toMatch(message);
  });

  it('rejects with AbortError when the turn is aborted (the tool itself honours the signal)', async () => {
    // The runtime never starts a call of an aborted turn, so the tool's own check is driven directly.
    const ctx = makeToolContext({ cwd: tree });
    ctx.abortController.abort();
    await expect(
      GrepTool.call(GrepTool.inputSchema.parse({ pattern: 'foo' }), ctx).next(),
    ).rejects.toBeInstanceOf(AbortError);
  });
});

describe('Grep on the JavaScript fallback gives the same model text', () => {
  it.each([
    [{ pattern: 'foo' }],
    [{ pattern: 'foo', output_mode: 'content', '-C': 1 }],
    [{ pattern: 'foo', output_mode: 'count' }],
    [{ pattern: 'FOO', '-i': true, output_mode: 'content', head_limit: 4, offset: 2 }],
    [{ pattern: 'foo', output_mode: 'content', glob: '*.{ts,md}', '-n': false }],
    [{ pattern: 'struct [AB] \\{.*?\\}', multiline: true, output_mode: 'content' }],
    [{ pattern: 'foo', output_mode: 'content', path: 'src/min.js' }],
    [{ pattern: 'foo', type: 'ts' }],
  ])('%j', async (input) => {
    const rg = await grep(input);
    const js = await grep(input, context, JsGrep);
    expect(js.content).toEqual(rg.content);
  });
});

describe('Grep: permissions, flags and budget', () => {
  it('is read-only, concurrency-safe, and caps results at 20,000 characters (docs/architecture.md)', () => {
    expect(GrepTool.isReadOnly({ pattern: 'x' })).toBe(true);
    expect(GrepTool.isConcurrencySafe()).toBe(true);
    expect(GrepTool.maxResultSizeChars).toBe(GREP_MAX_RESULT_SIZE_CHARS);
  });

  it.each([
    [{ pattern: 'x' }, 'tree', undefined, 'the cwd when path is absent'],
    [{ pattern: 'x', path: 'src/a.ts' }, 'tree/src/a.ts', undefined, 'a file root'],
    [
      { pattern: 'x', path: 'src/link-file.ts' },
      'outside/secret/key.txt',
      'tree/src/link-file.ts',
      'a symlinked file resolves to its target; the link as named too',
    ],
  ])('%j reads %s (as named: %s) (%s)', async (input, where, asNamed, _why) => {
    const expected = path.join(dir, where);
    const d = await GrepTool.describeCall(input as never, context);
    expect(d.ruleContents).toEqual(asNamed ? [expected, path.join(dir, asNamed)] : [expected]);
    expect(d.effects[0]).toMatchObject({
      kind: 'read',
      target: expected,
      certainty: 'known',
      source: 'tool-input',
    });
    expect(d.effects).toHaveLength(asNamed ? 2 : 1);
    expect(d.readOnly).toBe(true);
  });
});

describe('Grep: a newline in the pattern without multiline', () => {
  it('is an input error that points to multiline', async () => {
    expect(await runToolError(GrepTool, { pattern: 'a\nb' }, context)).toMatch(
      /Invalid pattern: .*not allowed[\s\S]*multiline/,
    );
  });
});

describe('Grep JavaScript fallback: model-supplied patterns run in linear time', () => {
  it('(a+)+$ over a file with a 100,000-character line completes with the right answer', async () => {
    const d = path.join(dir, 'redos');
    await mkdir(d, { recursive: true });
    await writeFile(path.join(d, 'long.txt'), `${'a'.repeat(100_000)}!\naaaa\n`);
    const run = await grep({ pattern: '(a+)+$', path: d, output_mode: 'content' }, context, JsGrep);
    expect(run.content).toMatch(/long\.txt:2:aaaa$/);
    expect(run.content).not.toContain('aaaaaaaa!');
  });
});
