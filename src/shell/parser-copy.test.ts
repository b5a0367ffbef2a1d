/**
 * The fast tree copy (direct calls into web-tree-sitter's wasm module, parser-copy.ts) gives exactly
 * the tree the public cursor API gives: on every tldr command, the generated worst-case shapes, and
 * trees with ERROR and MISSING nodes. If an upgrade of web-tree-sitter changed its module, this
 * fails (or the copier falls back to the portable path, which the first test shows).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedFile } from '../testing/shared-data.js';
import { WORST_CASE_GENERATORS } from '../testing/worst-case-commands.js';
import { admitsLiteral } from './literal-command.js';
import { initShellParser, parseBash, parserCopiesFast, type SyntaxNode } from './parser.js';
import { treeShape } from './testing-helpers.js';

beforeAll(async () => {
  await initShellParser();
});

const shape = treeShape;

function same(command: string): void {
  const fast = parseBash(command, 'fast');
  const portable = parseBash(command, 'portable');
  expect(fast.hasError).toBe(portable.hasError);
  expect(fast.nodeCount).toBe(portable.nodeCount);
  expect(shape(fast.root)).toEqual(shape(portable.root));
}

describe('fast and portable tree copies agree', () => {
  it('the installed web-tree-sitter exposes what the fast copy needs', () => {
    expect(parserCopiesFast()).toBe(true);
  });

  it('on commands with errors, missing nodes, fields, heredocs and non-ASCII text', () => {
    for (const c of [
      'ls -la | grep x && echo "$(date)" > /tmp/f',
      'echo $(',
      'if true; then echo',
      'cat <<EOF\nhello $x\nEOF\n',
      'for f in *; do rm "$f"; done',
      'echo é😀 "ü" $((1+2)) ${x:-y}',
      'a=(1 2 3); echo ${a[@]}',
      '[[ -f x ]] || { echo no; exit 1; }',
    ])
      same(c);
  });

  it.each(WORST_CASE_GENERATORS.map((g) => [g.name, g] as const))('on the %s shape at 4 KiB', (_name, g) => {
    same(g.build(4096));
  });

  const file = sharedFile('data/real/tldr-commands.jsonl');
  it.skipIf(!file)('on every tldr command', () => {
    const commands = readFileSync(file as string, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => (JSON.parse(l) as { command: string }).command);
    expect(commands.length).toBeGreaterThan(20_000);
    const mismatches: string[] = [];
    for (const c of commands) {
      const fast = parseBash(c, 'fast');
      const portable = parseBash(c, 'portable');
      if (shape(fast.root).join('\n') !== shape(portable.root).join('\n')) mismatches.push(c);
    }
    expect(mismatches).toEqual([]);
  });
});

/** The outermost nodes of `types` in pre-order (what a copy restricted to them keeps). */
function outermost(root: SyntaxNode, types: ReadonlySet<string>): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const stack = [...root.children].reverse();
  while (stack.length > 0) {
    const n = stack.pop() as SyntaxNode;
    if (types.has(n.type)) out.push(n);
    else for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as SyntaxNode);
  }
  return out;
}

const KEPT = new Set(['heredoc_redirect', 'test_command']);

/** False when the restricted copy of `command` is exactly the kept subtrees of its whole copy. */
function restrictedDiffers(command: string): boolean {
  const whole = parseBash(command);
  const part = parseBash(command, 'fast', KEPT);
  // A literal line (literal-command.ts) gets its whole tree without tree-sitter, restricted or not.
  if (admitsLiteral(command)) return shape(part.root).join('\n') !== shape(whole.root).join('\n');
  if (whole.cut) return part.root.children.length !== whole.root.children.length;
  const expected = outermost(whole.root, KEPT).flatMap(shape);
  return (
    part.hasError !== whole.hasError ||
    part.nodeCount !== whole.nodeCount ||
    part.root.type !== whole.root.type ||
    part.root.children.some((c) => c.parent !== part.root) ||
    part.root.children.flatMap(shape).join('\n') !== expected.join('\n')
  );
}

