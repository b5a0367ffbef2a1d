import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from './parser.js';
import { parseAndSplit } from './split.js';
import type { Word } from './types.js';
import { decodeAnsiC, unescapeDouble, unescapeUnquoted } from './words.js';

beforeAll(async () => {
  await initShellParser();
});

/** The words of the first command a line splits into (wrappers stripped). */
function words(line: string): Word[] {
  const cmd = parseAndSplit(line).commands.find((c) => c.via === 'top');
  if (!cmd) throw new Error(`no top-level command in ${line}`);
  return cmd.argv;
}

describe('static unquoting (bash quote removal)', () => {
  it.each([
    ["'rm' x", 'rm', 'single quotes removed'],
    ['"ls" x', 'ls', 'double quotes removed'],
    ['\\rm x', 'rm', 'backslash before a plain letter'],
    ["$'\\x72\\x6d' x", 'rm', 'ANSI-C hex escapes decoded'],
    ["r'm' x", 'rm', 'adjacent pieces concatenated'],
    ['r""m x', 'rm', 'empty quotes vanish'],
    ['\'r\'"m" x', 'rm', 'mixed quote styles'],
    ['/bin/rm x', '/bin/rm', 'paths stay as written'],
  ])('%j names %j (%s)', (line, program) => {
    expect(words(line)[0]?.text).toBe(program);
  });

  it.each([
    ['echo "a\\"b"', 'a"b', false, 'escaped quote inside double quotes'],
    ['echo "a\\$b"', 'a$b', false, 'escaped dollar is literal'],
    ['echo "a\\nb"', 'a\\nb', false, 'inside double quotes \\n stays two characters'],
    ["echo 'a\\nb'", 'a\\nb', false, 'single quotes keep backslashes'],
    ['echo a\\ b', 'a b', false, 'escaped space joins a word'],
    ['echo "x $HOME y"', 'x $HOME y', true, 'expansion kept as written, word dynamic'],
    ['echo $(id)', '$(id)', true, 'substitution kept as written'],
    ['echo ~/x', '~/x', false, '~/ is resolved later against $HOME'],
    ['echo ~root/x', '~root/x', true, '~user depends on the user database'],
    ['echo "a\\\nb"', 'ab', false, 'line continuation inside double quotes'],
    ["echo $'a\\tb'", 'a\tb', false, 'ANSI-C tab'],
    ['echo $"hello"', 'hello', false, 'locale string reads like a double-quoted string'],
  ])('%j → %j (dynamic %s; %s)', (line, text, dynamic) => {
    const w = words(line)[1];
    expect(w?.text).toBe(text);
    expect(w?.dynamic).toBe(dynamic);
  });

  it.each([
    ['ls *.ts', true, false, 'unquoted star'],
    ['ls "*.ts"', false, false, 'quoted star is text'],
    ['ls \\*.ts', false, false, 'escaped star is text'],
    ['ls file?.txt', true, false, 'question mark'],
    ['ls [ab].txt', true, false, 'bracket class'],
    ["ls '{a,b}'", false, false, 'quoted braces'],
    ['ls a{b}c', false, false, 'a brace without , or .. is text'],
  ])('%j hasGlob %s brace %s (%s)', (line, glob, brace) => {
    const w = words(line)[1];
    expect(w?.hasGlob).toBe(glob);
    expect(w?.braceExpansion === true).toBe(brace);
  });

  it('records quoted and raw', () => {
    expect(words("echo 'a b'")[1]).toEqual({
      text: 'a b',
      raw: "'a b'",
      dynamic: false,
      quoted: true,
      hasGlob: false,
    });
    expect(words('echo plain')[1]).toEqual({
      text: 'plain',
      raw: 'plain',
      dynamic: false,
      quoted: false,
      hasGlob: false,
    });
  });
});

describe('escape helpers', () => {
  it.each([
    ['\\n\\t\\\\', '\n\t\\', 'simple escapes'],
    ['\\x41\\x4a', 'AJ', 'hex'],
    ['\\101', 'A', 'octal'],
    ['\\u00e9\\U0001F600', 'é😀', 'unicode'],
    ['\\cA', '\x01', 'control-A'],
    ["\\'", "'", 'escaped single quote'],
    ['\\e[0m', '\x1b[0m', 'ESC'],
    ['\\q', '\\q', 'unknown escapes stay'],
    ['\\x', '\\x', '\\x without digits stays'],
  ])('decodeAnsiC(%j) = %j (%s)', (input, output) => {
    expect(decodeAnsiC(input)).toBe(output);
  });

  it('unescapes unquoted and double-quoted text like bash', () => {
    expect(unescapeUnquoted('a\\*b\\\nc')).toEqual({
      text: 'a*bc',
      mask: 'a\u0000bc',
      escaped: true,
      continuation: true,
    });
    expect(unescapeDouble('a\\b\\"c\\$d')).toEqual({ text: 'a\\b"c$d', continuation: false });
  });
});
