import { beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../core/permission-types.js';
import { initShellParser } from '../parser.js';
import { parseAndSplit } from '../split.js';
import type { SplitResult } from '../types.js';
import { insideExpansions, operatorsLater } from './comments.js';
import { CharContext, charContexts, finding } from './detector.js';
import { MID_WORD_HASH } from './index.js';

beforeAll(async () => {
  await initShellParser();
});

const WORD_START_BEFORE = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>', '$', '{']);

/** The straightforward MID_WORD_HASH: every expansion and the rest of the line scanned per `#`. */
function straightforward(command: string, split: SplitResult): Finding[] {
  const ctx = charContexts(command, split);
  const expansions = (split.notes ?? []).filter(
    (n) => n.depth === 0 && (n.kind === 'parameter-expansion' || n.kind === 'arithmetic-expansion'),
  );
  const insideExpansion = (i: number) => expansions.some((n) => n.start < i && i < n.end);
  for (let i = command.indexOf('#', 1); i >= 0; i = command.indexOf('#', i + 1)) {
    if (ctx[i] !== CharContext.Code) continue;
    const prev = command[i - 1] as string;
    if (WORD_START_BEFORE.has(prev) || insideExpansion(i)) continue;
    const afterQuote = prev === "'" || prev === '"';
    let operatorLater = false;
    for (let k = i + 1; k < command.length && command[k] !== '\n'; k++) {
      const c = command[k];
      if ((c === ';' || c === '|' || c === '&') && ctx[k] === CharContext.Code && command[k - 1] !== '\\') {
        operatorLater = true;
        break;
      }
    }
    if (afterQuote || operatorLater)
      return [
        finding(
          MID_WORD_HASH,
          `A "#" in the middle of a word (offset ${i}) is not a comment to bash; the text after it still runs.`,
        ),
      ];
  }
  return [];
}

describe('MID_WORD_HASH in one pass', () => {
  // Each row: a command, whether the check fires, and why (what the answer depends on).
  const rows: [command: string, fires: boolean, why: string][] = [
    ['echo a#b', false, 'a mid-word # with nothing after it on the line'],
    ['echo a#b; rm x', true, 'an operator later on the same line'],
    ["echo 'x'#y", true, 'right after a quote'],
    ['echo a#b\nrm x; ls', false, 'the operator is on the next line'],
    ['echo a#b \\; x', false, 'an escaped semicolon is not an operator'],
    ['echo a#b "; x"', false, 'a quoted semicolon is not an operator'],
    ['echo ${x#y}; ls', false, 'the # is inside ${…}'],
    ['echo ${x}a#b; ls', true, 'the # is after ${…}, not inside it'],
    ['echo $((1#1)); ls', false, 'inside $((…))'],
    ['echo $(echo a#b; ls)', true, 'inside $(…) (not an expansion note here): the ; follows'],
    ['echo ${a:-${b}}c#d | x', true, 'after nested expansions that end before it'],
    ['echo # a comment; rm x', false, 'a real comment starts a word'],
    ['echo a#b & ls', true, 'a background operator later'],
    ['echo a#b || ls', true, 'a || later'],
    [`${'${x}a#b '.repeat(50)}x`, false, 'many mid-word # after expansions, no operator'],
    [`${'${x}a#b '.repeat(50)}; x`, true, 'many mid-word #, the operator at the end'],
    ['', false, 'empty'],
    ['#', false, 'a # at offset 0 is never looked at'],
  ];
  it.each(rows)('%j fires=%s (%s), as the straightforward scan', (command, fires) => {
    const split = parseAndSplit(command);
    const source = split.source ?? command;
    const found = MID_WORD_HASH.detect(source, split);
    expect(found).toEqual(straightforward(source, split));
    expect(found.length > 0).toBe(fires);
  });

  it('gives the straightforward answer on random commands built from the pieces that matter', () => {
    const pieces = [
      'a#b',
      '#',
      ' ',
      ';',
      '|',
      '&',
      '\\',
      '\n',
      '${x}',
      '${x#',
      '}',
      '$((1',
      '))',
      "'",
      '"',
      '$(',
      ')',
      'c',
    ];
    let seed = 7;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    for (let round = 0; round < 300; round++) {
      let command = 'echo ';
      for (let k = rnd(14); k > 0; k--) command += pieces[rnd(pieces.length)];
      const split = parseAndSplit(command);
      const source = split.source ?? command;
      expect(MID_WORD_HASH.detect(source, split), command).toEqual(straightforward(source, split));
    }
  });

  it('insideExpansions marks the offsets strictly inside depth-0 ${…} and $((…)) only', () => {
    const command = 'a ${x} $((1)) $(b) ${y';
    const split = parseAndSplit(command);
    const inside = insideExpansions(command.length, split.notes ?? []);
    const marked = [...inside].flatMap((v, i) => (v ? [command[i]] : [])).join('');
    expect(marked).toBe('{x}((1))'); // start < i < end: the `$` is the start, the end is past the last character
  });

  it('operatorsLater looks only to the end of the line, at unescaped operators in code', () => {
    const command = "a ; b\nc '|' d \\& e\nf | g";
    const split = parseAndSplit(command);
    const later = operatorsLater(command, charContexts(command, split));
    expect(later[0]).toBe(1); // the ; of the first line
    expect(later[3]).toBe(0); // after the ;
    expect(later[6]).toBe(0); // quoted | and escaped & only
    expect(later[command.indexOf('f')]).toBe(1);
  });
});
