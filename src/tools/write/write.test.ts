import { chmod, mkdir, readdir, readFile, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolUseContext } from '../../core/index.js';
import { isGantryTempName } from '../file-io/atomic-write.js';
import { makeTempDir, makeToolContext, runToolError, runToolOk } from '../../testing/tool-harness.js';
import { ReadTool } from '../read/read.tool.js';
import { WriteTool, type WriteOutput } from './write.tool.js';

let dir: string;
let cleanup: () => Promise<void>;
let context: ToolUseContext;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  context = makeToolContext({ cwd: dir });
});
afterEach(async () => cleanup());

const write = (input: Record<string, unknown>, ctx = context) =>
  runToolOk<WriteOutput>(WriteTool, input, ctx);
const read = (filePath: string, ctx = context) => runToolOk(ReadTool, { file_path: filePath }, ctx);

describe('Write: create', () => {
  it('creates a new file without a prior read, parents included, and says so', async () => {
    const file = path.join(dir, 'deep/er/new.txt');
    const run = await write({ file_path: file, content: 'hello\n' });
    expect(run.content).toBe(`File created successfully at: ${file}`);
    expect(run.data).toEqual({
      type: 'create',
      filePath: file,
      content: 'hello\n',
      structuredPatch: [],
      originalFile: null,
    });
    expect(await readFile(file, 'utf8')).toBe('hello\n');
  });

  it('records its own write so an immediate overwrite needs no new read', async () => {
    const file = path.join(dir, 'twice.txt');
    await write({ file_path: file, content: 'one' });
    await write({ file_path: file, content: 'two' });
    expect(await readFile(file, 'utf8')).toBe('two');
  });

  it('follows a CRLF directory convention for a new file (compat newFileLineEndings)', async () => {
    await writeFile(path.join(dir, 'a.cs'), 'x\r\ny\r\n');
    const file = path.join(dir, 'b.cs');
    await write({ file_path: file, content: 'p\nq\n' });
    expect(await readFile(file, 'utf8')).toBe('p\r\nq\r\n');
    const lfContext = makeToolContext({ cwd: dir, compat: { newFileLineEndings: 'lf' } });
    const other = path.join(dir, 'c.cs');
    await write({ file_path: other, content: 'p\nq\n' }, lfContext);
    expect(await readFile(other, 'utf8')).toBe('p\nq\n');
  });

  it('does not create parents under compat createParentDirs: false, and says what to do', async () => {
    const ctx = makeToolContext({ cwd: dir, compat: { createParentDirs: false } });
    const message = await runToolError(
      WriteTool,
      { file_path: path.join(dir, 'nope/x.txt'), content: 'x' },
      ctx,
    );
    expect(message).toMatch(/does not exist.*The file was not changed\. Create it first/);
  });
});

describe('Write: overwrite rules', () => {
  it('refuses to overwrite a file that was not read', async () => {
    const file = path.join(dir, 'exists.txt');
    await writeFile(file, 'keep');
    expect(await runToolError(WriteTool, { file_path: file, content: 'x' }, context)).toBe(
      'File has not been read yet. Read it first before writing to it.',
    );
    expect(await readFile(file, 'utf8')).toBe('keep');
  });

  it('refuses after only a partial read and names the remedy', async () => {
    const file = path.join(dir, 'part.txt');
    await writeFile(file, 'a\nb\nc\nd');
    await runToolOk(ReadTool, { file_path: file, offset: 2, limit: 1 }, context);
    expect(await runToolError(WriteTool, { file_path: file, content: 'x' }, context)).toMatch(
      /only partly read \(lines 2-2\)\. Read the whole file first/,
    );
  });

  it('refuses when the file changed after the read, even with the mtime put back', async () => {
    const file = path.join(dir, 'race.txt');
    await writeFile(file, 'v1');
    await read(file);
    const before = await stat(file);
    await writeFile(file, 'v2');
    await utimes(file, before.atime, before.mtime);
    expect(await runToolError(WriteTool, { file_path: file, content: 'mine' }, context)).toMatch(
      /modified since read.*Read it again/,
    );
    expect(await readFile(file, 'utf8')).toBe('v2');
  });

  it('allows a write after a touch that changed only the mtime', async () => {
    const file = path.join(dir, 'touched.txt');
    await writeFile(file, 'same');
    await read(file);
    const later = new Date(Date.now() + 60_000);
    await utimes(file, later, later);
    await write({ file_path: file, content: 'new' });
    expect(await readFile(file, 'utf8')).toBe('new');
  });

  it('returns an update with a structured patch, the original, and a numbered snippet', async () => {
    const file = path.join(dir, 'upd.txt');
    await writeFile(file, 'a\nb\nc\n');
    await read(file);
    const run = await write({ file_path: file, content: 'a\nB\nc\n' });
    expect(run.data).toEqual({
      type: 'update',
      filePath: file,
      content: 'a\nB\nc\n',
      originalFile: 'a\nb\nc\n',
      structuredPatch: [
        { oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' a', '-b', '+B', ' c'] },
      ],
    });
    expect(run.content).toBe(
      `The file ${file} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n` +
        '     1\ta\n     2\tB\n     3\tc\n     4\t',
    );
    const brief = makeToolContext({
      cwd: dir,
      compat: { editResult: 'brief' },
      readFileState: context.readFileState,
    });
    const again = await write({ file_path: file, content: 'z\n' }, brief);
    expect(again.content).toBe(`The file ${file} has been updated successfully.`);
  });
});

