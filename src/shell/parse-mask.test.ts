import { beforeAll, describe, expect, it } from 'vitest';
import { maskForParse } from './parse-mask.js';
import { initShellParser } from './parser.js';
import { parseAndSplit } from './split.js';

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
