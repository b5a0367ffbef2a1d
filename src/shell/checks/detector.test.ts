import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../parser.js';
import { parseAndSplit } from '../split.js';
import { programOf, programsOf } from './detector.js';

beforeAll(async () => {
  await initShellParser();
});

describe('programsOf: the program of every command, computed once per split', () => {
  it.each([
    ['ls -la && /usr/bin/jq . f | "$X" y; env FOO=1 sudo rm x', 'paths, a dynamic name, wrappers'],
    ['echo $(cat f) <(git log) && sh -c "ls; eval id"', 'substitutions and nested scripts'],
    ['A=1; > out; f() { ls; }', 'commands with no words and a function body'],
  ])('%j matches programOf per command (%s)', (line) => {
    const split = parseAndSplit(line);
    expect(programsOf(split)).toEqual(split.commands.map(programOf));
    expect(programsOf(split)).toBe(programsOf(split));
  });

  it('recomputes when the command list changed length', () => {
    const split = parseAndSplit('ls; cat f');
    expect(programsOf(split)).toEqual(['ls', 'cat']);
    split.commands.push(...parseAndSplit('jq .').commands);
    expect(programsOf(split)).toEqual(['ls', 'cat', 'jq']);
  });
});
