/** Table tests for the pure helpers of the search engine: path order, --glob semantics, regex translation, ranking, decoding. */
import { describe, expect, it } from 'vitest';
import { decodeText, previewLongLine } from './js-search.js';
import { compileOverrideGlobs } from './override-globs.js';
import { compareRipgrepPaths } from './path-order.js';
import { RankedFiles } from './ranked-files.js';
import { compileRustRegex } from './rust-regex.js';
import { parseContentRecord } from './search-engine.js';

describe('compareRipgrepPaths (ripgrep --sort=path order)', () => {
  it.each([
    ['a/b', 'a.txt', -1, 'the directory entry "a" sorts before "a.txt", although "/" > "."'],
    ['a.txt', 'a/b', 1, 'symmetric'],
    ['B', 'a', -1, 'byte order: upper case first'],
    ['z', 'é', -1, 'ASCII before multi-byte UTF-8'],
    ['\u{FF5E}', '\u{1F600}', -1, 'UTF-8 byte order, not UTF-16 code units (surrogates would sort first)'],
    ['dir/x', 'dir/x', 0, 'equal'],
    ['dir', 'dir/x', -1, 'a prefix path first'],
  ] as const)('%s vs %s → %i (%s)', (a, b, sign, _why) => {
    expect(Math.sign(compareRipgrepPaths(a, b))).toBe(sign);
  });
});

describe('compileOverrideGlobs (ripgrep --glob semantics)', () => {
  it.each([
    [['*.ts'], 'deep/dir/x.ts', 'include', 'no slash: matches the file name at any depth'],
    [['src/*.ts'], 'lib/src/x.ts', 'exclude', 'a slash anchors at the root'],
    [['/x.ts'], 'x.ts', 'include', 'leading slash anchors'],
    [['/x.ts'], 'd/x.ts', 'exclude', 'leading slash: not deeper'],
    [['*.{ts,tsx}'], 'a/b.tsx', 'include', 'braces'],
    [['!*.md'], 'a.md', 'exclude', 'negation excludes'],
    [['!*.md'], 'a.ts', 'none', 'only negations: other files are not decided'],
    [['*.ts', '!a.ts'], 'a.ts', 'exclude', 'the later glob wins'],
    [['!a.ts', '*.ts'], 'a.ts', 'include', 'the later glob wins, the other way round'],
    [['*.ts'], 'a.md', 'exclude', 'with an including glob, a file matching none is excluded'],
    [['**/.env*'], 'x/.env.local', 'include', 'dot-files match'],
  ] as const)('%j on %s → %s (%s)', (globs, file, verdict, _why) => {
    expect(compileOverrideGlobs(globs).fileVerdict(file)).toBe(verdict);
  });

  it('prunes a directory only for a matching negated glob', () => {
    const g = compileOverrideGlobs(['*.ts', '!vendor']);
    expect(g.dirAllowed('vendor')).toBe(false);
    expect(g.dirAllowed('src')).toBe(true);
  });
});

describe('compileRustRegex', () => {
  it.each([
    ['(?i)hello', 'HeLLo', true, 'leading inline flag'],
    ['(?P<word>ab)c', 'abc', true, 'Python-style named group'],
    ['\\pL+', 'é', true, 'one-letter Unicode class'],
    [
      '\\-x',
      '-x',
      true,
      'Rust allows escaping punctuation (not in JS u-mode): falls back to non-Unicode mode',
    ],
    ['\\Afoo', 'foo', true, '\\A is the start'],
    ['a{2}', 'aa', true, 'repetition'],
    ['(?i:x)y', 'Xy', true, 'scoped flag groups (Rust syntax) work on the RE2 engine'],
    ['[[:alpha:]]+', 'abc', true, 'POSIX classes'],
    ['(?U)a+', 'aaa', true, 'swap-greed flag'],
  ] as const)('%s matches %s → %s (%s)', (pattern, text, expected, _why) => {
    expect(compileRustRegex(pattern, { caseInsensitive: false, multiline: false }).test(text)).toBe(expected);
  });

  it.each([
    ['(unclosed', /Invalid regex/, 'invalid syntax names the problem and the next step'],
    ['(a)\\1', /backreferences.*linear-time engine/, 'backreferences: ripgrep needs --pcre2 for them too'],
    ['foo(?=bar)', /look-ahead.*linear-time engine/, 'look-ahead'],
    ['(?x) a b', /Invalid regex/, 'extended mode is not supported'],
  ])('rejects %s (%s)', (pattern, message, _why) => {
    expect(() => compileRustRegex(pattern, { caseInsensitive: false, multiline: false })).toThrow(message);
  });
});

