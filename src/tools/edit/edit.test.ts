import { readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolUseContext } from '../../core/index.js';
import { makeTempDir, makeToolContext, runToolError, runToolOk } from '../../testing/tool-harness.js';
import { ReadTool } from '../read/read.tool.js';
import { EditTool, type EditOutput } from './edit.tool.js';

let dir: string;
let cleanup: () => Promise<void>;
let context: ToolUseContext;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  context = makeToolContext({ cwd: dir });
});
afterEach(async () => cleanup());

const edit = (input: Record<string, unknown>, ctx = context) => runToolOk<EditOutput>(EditTool, input, ctx);

/** Writes a file and reads it with Read (so Edit may change it). */
async function readyFile(name: string, content: string | Buffer, ctx = context): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  await runToolOk(ReadTool, { file_path: file }, ctx);
  return file;
}

describe('Edit: replacing', () => {
  it('replaces the one occurrence and returns the patch and a numbered snippet', async () => {
    const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
    const file = await readyFile('a.txt', `${lines.join('\n')}\n`);
    const run = await edit({ file_path: file, old_string: 'line 6', new_string: 'LINE SIX' });
    expect(await readFile(file, 'utf8')).toContain('line 5\nLINE SIX\nline 7');
    expect(run.content).toBe(
      `The file ${file} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n` +
        '     2\tline 2\n     3\tline 3\n     4\tline 4\n     5\tline 5\n     6\tLINE SIX\n' +
        '     7\tline 7\n     8\tline 8\n     9\tline 9\n    10\tline 10',
    );
    expect(run.data).toMatchObject({
      filePath: file,
      oldString: 'line 6',
      newString: 'LINE SIX',
      userModified: false,
      replaceAll: false,
      structuredPatch: [
        {
          oldStart: 3,
          oldLines: 7,
          newStart: 3,
          newLines: 7,
          lines: [' line 3', ' line 4', ' line 5', '-line 6', '+LINE SIX', ' line 7', ' line 8', ' line 9'],
        },
      ],
    });
    expect(run.data.originalFile).toBe(`${lines.join('\n')}\n`);
  });

  it('gives the brief confirmation under compat editResult: brief', async () => {
    const ctx = makeToolContext({ cwd: dir, compat: { editResult: 'brief' } });
    const file = await readyFile('b.txt', 'x = 1\n', ctx);
    const run = await edit({ file_path: file, old_string: 'x = 1', new_string: 'x = 2' }, ctx);
    expect(run.content).toBe(`The file ${file} has been updated successfully.`);
  });

  it('replace_all replaces every occurrence and says so', async () => {
    const file = await readyFile('c.txt', 'foo(); foo(); foo();\n');
    const run = await edit({ file_path: file, old_string: 'foo', new_string: 'bar', replace_all: true });
    expect(await readFile(file, 'utf8')).toBe('bar(); bar(); bar();\n');
    expect(run.content).toBe(
      `The file ${file} has been updated. All occurrences of 'foo' were successfully replaced with 'bar'.`,
    );
  });

  it('takes the line break along when deleting a whole line', async () => {
    const file = await readyFile('d.txt', 'keep\ndrop me\nkeep too\n');
    await edit({ file_path: file, old_string: 'drop me', new_string: '' });
    expect(await readFile(file, 'utf8')).toBe('keep\nkeep too\n');
  });

  it('treats $ patterns in new_string literally', async () => {
    const file = await readyFile('e.txt', 'price\n');
    await edit({ file_path: file, old_string: 'price', new_string: "$& $1 $$ $'" });
    expect(await readFile(file, 'utf8')).toBe("$& $1 $$ $'\n");
  });

  it('allows consecutive edits without a new read (its own writes are recorded)', async () => {
    const file = await readyFile('f.txt', 'a b c\n');
    await edit({ file_path: file, old_string: 'a', new_string: 'A' });
    await edit({ file_path: file, old_string: 'b', new_string: 'B' });
    expect(await readFile(file, 'utf8')).toBe('A B c\n');
  });
});

