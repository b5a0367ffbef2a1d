/**
 * The literal-command gate: a command line with no shell syntax at all gets its syntax tree without
 * tree-sitter, so a process whose only Bash decision is `git status` never loads the grammar
 * (docs/startup.md, "The literal-command gate").
 *
 * Admitted: one simple command of 1–64 plain words separated by single spaces, at most
 * `LITERAL_MAX_CHARS` characters, no leading or trailing whitespace, every character one of
 * `A–Z a–z 0–9 _ - . /`, in arguments also `, : +` (not `%` or `@` anywhere, and not those three in the
 * first word: tree-sitter-bash reads a line starting `a%b` or `b@:`, or an argument `-0@X`, as an error), and a first word that tree-sitter-bash does not read as a
 * keyword or a declaration (`if`, `for`, `export`, `local`, `unset` …). Nothing else: no quotes, `$`,
 * backslash, globs, braces, `~`, `#`, `=`, `!`, redirections, operators, tabs or newlines.
 *
 * The tree is exactly what parser.ts copies out of tree-sitter-bash 0.25.1 for such a line:
 * `program → command → command_name(@name) → word`, then one node per argument (`@argument`),
 * each a `word`, or a `number` when the whole word matches the grammar's number token
 * (`-?(0x)?[0-9]+`). literal-command.test.ts proves it node for node against tree-sitter over the
 * shared command corpora and generated lines, and proves the analysis, decision and reason equal.
 */
import type { ParsedBash, SyntaxNode } from './parser.js';

/**
 * Longest line the gate admits (UTF-16 units): the parse cap (`MAX_PARSE_INPUT_CHARS` in parser.ts,
 * not imported: parser.ts imports this file). A literal line's tree is linear to build at any
 * length, so a long plain line (a long word, a long argument list) costs the same per KiB as a short
 * one instead of switching to tree-sitter past a smaller limit (docs/analysis-budget.md).
 */
export const LITERAL_MAX_CHARS = 64 * 1024;

const MAX_WORDS = 64;
const LITERAL_LINE = /^[A-Za-z0-9_\-./]+(?: [A-Za-z0-9_\-./,:+]+)*$/;
const NUMBER = /^-?(?:0x)?[0-9]+$/;

/**
 * First words tree-sitter-bash parses as something other than a plain command name: reserved words
 * (an ERROR tree or a compound command) and the declaration/unset commands (their own node types).
 * `do`, `time` and `coproc` parse as plain words and need no entry, but listing more only sends
 * more lines to tree-sitter, which is always correct.
 */
const NOT_A_COMMAND_NAME = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'case',
  'esac',
  'for',
  'select',
  'while',
  'until',
  'do',
  'done',
  'in',
  'function',
  'time',
  'coproc',
  'declare',
  'typeset',
  'export',
  'readonly',
  'local',
  'unset',
  'unsetenv',
]);

let gateOn = true;

/** Turns the gate off (tests compare both paths); returns the previous setting. */
export function setLiteralGate(on: boolean): boolean {
  const was = gateOn;
  gateOn = on;
  return was;
}

/** True when the gate is on (the default). */
export function literalGateOn(): boolean {
  return gateOn;
}

/**
 * True when `source` is a literal command line as described above, and every word is one too,
 * so any script a program of the line launches (`sh -c ls`, `xargs ls`) is made of literal words.
 */
export function isLiteralCommand(source: string): boolean {
  if (source.length === 0 || source.length > LITERAL_MAX_CHARS || !LITERAL_LINE.test(source)) return false;
  const words = source.split(' ');
  if (words.length > MAX_WORDS) return false;
  return !words.some((w) => NOT_A_COMMAND_NAME.has(w));
}

/** True when the gate is on and admits `source` (the grammar is then not needed for its tree). */
export function admitsLiteral(source: string): boolean {
  return gateOn && isLiteralCommand(source);
}

/**
 * The syntax tree tree-sitter-bash gives a literal command line, or undefined when the line is not
 * literal (or the gate is off): the caller then parses it with tree-sitter.
 */
export function literalCommandTree(source: string): ParsedBash | undefined {
  if (!admitsLiteral(source)) return undefined;
  const node = (
    type: string,
    field: string | null,
    start: number,
    end: number,
    parent: SyntaxNode | null,
  ) => {
    const n: SyntaxNode = { type, named: true, missing: false, field, start, end, children: [], parent };
    parent?.children.push(n);
    return n;
  };
  const root = node('program', null, 0, source.length, null);
  const command = node('command', null, 0, source.length, root);
  let start = 0;
  let count = 2;
  for (const word of source.split(' ')) {
    const end = start + word.length;
    const type = NUMBER.test(word) ? 'number' : 'word';
    if (start === 0) {
      const name = node('command_name', 'name', 0, end, command);
      node(type, null, 0, end, name);
      count += 2;
    } else {
      node(type, 'argument', start, end, command);
      count++;
    }
    start = end + 1;
  }
  return { source, root, hasError: false, nodeCount: count };
}
