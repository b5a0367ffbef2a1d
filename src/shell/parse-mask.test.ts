import { beforeAll, describe, expect, it } from 'vitest';
import { maskForParse, parseBashTolerant } from './parse-mask.js';
import { initShellParser, parseBash, type SyntaxNode } from './parser.js';
import { parseAndSplit } from './split.js';
import { treeShape } from './testing-helpers.js';

beforeAll(async () => {
  await initShellParser();
});

describe('maskForParse: same-length rewrites for heredocs tree-sitter rejects', () => {
  it.each([
    ['cat <<"E"OF\nx\nEOF', 'cat <<"EOF"\nx\nEOF', 'delimiter quoted in part'],
    ["cat <<E'O'F\nx\nEOF", "cat <<'EOF'\nx\nEOF", 'single quotes in the middle of the delimiter'],
    ['cat <<EOF\n\\$(id)\nEOF', 'cat <<EOF\nx$(id)\nEOF', 'a body starting with \\$'],
    ['cat <<-EOF\n\t\\`id`\n\tEOF', 'cat <<-EOF\n\tx`id`\n\tEOF', '<<- body starting with a tab and \\`'],
    ['cat <<"EOF"\nx\nEOF', undefined, 'a fully quoted delimiter needs no rewrite'],
    ['ls -la', undefined, 'no heredoc'],
  ] as [string, string | undefined, string][])('%j → %j (%s)', (command, expected) => {
    const masked = maskForParse(command);
    expect(masked).toBe(expected);
    if (masked !== undefined) expect(masked.length).toBe(command.length);
  });
});

describe('heredocs bash accepts parse, and read as written', () => {
  it.each([
    ['cat <<"E"OF\n$(id)\nEOF', 'EOF', false, 'partly quoted delimiter: body is data'],
    ['cat <<EOF\n\\$(id)\nEOF', 'EOF', true, 'an escaped $( at the start of the body is literal'],
  ])('%j parses (%s)', (command, delimiter, expands) => {
    const r = parseAndSplit(command);
    expect(r.ok).toBe(true);
    expect(r.commands.map((c) => c.argv.map((w) => w.text))).toEqual([['cat']]);
    const redirect = r.commands[0]?.redirects[0];
    expect(redirect?.target.text).toBe(delimiter);
    expect(redirect?.heredocBody).toBe(command.includes('\\$') ? '\\$(id)\n' : '$(id)\n');
    expect(redirect?.bodyExpands).toBe(expands);
    expect((r.notes ?? []).some((n) => n.kind === 'command-substitution')).toBe(false);
  });

  it('an escaped $( at the start of the body does not hide a later backtick', () => {
    const r = parseAndSplit('cat <<EOF\n\\$(id) `whoami`\nEOF');
    expect(r.commands.map((c) => c.argv.map((w) => w.text))).toContainEqual(['whoami']);
  });

  it('the retry also applies to re-parsed scripts (bash -c with a partly quoted heredoc delimiter)', () => {
    const r = parseAndSplit('bash -c \'cat <<"E"OF\n$(id)\nEOF\'');
    expect(r.ok).toBe(true);
    expect(r.commands.map((c) => c.argv[0]?.text)).toEqual(['bash', 'cat']);
  });

  it('echo \\$(id) stays a parse failure: bash rejects it too ("syntax error near unexpected token")', () => {
    expect(parseAndSplit('echo \\$(id)').ok).toBe(false);
  });
});

/**
 * The straightforward `[ … ]` rewrite, for comparison: the whole tree of the text (or of its
 * heredoc rewrite when that parses and the text does not), then, when it has test commands, the
 * parse of the text with each of their `[` replaced by `x`.
 */
function referenceParse(source: string): string[] {
  let text = source;
  let tree = parseBash(source);
  if (tree.hasError) {
    const masked = maskForParse(source);
    const retry = masked === undefined ? undefined : parseBash(masked);
    if (retry && !retry.hasError) {
      tree = retry;
      text = masked as string;
    }
  }
  const at: number[] = [];
  const stack = [tree.root];
  while (stack.length > 0) {
    const n = stack.pop() as SyntaxNode;
    if (n.type === 'test_command' && n.children[0]?.type === '[') at.push(n.children[0].start);
    stack.push(...n.children);
  }
  if (at.length === 0) return [String(tree.hasError), ...treeShape(tree.root)];
  const chars = text.split('');
  for (const i of at) chars[i] = 'x';
  const masked = parseBash(chars.join(''));
  return [String(masked.hasError), ...treeShape(masked.root)];
}

describe('parseBashTolerant: the [ … ] rewrite gives the tree of the straightforward rewrite', () => {
  it.each([
    ['[ -n "$TOKEN" ] && echo yes', 'a test command'],
    ['[ -n "$A" ] && [ -z "$B" ] || [ a \\> b ]', 'several test commands in one list'],
    ['if [ "$x" = 1 ]; then [ -f y ] && ls; fi', 'test commands inside a compound command'],
    ['echo [ a ]', 'a [ then a blank, but an argument: no test command'],
    ['ls [ab]* && echo "[ x ]"', 'a glob and a quoted bracket: no test command'],
    ['[[ -n $x ]] && [ -d d ]', 'a [[ keyword beside a [ test command'],
    ['x=( [ a ] ) ; [ 1 ', 'an unfinished test command (an error in the tree)'],
    ['cat <<"E"OF\n[ x ]\nEOF\n[ -e f ]', 'a heredoc rewrite and a test command after it'],
    ['ls -la', 'no bracket at all'],
  ])('%j (%s)', (source) => {
    const got = parseBashTolerant(source);
    expect(got.source).toBe(source);
    expect([String(got.hasError), ...treeShape(got.root)]).toEqual(referenceParse(source));
  });
});