describe('Edit: bad input gets a next step', () => {
  it.each([
    [
      { old_string: 'same', new_string: 'same' },
      /^No changes to make: old_string and new_string are exactly the same\.$/,
      'no-op',
    ],
    [
      { old_string: 'absent', new_string: 'x' },
      /^String to replace not found in file\. Read the file again.*\nString: absent$/s,
      'not found',
    ],
    [
      { old_string: '     1\tdup', new_string: 'x' },
      /line-number prefix/,
      'a Read prefix copied into old_string is named',
    ],
    [
      { old_string: 'dup', new_string: 'x' },
      /^Found 3 matches of the string to replace, but replace_all is false\. To replace all occurrences, set replace_all to true\. To replace only one occurrence, add more surrounding context/,
      'ambiguous',
    ],
    [
      { old_string: '', new_string: 'x' },
      /^Cannot create new file - file already exists\./,
      'empty old_string on an existing file',
    ],
  ])('%j', async (strings, expected, _why) => {
    const file = await readyFile('g.txt', 'dup dup dup\n');
    expect(await runToolError(EditTool, { file_path: file, ...strings }, context)).toMatch(expected);
    expect(await readFile(file, 'utf8')).toBe('dup dup dup\n');
  });

  it('sends notebooks to NotebookEdit', async () => {
    const file = await readyFile('n.ipynb', '{"cells":[]}');
    expect(
      await runToolError(EditTool, { file_path: file, old_string: 'a', new_string: 'b' }, context),
    ).toMatch(/Use the NotebookEdit tool/);
  });

  it('says a missing file does not exist and how to create one', async () => {
    const message = await runToolError(
      EditTool,
      { file_path: path.join(dir, 'missing.txt'), old_string: 'a', new_string: 'b' },
      context,
    );
    expect(message).toMatch(
      /^File does not exist\..*To create a new file, use Write, or Edit with an empty old_string\.$/,
    );
  });
});

describe('Edit: creating', () => {
  it('creates a missing file from an empty old_string, without a read', async () => {
    const file = path.join(dir, 'sub/new.txt');
    const run = await edit({ file_path: file, old_string: '', new_string: 'fresh\n' });
    expect(await readFile(file, 'utf8')).toBe('fresh\n');
    expect(run.content).toBe(`File created successfully at: ${file}`);
    expect(run.data.originalFile).toBeNull();
    expect(EditTool.userFacingName({ file_path: file, old_string: '', new_string: 'x' })).toBe('Create');
    expect(EditTool.userFacingName({ file_path: file, old_string: 'a', new_string: 'x' })).toBe('Update');
  });

  it('fills an existing empty file that was read', async () => {
    const file = await readyFile('empty.txt', '');
    await edit({ file_path: file, old_string: '', new_string: 'now full' });
    expect(await readFile(file, 'utf8')).toBe('now full');
  });
});

describe('Edit: read-before-edit and staleness', () => {
  it('refuses a file that was not read', async () => {
    const file = path.join(dir, 'unread.txt');
    await writeFile(file, 'x');
    expect(await runToolError(EditTool, { file_path: file, old_string: 'x', new_string: 'y' }, context)).toBe(
      'File has not been read yet. Read it first before writing to it.',
    );
  });

  it('accepts a partial read', async () => {
    const file = path.join(dir, 'part.txt');
    await writeFile(file, 'a\nb\nc\n');
    await runToolOk(ReadTool, { file_path: file, offset: 2, limit: 1 }, context);
    await edit({ file_path: file, old_string: 'b', new_string: 'B' });
    expect(await readFile(file, 'utf8')).toBe('a\nB\nc\n');
    expect(context.readFileState.get(file)?.isPartial).toBe(true);
  });

  it('refuses when someone changed the file between the read and the edit', async () => {
    const file = await readyFile('race.txt', 'alpha beta\n');
    await writeFile(file, 'alpha beta gamma\n'); // another process
    expect(
      await runToolError(EditTool, { file_path: file, old_string: 'alpha', new_string: 'A' }, context),
    ).toMatch(/^File has been modified since read.*Read it again/);
    expect(await readFile(file, 'utf8')).toBe('alpha beta gamma\n');
  });

  it('re-checks in call: a change after validateInput (e.g. while the user was asked) is caught', async () => {
    const file = await readyFile('late.txt', 'one two\n');
    const input = { file_path: file, old_string: 'one', new_string: '1' };
    expect(await EditTool.validateInput(input, context)).toEqual({ ok: true });
    await writeFile(file, 'one two three\n');
    await expect(runToolOk(EditTool, input, context)).rejects.toThrow(/modified since read/);
    expect(await readFile(file, 'utf8')).toBe('one two three\n');
  });

  it('under compat editStaleness: relaxed, applies a still-unique exact match and says the file changed', async () => {
    const ctx = makeToolContext({ cwd: dir, compat: { editStaleness: 'relaxed' } });
    const file = await readyFile('relaxed.txt', 'alpha beta\n', ctx);
    await writeFile(file, 'alpha beta gamma\n');
    const run = await edit({ file_path: file, old_string: 'beta', new_string: 'BETA' }, ctx);
    expect(await readFile(file, 'utf8')).toBe('alpha BETA gamma\n');
    expect(String(run.content)).toMatch(/had changed since you last read it/);
    await writeFile(file, 'x x\n');
    expect(
      await runToolError(
        EditTool,
        { file_path: file, old_string: 'x', new_string: 'y', replace_all: true },
        ctx,
      ),
    ).toMatch(/modified since read/);
  });
});

