import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReadFileState } from '../../core/index.js';
import { fileToolsCompat } from './compat.js';
import { decodeText, detectEncoding, encodeText } from './encoding.js';
import { checkReadBeforeWrite, NOT_READ_MESSAGE, recordFileState, STALE_MESSAGE } from './freshness.js';
import { applyLineEnding, detectLineEnding, directoryLineEnding, toCrlf } from './line-endings.js';
import { numberLine, splitLines, truncateLine } from './line-numbers.js';
import { changedNewLines, makeStructuredPatch } from './patch.js';
import { makeTempDir } from '../../testing/tool-harness.js';

describe('encodings', () => {
  it.each([
    [Buffer.from('plain'), 'utf8', 'ASCII is UTF-8'],
    [Buffer.from('\ufeffbom', 'utf8'), 'utf8-bom', 'EF BB BF'],
    [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('x', 'utf16le')]), 'utf16le', 'FF FE'],
    [Buffer.from([0x63, 0xe9, 0x74]), 'latin1', 'a lone 0xE9 is not UTF-8'],
  ])('%j → %s (%s)', (bytes, expected, _why) => {
    expect(detectEncoding(bytes)).toBe(expected);
  });

  it.each(['utf8', 'utf8-bom', 'utf16le', 'latin1'] as const)('%s round-trips byte for byte', (encoding) => {
    const text = encoding === 'latin1' ? 'caf\u00e9 \u00fc' : 'caf\u00e9 \u{1f600} \u00fc';
    const { bytes } = encodeText(text, encoding);
    expect(detectEncoding(bytes)).toBe(encoding);
    expect(decodeText(bytes)).toBe(text);
    expect(encodeText(decodeText(bytes), encoding).bytes.equals(bytes)).toBe(true);
  });

  it('upgrades a Latin-1 file to UTF-8 rather than lose a character it cannot hold', () => {
    expect(encodeText('snow \u2603', 'latin1').encoding).toBe('utf8');
  });
});

describe('line endings', () => {
  it.each([
    ['a\r\nb\r\nc', 'CRLF', 'all CRLF'],
    ['a\nb\n', 'LF', 'all LF'],
    ['a\r\nb\nc\r\n', 'CRLF', 'majority CRLF'],
    ['no newline', 'LF', 'no line break'],
  ])('%j → %s (%s)', (text, expected, _why) => {
    expect(detectLineEnding(text)).toBe(expected);
  });

  it('converts bare LF to CRLF without doubling existing CRLF', () => {
    expect(toCrlf('a\nb\r\nc\n')).toBe('a\r\nb\r\nc\r\n');
    expect(applyLineEnding('a\nb', 'LF')).toBe('a\nb');
  });

  describe('directory convention', () => {
    let dir: string;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ dir, cleanup } = await makeTempDir());
    });
    afterEach(async () => cleanup());

    it('is CRLF when most sibling text files are CRLF, ignoring binaries', async () => {
      await writeFile(path.join(dir, 'a.cs'), 'x\r\ny\r\n');
      await writeFile(path.join(dir, 'b.cs'), 'x\r\ny\r\n');
      await writeFile(path.join(dir, 'c.txt'), 'x\ny\n');
      await writeFile(path.join(dir, 'd.bin'), Buffer.from([0, 10, 0, 10, 0, 10]));
      expect(await directoryLineEnding(dir)).toBe('CRLF');
    });

    it('is LF for an empty or missing directory', async () => {
      expect(await directoryLineEnding(dir)).toBe('LF');
      expect(await directoryLineEnding(path.join(dir, 'nope'))).toBe('LF');
    });
  });
});

