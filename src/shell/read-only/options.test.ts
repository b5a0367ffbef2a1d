import { describe, expect, it } from 'vitest';
import { word } from '../testing-helpers.js';
import { type ArgItem, compileOptions, scanArgs } from './options.js';

const SORTISH = compileOptions({
  safe: ['-u', '-n', '-k=', '--unique', '--key=', '--color=?', '--compress-level='],
  unsafe: { '-o=': 'writes', '--output=': 'writes', '--compress-program=': 'runs a program' },
  numeric: false,
});

function scan(line: string): ArgItem[] {
  return scanArgs(
    line
      .split(' ')
      .filter(Boolean)
      .map((t) => word(t)),
    SORTISH,
  );
}

function summary(items: ArgItem[]): string[] {
  return items.map((it) => {
    if (it.kind === 'option')
      return `${it.name}${it.value !== undefined ? `=${it.value}` : ''}${it.unsafe ? '!' : ''}`;
    if (it.kind === 'operand') return `op:${it.word.text}`;
    if (it.kind === 'unknown') return `?${it.text}`;
    return `$${it.word.text}`;
  });
}

describe('scanArgs (getopt_long semantics)', () => {
  it.each([
    ['-u f', ['-u', 'op:f'], 'plain short flag and operand'],
    ['-uo out f', ['-u', '-o=out!', 'op:f'], 'bundled flag then option taking the next word'],
    ['-oout.txt f', ['-o=out.txt!', 'op:f'], 'value attached to a short option'],
    ['--output=x f', ['--output=x!', 'op:f'], 'long option with = value'],
    ['--output x f', ['--output=x!', 'op:f'], 'long option taking the next word'],
    ['--out=x', ['--output=x!'], 'unique abbreviation resolves'],
    ['--compress-p=sh', ['--compress-program=sh!'], 'abbreviation of an unsafe option'],
    [
      '--co=sh',
      ['--compress-program=sh!'],
      'ambiguous abbreviation that could name an unsafe option is unsafe',
    ],
    ['--uni f', ['--unique', 'op:f'], 'safe abbreviation'],
    ['--color', ['--color'], 'optional value absent'],
    ['--color=never', ['--color=never'], 'optional value attached'],
    ['-- -o x', ['op:-o', 'op:x'], '-- ends options'],
    ['f -u', ['op:f', '-u'], 'GNU permutation: options after operands'],
    ['-z f', ['?-z', 'op:f'], 'unknown short option'],
    ['--bogus f', ['?--bogus', 'op:f'], 'unknown long option'],
    ['--unique=1', ['?--unique=1'], 'value given to a flag is an error, so unknown'],
    ['- f', ['op:-', 'op:f'], 'lone dash is stdin operand'],
  ])('%s → %j (%s)', (line, expected) => {
    expect(summary(scan(line))).toEqual(expected);
  });

  it('a word starting with an expansion in option position is dynamic', () => {
    const items = scanArgs([word('$X'), word('f')], SORTISH);
    expect(summary(items)).toEqual(['$$X', 'op:f']);
  });

  it('stopAtOperand ends option scanning at the first operand', () => {
    const t = compileOptions({ safe: ['-n='], stopAtOperand: true });
    const items = scanArgs(
      ['-n', '5', 'ls', '-la'].map((x) => word(x)),
      t,
    );
    expect(summary(items)).toEqual(['-n=5', 'op:ls', 'op:-la']);
  });

  it.each([
    [
      ['-n', '5', 'ls', '-la'],
      true,
      ['-n=5', 'op:ls'],
      'stops after the first operand of a stopAtOperand table',
    ],
    [['-n', '5', '--', '-x', 'y'], true, ['-n=5', 'op:-x'], 'stops after the first operand past --'],
    [['$X', '-q', 'ls', 'y'], true, ['$$X', '?-q', 'op:ls'], 'a dynamic word does not end the options'],
    [
      ['ls', '-n', '5', 'y'],
      false,
      ['op:ls', '-n=5', 'op:y'],
      'options may follow operands: scanned to the end',
    ],
  ])('untilOperand: %j, stopAtOperand %s: %j, %s', (args, stopAtOperand, expected, _why) => {
    const t = compileOptions({ safe: ['-n='], stopAtOperand });
    expect(
      summary(
        scanArgs(
          args.map((x) => word(x)),
          t,
          true,
        ),
      ),
    ).toEqual(expected);
  });

  it('numeric options (-20) when the table allows them', () => {
    const t = compileOptions({ safe: ['-n='], numeric: true });
    expect(summary(scanArgs([word('-20'), word('f')], t))).toEqual(['-NUM=20', 'op:f']);
  });
});