describe('Edit: keeps the file as it is', () => {
  it('keeps CRLF when old_string spans lines written with \\n, and leaves other lines untouched', async () => {
    const file = await readyFile('win.txt', 'one\r\ntwo\r\nthree\nfour\r\n');
    await edit({ file_path: file, old_string: 'one\ntwo', new_string: 'uno\ndos\ntres' });
    expect(await readFile(file, 'utf8')).toBe('uno\r\ndos\r\ntres\r\nthree\nfour\r\n');
  });

  it('matches straight quotes against curly ones and writes the file’s curly style', async () => {
    const file = await readyFile('prose.md', 'He said “hello” and left.\nIt’s “fine”.\n');
    await edit({
      file_path: file,
      old_string: 'said "hello" and',
      new_string: 'said "goodbye, it\'s late" and',
    });
    expect(await readFile(file, 'utf8')).toBe('He said “goodbye, it’s late” and left.\nIt’s “fine”.\n');
  });

  it('leaves straight quotes alone in a file that uses them', async () => {
    const file = await readyFile('code.js', 'const s = "a";\n');
    await edit({ file_path: file, old_string: '"a"', new_string: '"b"' });
    expect(await readFile(file, 'utf8')).toBe('const s = "b";\n');
  });

  it.each([
    [
      'utf16.txt',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('grüß\r\nGott\r\n', 'utf16le')]),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('grüß\r\nDich\r\n', 'utf16le')]),
      'UTF-16LE + CRLF',
    ],
    [
      'bom.txt',
      Buffer.from('\ufeffgrüß\nGott\n', 'utf8'),
      Buffer.from('\ufeffgrüß\nDich\n', 'utf8'),
      'UTF-8 BOM',
    ],
    [
      'latin.txt',
      Buffer.from('gr\u00fc\u00df Gott\n', 'latin1'),
      Buffer.from('gr\u00fc\u00df Dich\n', 'latin1'),
      'Latin-1 bytes',
    ],
    ['名字 ü.txt', Buffer.from('Gott'), Buffer.from('Dich'), 'unicode name'],
  ])('%s', async (name, before, after, _why) => {
    const file = await readyFile(name, before);
    await edit({ file_path: file, old_string: 'Gott', new_string: 'Dich' });
    expect((await readFile(file)).equals(after)).toBe(true);
  });

  it('edits the target of a symlink that points out of the project and describes the target', async () => {
    const { dir: outside, cleanup: cleanOutside } = await makeTempDir('gantry-outside-');
    try {
      const target = path.join(outside, 'conf.txt');
      await writeFile(target, 'port=1\n');
      const link = path.join(dir, 'conf.txt');
      await symlink(target, link);
      await runToolOk(ReadTool, { file_path: link }, context);
      await edit({ file_path: link, old_string: 'port=1', new_string: 'port=2' });
      expect(await readFile(target, 'utf8')).toBe('port=2\n');
      const d = await EditTool.describeCall(
        { file_path: 'conf.txt', old_string: 'a', new_string: 'b' },
        context,
      );
      // Both the target and the link as named: a deny rule on either name must match.
      expect(d.ruleContents).toEqual([target, link]);
      expect(d.effects).toEqual([
        {
          kind: 'write',
          target,
          certainty: 'known',
          source: 'tool-input',
          detail: `file_path via symlink ${link}`,
        },
        {
          kind: 'write',
          target: link,
          certainty: 'known',
          source: 'tool-input',
          detail: 'file_path as named (a symlink)',
        },
      ]);
      expect(d.readOnly).toBe(false);
    } finally {
      await cleanOutside();
    }
  });
});

describe('Edit: contract', () => {
  it('is neither read-only nor concurrency-safe and gives the classifier the path and new text', () => {
    const input = { file_path: '/p/a.ts', old_string: 'x', new_string: 'y' };
    expect(EditTool.isReadOnly(input)).toBe(false);
    expect(EditTool.isConcurrencySafe(input)).toBe(false);
    expect(EditTool.toAutoClassifierInput(input)).toBe('Edit /p/a.ts: y');
  });

  it('accepts the optional replace_all and rejects unknown fields', async () => {
    expect(
      EditTool.inputSchema.safeParse({ file_path: '/a', old_string: 'a', new_string: 'b' }).success,
    ).toBe(true);
    expect(
      EditTool.inputSchema.safeParse({ file_path: '/a', old_string: 'a', new_string: 'b', x: 1 }).success,
    ).toBe(false);
  });
});