describe('RankedFiles', () => {
  const files = [
    { path: '/c', mtimeMs: 3 },
    { path: '/a', mtimeMs: 1 },
    { path: '/b2', mtimeMs: 2 },
    { path: '/b1', mtimeMs: 2 },
  ];
  it.each([
    ['oldest-first', 10, ['/a', '/b1', '/b2', '/c'], 'ascending mtime, ties by path'],
    ['newest-first', 10, ['/c', '/b1', '/b2', '/a'], 'descending mtime, ties still by path'],
    ['newest-first', 2, ['/c', '/b1'], 'capacity keeps the first N'],
  ] as const)('%s, capacity %i → %j (%s)', (order, capacity, expected, _why) => {
    const ranked = new RankedFiles(capacity, order);
    for (const f of files) ranked.add(f);
    expect(ranked.sorted().map((f) => f.path)).toEqual(expected);
    expect(ranked.total).toBe(4);
  });

  it('keeps the right files when the buffer is compacted many times', () => {
    const ranked = new RankedFiles(3, 'newest-first');
    for (let i = 0; i < 1000; i++) ranked.add({ path: `/f${i}`, mtimeMs: (i * 7919) % 1000 });
    expect(ranked.sorted().map((f) => f.mtimeMs)).toEqual([999, 998, 997]);
  });

  it.each([
    ['oldest-first', 'ties on mtime cut by path after each compaction'],
    ['newest-first', 'the same from the other end'],
  ] as const)('offer(path, mtime) keeps exactly what add keeps (%s: %s)', (order, _why) => {
    const byAdd = new RankedFiles(7, order);
    const byOffer = new RankedFiles(7, order);
    for (let i = 0; i < 2000; i++) {
      // Few distinct mtimes, so most files tie with the last kept one.
      const file = { path: `f${(i * 7919) % 2000}`, mtimeMs: (i * 31) % 5 };
      byAdd.add(file);
      byOffer.offer(file.path, file.mtimeMs);
    }
    expect(byOffer.sorted()).toEqual(byAdd.sorted());
    expect(byOffer.total).toBe(2000);
  });
});

describe('decodeText and previewLongLine (what ripgrep prints)', () => {
  it.each([
    [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hé', 'utf16le')]), 'hé', 'UTF-16LE with BOM'],
    [Buffer.from([0xfe, 0xff, 0x00, 0x68, 0x00, 0xe9]), 'hé', 'UTF-16BE with BOM'],
    [Buffer.from([0xef, 0xbb, 0xbf, 0x68]), 'h', 'UTF-8 BOM dropped'],
    [Buffer.from('plain'), 'plain', 'UTF-8'],
  ])('decodes %j → %s (%s)', (bytes, text) => {
    expect(decodeText(bytes)).toBe(text);
  });

  it('cuts a line over N bytes to N characters plus the marker', () => {
    expect(previewLongLine('x'.repeat(12), 10)).toBe(`${'x'.repeat(10)} [... omitted end of long line]`);
    expect(previewLongLine('é'.repeat(6), 10)).toBe(`${'é'.repeat(6)} [... omitted end of long line]`);
    expect(previewLongLine('short', 10)).toBe('short');
  });
});

describe('parseContentRecord', () => {
  it.each([
    [
      './a:b.txt\u00003:text: with colon',
      { kind: 'line', path: 'a:b.txt', lineNumber: 3, text: 'text: with colon', isMatch: true },
      'match',
    ],
    [
      'x-y\u000012-ctx\r',
      { kind: 'line', path: 'x-y', lineNumber: 12, text: 'ctx', isMatch: false },
      'context, CR stripped',
    ],
    ['--', undefined, 'group separator'],
    [
      './b.bin: binary file matches (found "\\0" byte around offset 3)',
      { kind: 'binary', path: 'b.bin', message: 'binary file matches (found "\\0" byte around offset 3)' },
      'binary notice',
    ],
  ] as const)('%j (%s)', (raw, expected, _why) => {
    expect(parseContentRecord(raw)).toEqual(expected);
  });
});

describe('patterns run in linear time (no catastrophic backtracking)', () => {
  it.each([
    ['(a+)+$', false, 'nested quantifier: no match, found without backtracking'],
    ['(a|aa)*c', false, 'alternation under a star'],
    ['(.*a){12}', true, 'bounded repetition of a greedy group: a match'],
    ['^(a+)+!$', true, 'the nested quantifier that does match'],
  ] as const)('%s against a 100,000-character line → %s, and completes (%s)', (pattern, expected, _why) => {
    const line = `${'a'.repeat(100_000)}!`;
    expect(compileRustRegex(pattern, { caseInsensitive: false, multiline: false }).test(line)).toBe(expected);
  });
  it('spans gives non-overlapping matches with UTF-16 offsets, empty matches advancing', () => {
    const re = compileRustRegex('o+', { caseInsensitive: false, multiline: false });
    expect([...re.spans('😀foo boo')].map((m) => [m.start, m.end, m.text])).toEqual([
      [3, 5, 'oo'],
      [7, 9, 'oo'],
    ]);
    expect([...compileRustRegex('x*', { caseInsensitive: false, multiline: false }).spans('ab')].length).toBe(
      3,
    );
  });
});
