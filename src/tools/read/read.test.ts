import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolUseContext } from '../../core/index.js';
import { makeTempDir, makeToolContext, runToolError, runToolOk } from '../../testing/tool-harness.js';
import { ReadTool } from './read.tool.js';
import type { ReadTextOutput } from './text-result.js';

let dir: string;
let cleanup: () => Promise<void>;
let context: ToolUseContext;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  context = makeToolContext({ cwd: dir });
});
afterEach(async () => cleanup());

async function put(name: string, content: string | Buffer): Promise<string> {
  const file = path.join(dir, name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  return file;
}

async function readText(input: Record<string, unknown>, ctx = context) {
  return runToolOk<ReadTextOutput>(ReadTool, input, ctx);
}

describe('Read: numbered text', () => {
  it('numbers every line cat -n style (6-wide number, TAB) and returns the structured text result', async () => {
    const file = await put('a.txt', 'alpha\nbeta\ngamma');
    const run = await readText({ file_path: file });
    expect(run.content).toBe('     1\talpha\n     2\tbeta\n     3\tgamma');
    expect(run.data).toEqual({
      type: 'text',
      file: { filePath: file, content: 'alpha\nbeta\ngamma', numLines: 3, startLine: 1, totalLines: 3 },
    });
  });

  it('counts the empty text after a final newline as a line, as Claude Code does', async () => {
    const file = await put('b.txt', 'x\ny\n');
    const run = await readText({ file_path: file });
    expect(run.content).toBe('     1\tx\n     2\ty\n     3\t');
    expect(run.data.file.totalLines).toBe(3);
  });

  it.each([
    [
      { offset: 2, limit: 2 },
      '     2\tl2\n     3\tl3\n\n(Showing lines 2-3 of 5. Use offset=4 to continue.)',
      'a window',
    ],
    [
      { offset: 0, limit: 1 },
      '     1\tl1\n\n(Showing lines 1-1 of 5. Use offset=2 to continue.)',
      'offset 0 is read as 1',
    ],
    [{ offset: 4 }, '     4\tl4\n     5\tl5', 'offset to the end needs no note'],
  ])('reads %j', async (range, expected, _why) => {
    const file = await put('c.txt', 'l1\nl2\nl3\nl4\nl5');
    expect((await readText({ file_path: file, ...range })).content).toBe(expected);
  });

  it('returns 2000 lines by default and says how to continue', async () => {
    const lines = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`);
    const file = await put('long.txt', lines.join('\n'));
    const run = await readText({ file_path: file });
    expect(run.data.file.numLines).toBe(2000);
    expect(String(run.content).endsWith('(Showing lines 1-2000 of 2500. Use offset=2001 to continue.)')).toBe(
      true,
    );
    expect(context.readFileState.get(file)).toMatchObject({ isPartial: true, offset: 1, limit: 2000 });
  });

  it('honours compat readLineCap and readLineSeparator', async () => {
    const file = await put('d.txt', 'a\nb\nc');
    const ctx = makeToolContext({ cwd: dir, compat: { readLineCap: 2, readLineSeparator: '→' } });
    const run = await readText({ file_path: file }, ctx);
    expect(run.content).toBe('     1→a\n     2→b\n\n(Showing lines 1-2 of 3. Use offset=3 to continue.)');
  });

  it('cuts lines longer than 2000 characters with a marker and counts the read as partial', async () => {
    const file = await put('wide.txt', `short\n${'x'.repeat(2500)}\nend`);
    const run = await readText({ file_path: file });
    const second = String(run.content).split('\n')[1] as string;
    expect(second).toBe(`     2\t${'x'.repeat(2000)}… [line truncated: 500 more characters]`);
    expect(String(run.content)).toContain('longer than 2000 characters');
    expect(context.readFileState.get(file)?.isPartial).toBe(true);
  });

  it('warns instead of failing on an empty file, and records a full read', async () => {
    const file = await put('empty.txt', '');
    const run = await readText({ file_path: file });
    expect(run.content).toBe(
      '<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>',
    );
    expect(context.readFileState.get(file)).toMatchObject({ isPartial: false });
  });

  it('warns with the line count when offset is past the end', async () => {
    const file = await put('short.txt', 'one\ntwo');
    const run = await readText({ file_path: file, offset: 10 });
    expect(run.content).toBe(
      '<system-reminder>Warning: the file exists but is shorter than the provided offset (10). The file has 2 lines.</system-reminder>',
    );
  });

  it('records hash, floored mtime and full content of a whole read', async () => {
    const file = await put('rec.txt', 'hello');
    await readText({ file_path: file });
    const entry = context.readFileState.get(file);
    expect(entry?.content).toBe('hello');
    expect(entry?.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(Number.isInteger(entry?.mtimeMs)).toBe(true);
    expect(entry?.isPartial).toBe(false);
  });
});

describe('Read: encodings and line endings', () => {
  it.each([
    [
      'crlf.txt',
      Buffer.from('one\r\ntwo\r\n'),
      '     1\tone\n     2\ttwo\n     3\t',
      'CRLF: the CR is not shown',
    ],
    ['bom.txt', Buffer.from('\ufeffhé\nthere', 'utf8'), '     1\thé\n     2\tthere', 'UTF-8 BOM dropped'],
    [
      'utf16.txt',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('ünï\r\ncode', 'utf16le')]),
      '     1\tünï\n     2\tcode',
      'UTF-16LE with BOM decoded',
    ],
    ['latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9]), '     1\tcafé', 'invalid UTF-8 read as Latin-1'],
    ['名前 ファイル.txt', Buffer.from('unicode name'), '     1\tunicode name', 'unicode file name'],
  ])('%s', async (name, bytes, expected, _why) => {
    const file = await put(name, bytes);
    expect((await readText({ file_path: file })).content).toBe(expected);
  });
});

describe('Read: paths', () => {
  it('resolves a relative path against the session cwd', async () => {
    await put('sub/rel.txt', 'rel');
    const run = await readText({ file_path: 'sub/rel.txt' });
    expect(run.data.file.filePath).toBe(path.join(dir, 'sub/rel.txt'));
  });

  it('expands ~ to the home directory', async () => {
    const saved = process.env.HOME;
    process.env.HOME = dir;
    try {
      await put('home.txt', 'home');
      expect((await readText({ file_path: '~/home.txt' })).content).toBe('     1\thome');
    } finally {
      process.env.HOME = saved;
    }
  });

  it('follows a symlink that points out of the project, records the target, and describes the target', async () => {
    const { dir: outside, cleanup: cleanOutside } = await makeTempDir('gantry-outside-');
    try {
      const target = path.join(outside, 'secret.txt');
      await writeFile(target, 'outside');
      const project = path.join(dir, 'project');
      await mkdir(project);
      await symlink(target, path.join(project, 'link.txt'));
      const ctx = makeToolContext({ cwd: project });
      const run = await readText({ file_path: 'link.txt' }, ctx);
      expect(run.content).toBe('     1\toutside');
      expect(ctx.readFileState.has(target)).toBe(true);
      const description = await ReadTool.describeCall({ file_path: 'link.txt' }, ctx);
      // Both the target and the link as named: a deny rule on either name must match.
      expect(description).toEqual({
        ruleContents: [target, path.join(project, 'link.txt')],
        effects: [
          {
            kind: 'read',
            target,
            certainty: 'known',
            source: 'tool-input',
            detail: `file_path via symlink ${path.join(project, 'link.txt')}`,
          },
          {
            kind: 'read',
            target: path.join(project, 'link.txt'),
            certainty: 'known',
            source: 'tool-input',
            detail: 'file_path as named (a symlink)',
          },
        ],
        findings: [],
        readOnly: true,
        summary: `Read ${target}`,
      });
    } finally {
      await cleanOutside();
    }
  });

  it('reads a symlink inside the project that points inside the project', async () => {
    const target = await put('real/inner.txt', 'inner');
    await symlink(target, path.join(dir, 'alias.txt'));
    expect((await readText({ file_path: path.join(dir, 'alias.txt') })).content).toBe('     1\tinner');
    expect(context.readFileState.has(target)).toBe(true);
  });

  it('reads a file spilled by the runtime under the session dir', async () => {
    const spilled = await put('.session/tool-results/toolu_1.txt', 'spilled output\nline 2');
    expect((await readText({ file_path: spilled })).content).toBe('     1\tspilled output\n     2\tline 2');
  });
});

describe('Read: refusals name the next step', () => {
  it('refuses a directory and points to ls / Glob', async () => {
    await mkdir(path.join(dir, 'folder'));
    const message = await runToolError(ReadTool, { file_path: path.join(dir, 'folder') }, context);
    expect(message).toMatch(/is a directory.*ls -la.*Glob/);
  });

  it('says a missing file does not exist and suggests a near name', async () => {
    await put('config.yaml', 'x');
    const message = await runToolError(ReadTool, { file_path: path.join(dir, 'config.yml') }, context);
    expect(message).toBe(
      `File does not exist. ${path.join(dir, 'config.yml')} was not found (current working directory: ${dir}). Did you mean ${path.join(dir, 'config.yaml')}?`,
    );
  });

  it.each([
    ['blob.bin', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1]), 'NUL bytes in the content'],
    ['archive.zip', Buffer.from('PK not really'), 'binary extension'],
  ])('refuses binary %s (%s)', async (name, bytes, _why) => {
    const file = await put(name, bytes);
    expect(await runToolError(ReadTool, { file_path: file }, context)).toMatch(
      /cannot read binary files.*Bash/,
    );
    expect(context.readFileState.has(file)).toBe(false);
  });

  it('rejects pages on a non-PDF before touching the disk', async () => {
    const message = await runToolError(ReadTool, { file_path: path.join(dir, 'x.txt'), pages: '1' }, context);
    expect(message).toMatch(/pages applies to PDF files only/);
  });

  it('rejects unknown fields and negative offsets at the schema', async () => {
    expect(await runToolError(ReadTool, { file_path: '/x', bogus: 1 }, context)).toMatch(
      /InputValidationError/,
    );
    expect(await runToolError(ReadTool, { file_path: '/x', offset: -1 }, context)).toMatch(
      /InputValidationError/,
    );
  });
});

describe('Read: output cap', () => {
  const lines = Array.from(
    { length: 50 },
    (_, i) => `row ${String(i + 1).padStart(3, '0')} ${'y'.repeat(30)}`,
  );

  it('cuts a whole-file read to a PARTIAL view that says where to continue', async () => {
    const file = await put('big.txt', lines.join('\n'));
    const ctx = makeToolContext({ cwd: dir, compat: { readMaxOutputTokens: 100 } });
    const run = await readText({ file_path: file }, ctx);
    expect(run.data.file.truncatedByTokenCap).toBe(true);
    const n = run.data.file.numLines;
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(50);
    expect(String(run.content)).toContain(`PARTIAL view: showing lines 1-${n} of 50`);
    expect(String(run.content)).toContain(`Use offset=${n + 1} to continue reading.`);
    expect(ctx.readFileState.get(file)?.isPartial).toBe(true);
  });

  it('fails an explicit range over the cap and suggests a smaller limit', async () => {
    const file = await put('big.txt', lines.join('\n'));
    const ctx = makeToolContext({ cwd: dir, compat: { readMaxOutputTokens: 100 } });
    const message = await runToolError(ReadTool, { file_path: file, offset: 1, limit: 50 }, ctx);
    expect(message).toMatch(
      /^File content \(\d+ tokens\) exceeds maximum allowed tokens \(100\)\. Read fewer lines/,
    );
    expect(message).toMatch(/offset=1 limit=\d+/);
  });

  it('fails a whole-file read over the cap under compat readOverCap: error (classic)', async () => {
    const file = await put('big.txt', lines.join('\n'));
    const ctx = makeToolContext({ cwd: dir, compat: { readMaxOutputTokens: 100, readOverCap: 'error' } });
    expect(await runToolError(ReadTool, { file_path: file }, ctx)).toMatch(/exceeds maximum allowed tokens/);
  });
});

describe('Read: abort', () => {
  it('stops with an AbortError when the turn is aborted', async () => {
    const file = await put('abort.txt', 'x\n'.repeat(1000));
    // The runtime never starts a call of an aborted turn, so the tool's own check is driven directly.
    context.abortController.abort();
    await expect(ReadTool.call({ file_path: file }, context).next()).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(context.readFileState.has(file)).toBe(false);
  });
});

describe('Read: contract', () => {
  it('is read-only, concurrency-safe, never spilled, and describes itself for the classifier', () => {
    const input = { file_path: '/p/a.ts' };
    expect(ReadTool.isReadOnly({ file_path: '/x' })).toBe(true);
    expect(ReadTool.isConcurrencySafe()).toBe(true);
    expect(ReadTool.maxResultSizeChars).toBe(Number.POSITIVE_INFINITY);
    expect(ReadTool.toAutoClassifierInput(input)).toBe('Read /p/a.ts');
    expect(ReadTool.userFacingName(input)).toBe('Read');
    expect(ReadTool.description).toMatch(/^Reads a file/);
  });

  it('keeps the compat rendering out of the structured result (JSON has no extra fields)', async () => {
    const file = await put('j.txt', 'j');
    const run = await readText({ file_path: file });
    expect(Object.keys(JSON.parse(JSON.stringify(run.data)))).toEqual(['type', 'file']);
  });
});