describe('line numbers', () => {
  it.each([
    [1, 'x', '     1\tx', 'padded to 6'],
    [123456, 'x', '123456\tx', 'exactly 6'],
    [1234567, 'x', '1234567\tx', 'longer numbers are not padded'],
  ])('numberLine(%i)', (n, line, expected, _why) => {
    expect(numberLine(n, line)).toBe(expected);
  });

  it('splits CRLF and keeps the empty last line after a final newline', () => {
    expect(splitLines('a\r\nb\r\n')).toEqual(['a', 'b', '']);
    expect(splitLines('')).toEqual([]);
  });

  it('cuts long lines with a marker naming the dropped count', () => {
    expect(truncateLine('abcdef', 4)).toBe('abcd… [line truncated: 2 more characters]');
    expect(truncateLine('abc', 4)).toBe('abc');
  });
});

describe('read-before-write and staleness', () => {
  const snapshot = { path: '/p/f.txt', contentHash: 'h1', mtimeMs: 1000 };

  it.each([
    [undefined, { requireFullRead: false }, NOT_READ_MESSAGE, 'never read'],
    [
      { contentHash: 'h0', mtimeMs: 1000, isPartial: false },
      { requireFullRead: false },
      STALE_MESSAGE,
      'content changed at the same mtime',
    ],
    [
      { contentHash: '', mtimeMs: 999, isPartial: true },
      { requireFullRead: false },
      STALE_MESSAGE,
      'unhashed: mtime moved',
    ],
    [
      { contentHash: 'h1', mtimeMs: 1000, isPartial: true, offset: 5, limit: 10 },
      { requireFullRead: true },
      /only partly read \(lines 5-14\)/,
      'Write needs a full read',
    ],
  ])('%j → refused (%s)', (entry, options, expected, _why) => {
    const state = new ReadFileState();
    if (entry) state.set(snapshot.path, entry);
    const result = checkReadBeforeWrite({ readFileState: state }, snapshot, options);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(expected);
  });

  it.each([
    [{ contentHash: 'h1', mtimeMs: 5, isPartial: false }, 'touched: mtime moved, content identical'],
    [{ contentHash: 'h1', mtimeMs: 1000, isPartial: true }, 'a partial read is enough for Edit'],
    [{ contentHash: '', mtimeMs: 1000, isPartial: true }, 'unhashed read, same mtime'],
  ])('%j → allowed (%s)', (entry, _why) => {
    const state = new ReadFileState();
    state.set(snapshot.path, entry);
    expect(checkReadBeforeWrite({ readFileState: state }, snapshot, { requireFullRead: false })).toEqual({
      ok: true,
    });
  });

  it('records floored mtimes and drops content of partial reads', () => {
    const state = new ReadFileState();
    recordFileState({ readFileState: state }, '/p/x', {
      contentHash: 'h',
      mtimeMs: 12.9,
      isPartial: true,
      text: 'abc',
      offset: 1,
      limit: 2,
    });
    expect(state.get('/p/x')).toEqual({
      contentHash: 'h',
      mtimeMs: 12,
      isPartial: true,
      offset: 1,
      limit: 2,
    });
  });
});

describe('structured patch', () => {
  it('gives jsdiff hunks with 3 lines of context, CRLF folded', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8'].join('\r\n');
    const after = ['1', '2', '3', '4', 'five', '6', '7', '8'].join('\r\n');
    const hunks = makeStructuredPatch('/f', before, after);
    expect(hunks).toEqual([
      {
        oldStart: 2,
        oldLines: 7,
        newStart: 2,
        newLines: 7,
        lines: [' 2', ' 3', ' 4', '-5', '+five', ' 6', ' 7', ' 8'],
      },
    ]);
    expect(changedNewLines(hunks)).toEqual({ first: 5, last: 5 });
  });
});

describe('compat', () => {
  it('fills defaults and ignores ill-typed values', () => {
    const compat = fileToolsCompat({
      options: {
        tools: [],
        compat: { readLineCap: -5, readOverCap: 'explode', readLineSeparator: '→', editResult: 'brief' },
      },
    });
    expect(compat.readLineCap).toBe(2000);
    expect(compat.readOverCap).toBe('partial');
    expect(compat.readLineSeparator).toBe('→');
    expect(compat.editResult).toBe('brief');
  });
});