describe('Write: preserves what the file is', () => {
  it.each([
    ['crlf.txt', Buffer.from('one\r\ntwo\r\n'), 'uno\ndos\n', Buffer.from('uno\r\ndos\r\n'), 'CRLF kept'],
    [
      'bom.txt',
      Buffer.from('\ufeffold\n', 'utf8'),
      'new\n',
      Buffer.from('\ufeffnew\n', 'utf8'),
      'UTF-8 BOM kept',
    ],
    [
      'utf16.txt',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('old\r\n', 'utf16le')]),
      'neü\n',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('neü\r\n', 'utf16le')]),
      'UTF-16LE and CRLF kept',
    ],
    ['ünïcödé 名.txt', Buffer.from('alt'), 'neu', Buffer.from('neu'), 'unicode file name'],
  ])('%s', async (name, before, content, after, _why) => {
    const file = path.join(dir, name);
    await writeFile(file, before);
    await read(file);
    await write({ file_path: file, content });
    expect((await readFile(file)).equals(after)).toBe(true);
  });

  it('keeps the mode of an executable', async () => {
    const file = path.join(dir, 'run.sh');
    await writeFile(file, '#!/bin/sh\n');
    await chmod(file, 0o755);
    await read(file);
    await write({ file_path: file, content: '#!/bin/sh\necho hi\n' });
    expect((await stat(file)).mode & 0o777).toBe(0o755);
  });

  it('treats a read-only file as the filesystem does for this user (refused unless privileged)', async () => {
    const file = path.join(dir, 'locked.txt');
    await writeFile(file, 'locked');
    await chmod(file, 0o444);
    await read(file);
    if (process.getuid?.() === 0) {
      await write({ file_path: file, content: 'root may' });
      expect(await readFile(file, 'utf8')).toBe('root may');
      expect((await stat(file)).mode & 0o777).toBe(0o444);
    } else {
      expect(await runToolError(WriteTool, { file_path: file, content: 'no' }, context)).toMatch(
        /Permission denied.*not changed/,
      );
      expect(await readFile(file, 'utf8')).toBe('locked');
    }
  });

  it('writes through a symlink to its target, leaving the link in place', async () => {
    const target = path.join(dir, 'real.txt');
    await writeFile(target, 'real');
    const link = path.join(dir, 'link.txt');
    await symlink(target, link);
    await read(link);
    await write({ file_path: link, content: 'changed' });
    expect(await readFile(target, 'utf8')).toBe('changed');
    expect((await readdir(dir)).sort()).toEqual(['link.txt', 'real.txt']);
    const described = await WriteTool.describeCall({ file_path: link, content: '' }, context);
    // Both the target and the link as named: a deny rule on either name must match.
    expect(described.ruleContents).toEqual([target, link]);
    expect(described.effects).toMatchObject([
      { kind: 'write', target, source: 'tool-input' },
      { kind: 'write', target: link, source: 'tool-input' },
    ]);
    expect(described.readOnly).toBe(false);
  });
});

describe('Write: failures leave the old file intact', () => {
  it('refuses a directory target', async () => {
    await mkdir(path.join(dir, 'adir'));
    expect(
      await runToolError(WriteTool, { file_path: path.join(dir, 'adir'), content: 'x' }, context),
    ).toMatch(/is a directory/);
  });

  it('reports a write that cannot happen (a parent is a file) and changes nothing', async () => {
    const file = path.join(dir, 'plain');
    await writeFile(file, 'keep');
    const message = await runToolError(
      WriteTool,
      { file_path: path.join(file, 'x.txt'), content: 'x' },
      context,
    );
    expect(message).toMatch(/is a file, not a directory\. The file was not changed/);
    expect(await readFile(file, 'utf8')).toBe('keep');
    expect((await readdir(dir)).filter(isGantryTempName)).toEqual([]);
  });
});

describe('Write: contract', () => {
  it('is neither read-only nor concurrency-safe', () => {
    const input = { file_path: '/p/a', content: 'x' };
    expect(WriteTool.isReadOnly(input)).toBe(false);
    expect(WriteTool.isConcurrencySafe(input)).toBe(false);
    expect(WriteTool.toAutoClassifierInput(input)).toBe('Write /p/a (1 chars): x');
  });
});

describe('Write, Edit, NotebookEdit: paths the file system cannot use are refused, never thrown', () => {
  it.each([
    ['a NUL character', (d: string) => path.join(d, 'a\u0000b.txt'), /NUL character/],
    [
      'a name longer than the file system allows',
      (d: string) => path.join(d, `${'a'.repeat(300)}.txt`),
      /too long/,
    ],
    [
      'a file used as a directory',
      (d: string) => path.join(d, 'plain.txt', 'inner.txt'),
      /not a directory|ENOTDIR/,
    ],
  ])('%s', async (_why, make, message) => {
    await writeFile(path.join(dir, 'plain.txt'), 'x');
    const p = make(dir);
    const { EditTool } = await import('../edit/edit.tool.js');
    const { NotebookEditTool } = await import('../notebook-edit/notebook-edit.tool.js');
    for (const [tool, input] of [
      [WriteTool, { file_path: p, content: 'x' }],
      [EditTool, { file_path: p, old_string: 'a', new_string: 'b' }],
      [NotebookEditTool, { notebook_path: `${p}.ipynb`, new_source: 'x', cell_id: 'cell-0' }],
    ] as const) {
      const v = await tool.validateInput(input as never, context);
      expect(v.ok, tool.name).toBe(false);
      if (!v.ok) expect(v.message, tool.name).toMatch(message);
    }
  });
});
