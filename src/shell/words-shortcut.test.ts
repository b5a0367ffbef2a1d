/**
 * The plain-word shortcut of `readWord` (words.ts: an unquoted leaf without a backslash is its own
 * text) gives exactly the Word, and the same notes, problems, spans and nested bodies, as the full
 * word walk: on hand-picked leaves (tildes, globs, braces, escapes), on every leaf of every tldr
 * command and real agent Bash call, and on the generated worst-case shapes.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedFile } from '../testing/shared-data.js';
import { WORST_CASE_GENERATORS } from '../testing/worst-case-commands.js';
import { initShellParser, parseBash, type SyntaxNode } from './parser.js';
import { readWord, readWordByWalk, type WordSink } from './words.js';

beforeAll(async () => {
  await initShellParser();
});

const LEAF_TYPES = new Set([
  'word',
  'number',
  'variable_name',
  'special_variable_name',
  'file_descriptor',
  'regex',
  'extglob_pattern',
  'test_operator',
  'heredoc_start',
]);

function freshSink(): WordSink {
  return { nested: [], notes: [], problems: [], spans: [], span: (s, e) => [s, e], depth: 0 };
}

/** Every node of `command` whose type the shortcut may take, with its word both ways. */
function differences(command: string): string[] {
  const parsed = parseBash(command);
  const out: string[] = [];
  const stack: SyntaxNode[] = [parsed.root];
  while (stack.length > 0) {
    const n = stack.pop() as SyntaxNode;
    for (const c of n.children) stack.push(c);
    if (!LEAF_TYPES.has(n.type)) continue;
    const a = freshSink();
    const b = freshSink();
    const short = { word: readWord(command, n, a), sink: a };
    const walked = { word: readWordByWalk(command, n, b), sink: b };
    if (JSON.stringify(short) !== JSON.stringify(walked))
      out.push(`${JSON.stringify(command.slice(n.start, n.end))} in ${JSON.stringify(command.slice(0, 80))}`);
  }
  return out;
}

function corpus(file: string | undefined, pick: (row: Record<string, unknown>) => unknown): string[] {
  if (!file) return [];
  const out: string[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const c = pick(JSON.parse(line) as Record<string, unknown>);
    if (typeof c === 'string' && c.length <= 65_536) out.push(c);
  }
  return out;
}

describe('the plain-word shortcut reads words as the word walk does', () => {
  it.each([
    ['ls -la file.txt', 'plain words'],
    ['cd ~ && ls ~/x ~user ~+ ~- ~/', 'tildes: $HOME, a user, the cwd, OLDPWD'],
    ['rm *.log a?b [ab]c x[ y]', 'globs, and an unclosed bracket that is no glob'],
    ['touch {a,b}c {1..3} {x} a{b', 'brace expansion and braces that expand nothing'],
    ['echo a\\ b \\rm x\\\ny', 'backslashes take the walk'],
    ['exec 3>&1 2>/dev/null; echo $1 $# ${x} 42', 'descriptors, numbers, special variables'],
    ['[[ $x =~ ^a.*$ ]] && [[ -f x ]]', 'regex and test operators'],
    ['cat <<EOF\nbody\nEOF\n', 'a heredoc start'],
    ['shopt -s extglob; ls @(a|b) !(x)', 'extglob patterns'],
    ['echo é😀 ü', 'non-ASCII text'],
  ])('%j (%s)', (command) => {
    expect(differences(command)).toEqual([]);
  });

  it.each(WORST_CASE_GENERATORS.map((g) => [g.name, g] as const))('on the %s shape at 4 KiB', (_name, g) => {
    expect(differences(g.build(4096))).toEqual([]);
  });

  const tldr = sharedFile('data/real/tldr-commands.jsonl');
  it.skipIf(!tldr)('on every tldr command', () => {
    const commands = corpus(tldr, (r) => r.command);
    expect(commands.length).toBeGreaterThan(20_000);
    expect(commands.flatMap(differences)).toEqual([]);
  });

  const agent = sharedFile('data/real/agent-tool-calls.jsonl');
  it.skipIf(!agent)('on every Bash call of the real agent sessions', () => {
    const commands = corpus(agent, (r) =>
      ['Bash', 'bash', 'execute_bash'].includes(r.tool as string)
        ? (r.input as { command?: unknown } | undefined)?.command
        : undefined,
    );
    expect(commands.length).toBeGreaterThan(1000);
    expect(commands.flatMap(differences)).toEqual([]);
  });
});
