import { describe, expect, it } from 'vitest';
import { applyCurlyQuotes, applyEditMatch, findEditMatch, foldQuotes, occurrences } from './match.js';

describe('findEditMatch', () => {
  it.each([
    [
      'a b a',
      'a',
      'x',
      { actualOld: 'a', actualNew: 'x', indexes: [0, 4], viaCrlf: false, viaQuotes: false },
      'exact, two places',
    ],
    [
      'l1\r\nl2\r\n',
      'l1\nl2',
      'L1\nL2',
      { actualOld: 'l1\r\nl2', actualNew: 'L1\r\nL2', indexes: [0], viaCrlf: true, viaQuotes: false },
      'LF model text in a CRLF file',
    ],
    [
      'say “hi” now',
      'say "hi"',
      'say "bye"',
      { actualOld: 'say “hi”', actualNew: 'say “bye”', indexes: [0], viaCrlf: false, viaQuotes: true },
      'straight quotes against curly',
    ],
    [
      "it's here",
      'it’s',
      'it’ll',
      { actualOld: "it's", actualNew: 'it’ll', indexes: [0], viaCrlf: false, viaQuotes: true },
      'curly in the model text, straight in the file: new text kept as written',
    ],
    [
      'l1\nl2\n',
      'l1\r\nl2',
      'L1\r\nL2',
      { actualOld: 'l1\nl2', actualNew: 'L1\nL2', indexes: [0], viaCrlf: true, viaQuotes: false },
      'CRLF model text in an LF file',
    ],
    [
      'x\r\n“q”\r\n',
      'x\n"q"',
      'y\n"r"',
      { actualOld: 'x\r\n“q”', actualNew: 'y\r\n“r”', indexes: [0], viaCrlf: true, viaQuotes: true },
      'both bridges at once',
    ],
  ])('%j ⟵ %j', (file, oldString, newString, expected, _why) => {
    expect(findEditMatch(file, oldString, newString)).toEqual(expected);
  });

  it('returns undefined when no form occurs', () => {
    expect(findEditMatch('abc', 'abd', 'x')).toBeUndefined();
  });
});

describe('quote helpers', () => {
  it('folds curly quotes to straight ones without changing the length', () => {
    const text = '‘a’ “b”';
    expect(foldQuotes(text)).toBe('\'a\' "b"');
    expect(foldQuotes(text).length).toBe(text.length);
  });

  it.each([
    ["\"a\" and 'b' don't", '“x” ‘y’', '“a” and ‘b’ don’t', 'both kinds curly in the segment'],
    ['"a" don\'t', '“x”', "“a” don't", 'only doubles curly in the segment, no singles anywhere'],
    ['("quoted")', '“x”', '(“quoted”)', 'after an opening bracket a quote opens'],
    ['"plain"', 'no quotes', '"plain"', 'a file without curly quotes is left alone'],
  ])('applyCurlyQuotes(%j, %j) → %j (%s)', (text, segment, expected, _why) => {
    expect(applyCurlyQuotes(text, segment)).toBe(expected);
  });

  it('follows the file when the matched segment has no quote of a kind', () => {
    expect(applyCurlyQuotes("it's", 'plain text', 'We’re here. It’s fine.')).toBe('it’s');
    expect(applyCurlyQuotes("it's", 'plain text', "We're here. It's fine.")).toBe("it's");
  });
});

describe('applyEditMatch', () => {
  it('replaces the first or every occurrence, non-overlapping', () => {
    const match = findEditMatch('aaaa', 'aa', 'b');
    expect(match?.indexes).toEqual([0, 2]);
    if (!match) return;
    expect(applyEditMatch('aaaa', match, false)).toBe('baa');
    expect(applyEditMatch('aaaa', match, true)).toBe('bb');
  });

  it('counts non-overlapping occurrences', () => {
    expect(occurrences('ababab', 'aba')).toEqual([0]);
  });
});
