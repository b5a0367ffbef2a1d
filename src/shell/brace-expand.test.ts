/**
 * Brace expansion matches bash (docs/shell-analysis.md "Brace expansion"). Oracle: real bash prints
 * the words of `printf '%s\n' WORD`; the parser must produce exactly those words for WORD.
 */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from './analyze.js';
import { expandBraceText, MAX_BRACE_WORDS } from './brace-expand.js';
import { initShellParser } from './parser.js';
import { parseAndSplit } from './split.js';

beforeAll(async () => {
  await initShellParser();
});

/** The words bash passes to printf for `words` (each printed on its own line). */
function bashWords(words: string): string[] {
  const out = execFileSync('bash', ['-c', `printf '%s\\n' ${words}`], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/home/u' },
    // stdin is not a socket: bash started on a socket with no SHLVL reads ~/.bashrc.
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return out.split('\n').slice(0, -1);
}

/** [word(s) as written, reason]. */
const ROWS: [string, string][] = [
  ['secret{01..02}.txt', 'zero padding kept (a deny rule on secret01.txt must match)'],
  ['{01..10}', 'zero padding to the widest bound'],
  ['{1..10..3}', 'numeric step'],
  ['{10..1..3}', 'descending with a step'],
  ['{01..10..3}', 'padding with a step'],
  ['{-02..2}', 'negative padded bound pads every result'],
  ['{-1..-03}', 'both bounds negative'],
  ['{0..-3}', 'descending into negatives'],
  ['{1..10..0}', 'a zero step counts as one'],
  ['{a..e}', 'letters'],
  ['{a..e..2}', 'letters with a step'],
  ['{e..a}', 'descending letters'],
  ['{a..Z}', 'a range across the punctuation between Z and a'],
  ['{a..9}', 'mixed bounds: no expansion'],
  ['{1..a}', 'mixed bounds: no expansion'],
  ['x{a,b}y', 'alternatives with prefix and suffix'],
  ['{a,b}{c,d}', 'two groups multiply'],
  ['{a,{b,c}}', 'nested alternatives'],
  ['x{a,b{1,2}}', 'nested with a prefix'],
  ['{a,,b}', 'an empty alternative is dropped at the top level'],
  ['{,a}b', 'an empty alternative with a suffix is kept'],
  ['x{,.bak}', 'empty alternative (backup idiom)'],
  ['a{,}', 'two empty alternatives after a prefix'],
  ['{a}', 'one alternative: no expansion'],
  ['x{a}y', 'one alternative inside a word'],
  ['{ab}c{d,e}', 'a literal group before an expanding one'],
  ['a{},b}c', "bash's {} quirk"],
  ['{{a,b}', 'an unmatched open brace stays'],
  ['a}b{c,d}', 'a stray close brace stays'],
  ['{a,b', 'unterminated'],
  ["'{a,b}'", 'single-quoted braces are text'],
  ['"{a,b}"', 'double-quoted braces are text'],
  ['\\{a,b\\}', 'escaped braces are text'],
  ['{a\\,b,c}', 'an escaped comma is text'],
  ["{'a,b',c}", 'a quoted comma is text'],
  ["'{'a,b}", 'a quoted open brace is text'],
  ['{"1"..3}', 'a quoted bound makes the sequence text'],
  ["'x'{a,b}", 'quoted prefix kept on every result'],
  ['\\${a,b}', 'an escaped dollar before a group'],
  ["{'*',b}", 'a quoted star stays text in its result'],
  ['{.,..}/secret', 'a parent directory through braces'],
  ['{/etc,/tmp}/x', 'absolute paths through braces'],
  ['--file={a,b}', 'an option value expands into two options'],
];

describe('the parser expands braces as bash does (oracle: bash printf)', () => {
  it.each(ROWS)('%s (%s)', (words) => {
    const split = parseAndSplit(`printf '%s\\n' ${words}`);
    expect(split.ok).toBe(true);
    const argv = split.commands[0]?.argv.slice(2).map((w) => w.text);
    expect(argv).toEqual(bashWords(words));
  });
});

describe('results keep their quoting', () => {
  it.each([
    ["{'~',x}/a", '~/a', false, 'a quoted tilde is a directory named ~ (not $HOME)'],
    ['{~,x}/a', '~/a', true, 'an unquoted tilde in a result is $HOME (bash expands it after braces)'],
  ])('%s (%s)', (word, first, home) => {
    const a = analyzeCommand(`cat ${word}`, { cwd: '/w', home: '/home/u' });
    const targets = a.effects.filter((e) => e.kind === 'read').map((e) => e.target);
    expect(targets.includes('/home/u/a')).toBe(home);
    expect(a.subcommands[0]?.argv[1]).toBe(first);
  });

  it("a quoted glob character in a result is not a glob: {'*',b}", () => {
    const w = parseAndSplit("cat {'*',b}").commands[0]?.argv[1];
    expect(w?.text).toBe('*');
    expect(w?.hasGlob).toBe(false);
  });
});

describe('the cap fails closed', () => {
  it('an expansion past the cap is not analysed: parse not ok, target unknown', () => {
    const a = analyzeCommand('cat {1..100000}', { cwd: '/w', home: '/home/u' });
    expect(a.parseOk).toBe(false);
    expect(a.effects.some((e) => e.kind === 'read' && e.certainty === 'unknown')).toBe(true);
    expect(a.readOnly).toBe(false);
  });

  it('the text expander refuses past the cap and expands below it', () => {
    expect(expandBraceText(`{1..${MAX_BRACE_WORDS + 1}}`)).toBeUndefined();
    expect(expandBraceText(`{1..${MAX_BRACE_WORDS}}`)?.length).toBe(MAX_BRACE_WORDS);
    expect(expandBraceText('{a,b}'.repeat(11))).toBeUndefined();
  });

  it.each([
    ['{a,b}'.repeat(10), MAX_BRACE_WORDS, 'ten two-way groups: exactly the cap, expanded'],
    [`x/${'{a,b}'.repeat(9)}{c,d,e}`, undefined, 'the counted groups pass the cap (2^9 × 3)'],
    [`${'{a,b}'.repeat(11)}{c`, undefined, 'past the cap before an unmatched brace'],
    [
      `${'{a,b}'.repeat(8)}{,c}{d,e}`,
      MAX_BRACE_WORDS,
      'an empty alternative ends the count; the library expands',
    ],
    [`${'{a,b}'.repeat(9)}{c{d,e},f}`, undefined, 'a nested group ends the count; the library refuses'],
    [`${'{a,b}'.repeat(9)}$x{c,d}`, MAX_BRACE_WORDS, 'a dollar ends the count'],
  ])('counting groups before expanding agrees with the library: %s (%s)', (word, count, _why) => {
    // The library alone: the same word behind a stray `}`, which stops the count at once.
    const viaLibrary = expandBraceText(`}${word}`);
    expect(viaLibrary?.length).toBe(count);
    expect(expandBraceText(word)?.length).toBe(count);
  });

  it('within an analysis a word is expanded once and gives the same words as outside it', () => {
    const command = `cp ${'{a,b}{c,d} '.repeat(50)}/tmp/x`;
    const outside = parseAndSplit(command).commands[0]?.argv.map((w) => w.text);
    const a = analyzeCommand(command, { cwd: '/w', home: '/home/u' });
    expect(a.subcommands[0]?.argv).toEqual(outside);
    expect(a.subcommands[0]?.argv).toHaveLength(1 + 200 + 1);
    const reads = a.effects.filter((e) => e.kind === 'read').map((e) => e.target);
    expect(reads).toEqual(['/w/ac', '/w/ad', '/w/bc', '/w/bd']);
  });

  it('an ambiguous redirection (several words) is an unknown target', () => {
    const a = analyzeCommand('echo x > x{a,b}', { cwd: '/w', home: '/home/u' });
    expect(a.effects.some((e) => e.kind === 'write' && e.certainty === 'unknown')).toBe(true);
  });

  it('a redirection that expands to one word names that file: > {a,}', () => {
    const a = analyzeCommand('echo x > {a,}', { cwd: '/w', home: '/home/u' });
    expect(a.effects.filter((e) => e.kind === 'write').map((e) => e.target)).toEqual(['/w/a']);
  });
});

describe('effects see the expanded words', () => {
  it('cat secret{01..02}.txt reads secret01.txt and secret02.txt', () => {
    const a = analyzeCommand('cat secret{01..02}.txt', { cwd: '/w', home: '/home/u' });
    const reads = a.effects.filter((e) => e.kind === 'read').map((e) => e.target);
    expect(reads).toEqual(['/w/secret01.txt', '/w/secret02.txt']);
  });

  it('a loop over a brace list binds each result', () => {
    const a = analyzeCommand('for f in secret{01..02}.txt; do cat "$f"; done', {
      cwd: '/w',
      home: '/home/u',
    });
    const reads = a.effects.filter((e) => e.kind === 'read').map((e) => e.target);
    expect(reads).toContain('/w/secret01.txt');
  });
});