describe('a copy restricted to some node types keeps exactly their subtrees', () => {
  it('on heredocs, test commands, nesting and errors', () => {
    const commands = [
      'cat <<EOF\nhello $x\nEOF\n',
      'cat <<A <<B\na\nA\nb\nB\n[ -f x ] && cat <<-C\n\tc\n\tC\n',
      'echo $(cat <<E\n$( [ a ] )\nE\n)',
      '[ -n "$(cat <<X\nx\nX\n)" ]',
      'cat <<EOF',
      'if [ ; then',
      'echo $(',
      'ls -la',
    ];
    expect(commands.filter(restrictedDiffers)).toEqual([]);
  });

  it.each(WORST_CASE_GENERATORS.map((g) => [g.name, g] as const))('on the %s shape at 4 KiB', (_name, g) => {
    expect(restrictedDiffers(g.build(4096))).toBe(false);
  });

  const file = sharedFile('data/real/tldr-commands.jsonl');
  it.skipIf(!file)('on every tldr command', () => {
    const commands = readFileSync(file as string, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => (JSON.parse(l) as { command: string }).command);
    expect(commands.filter(restrictedDiffers)).toEqual([]);
  });
});

const SUBTREES = new Set(['test_command']);
const SHALLOW = new Set(['heredoc_redirect']);

/**
 * What a copy restricted to whole `test_command` subtrees and shallow `heredoc_redirect` nodes keeps,
 * built from the whole tree (the definition in parser-copy.ts `TreeCopier.copy`).
 */
function restrictedByDefinition(root: SyntaxNode): SyntaxNode[] {
  const kept: SyntaxNode[] = [];
  const visit = (n: SyntaxNode, holder: SyntaxNode | undefined): void => {
    if (SUBTREES.has(n.type)) {
      kept.push(n);
      holder?.children.push(n);
      return;
    }
    if (!holder && !SHALLOW.has(n.type)) {
      for (const c of n.children) visit(c, undefined);
      return;
    }
    const copy: SyntaxNode = { ...n, children: [] };
    holder?.children.push(copy);
    if (SHALLOW.has(n.type) && !holder) kept.push(copy);
    for (const c of n.children) visit(c, SHALLOW.has(n.type) ? copy : undefined);
  };
  for (const c of root.children) visit(c, undefined);
  return kept;
}

/** False when the shallow-restricted copy of `command` is what its definition keeps. */
function shallowDiffers(command: string): boolean {
  const whole = parseBash(command);
  const part = parseBash(command, 'fast', SUBTREES, SHALLOW);
  if (admitsLiteral(command)) return shape(part.root).join('\n') !== shape(whole.root).join('\n');
  if (whole.cut) return part.root.children.length !== whole.root.children.length;
  return (
    part.hasError !== whole.hasError ||
    part.nodeCount !== whole.nodeCount ||
    part.root.type !== whole.root.type ||
    part.root.children.some((c) => c.parent !== part.root) ||
    part.root.children.flatMap(shape).join('\n') !==
      restrictedByDefinition(whole.root).flatMap(shape).join('\n')
  );
}

describe('a copy that keeps heredoc_redirect nodes with their direct children only', () => {
  it.each([
    ['cat <<EOF\nhello $x $(id)\nEOF\n', 'a body with expansions: its subtree is not copied'],
    ['cat <<A <<B\na\nA\nb\nB\n[ -f x ] && cat <<-C\n\tc\n\tC\n', 'several heredocs and a test command'],
    ['cat <<E\n$( [ a ] )\nE\n', 'a test command inside a body is kept whole'],
    ['cat <<E && [ -f x ]\nbody\nE\n', 'a test command on the operator line'],
    ['echo $(cat <<E\n$(cat <<F\nf\nF\n)\nE\n)', 'a heredoc inside a substitution inside a heredoc'],
    ['cat <<EOF | grep x; ls\nbody\nEOF', 'a pipeline after the operator'],
    ['cat <<EOF', 'no body: an error tree'],
    ['ls -la', 'no heredoc at all'],
  ])('%j (%s)', (command) => {
    expect(shallowDiffers(command)).toBe(false);
  });

  it.each(WORST_CASE_GENERATORS.map((g) => [g.name, g] as const))('on the %s shape at 4 KiB', (_name, g) => {
    expect(shallowDiffers(g.build(4096))).toBe(false);
  });

  const file = sharedFile('data/real/tldr-commands.jsonl');
  it.skipIf(!file)('on every tldr command with <<', () => {
    const commands = readFileSync(file as string, 'utf8')
      .split('\n')
      .filter((l) => l.includes('<<'))
      .map((l) => (JSON.parse(l) as { command: string }).command);
    expect(commands.length).toBeGreaterThan(0);
    expect(commands.filter(shallowDiffers)).toEqual([]);
  });
});
