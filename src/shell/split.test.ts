import { beforeAll, describe, expect, it } from 'vitest';
import { PARSE_BUDGET } from './budget.js';
import { initShellParser } from './parser.js';
import { parseAndSplit, parseAndSplitAsync } from './split.js';
import type { SimpleCommand } from './types.js';

beforeAll(async () => {
  await initShellParser();
});

const argvs = (command: string) => parseAndSplit(command).commands.map((c) => c.argv.map((w) => w.text));

describe('parseAndSplit: splitting at operators and into nested bodies', () => {
  it.each([
    ['ls -la', [['ls', '-la']], 'one simple command'],
    ['a; b', [['a'], ['b']], '; separates'],
    ['a && b || c', [['a'], ['b'], ['c']], '&& and || separate'],
    ['a | b |& c', [['a'], ['b'], ['c']], 'pipes separate'],
    ['a & b', [['a'], ['b']], '& separates'],
    ['a\nb', [['a'], ['b']], 'a newline separates'],
    ['(a; b)', [['a'], ['b']], 'subshell members'],
    ['{ a; b; }', [['a'], ['b']], 'group members'],
    [
      'echo $(rm -rf x)',
      [
        ['rm', '-rf', 'x'],
        ['echo', '$(rm -rf x)'],
      ],
      '$() body runs before the command',
    ],
    ['echo `id`', [['id'], ['echo', '`id`']], 'backtick body'],
    [
      'diff <(ls a) >(wc -l)',
      [
        ['ls', 'a'],
        ['wc', '-l'],
        ['diff', '<(ls a)', '>(wc -l)'],
      ],
      'process substitution bodies',
    ],
    ['echo "x $(id) y"', [['id'], ['echo', 'x $(id) y']], '$() inside double quotes'],
    ["echo '$(id)'", [['echo', '$(id)']], '$() inside single quotes is data'],
    ['X=$(id) ls', [['id'], ['ls']], 'substitution in an assignment value'],
    ['cat > "$(mktemp)"', [['mktemp'], ['cat']], 'substitution in a redirect target'],
    ['cat <<EOF\n$(id)\nEOF', [['id'], ['cat']], 'substitution in an unquoted heredoc'],
    ["cat <<'EOF'\n$(id)\nEOF", [['cat']], 'quoted heredoc delimiter: body is data'],
    ['if a; then b; else c; fi', [['a'], ['b'], ['c']], 'if branches'],
    ['while a; do b; done', [['a'], ['b']], 'while body'],
    ['for f in $(ls); do rm $f; done', [['ls'], ['rm', '$f']], 'for list substitution and body'],
    ['case $x in a) b;; *) c;; esac', [['b'], ['c']], 'case bodies'],
    ['f() { rm -rf x; }', [['rm', '-rf', 'x']], 'function body'],
    ["sh -c 'a; b'", [['sh', '-c', 'a; b'], ['a'], ['b']], 'sh -c script is re-parsed'],
    [
      'bash -lc "git push --force"',
      [
        ['bash', '-lc', 'git push --force'],
        ['git', 'push', '--force'],
      ],
      'bundled -lc',
    ],
    [
      'eval "git push origin main"',
      [
        ['eval', 'git push origin main'],
        ['git', 'push', 'origin', 'main'],
      ],
      'eval script',
    ],
    ['bash <<EOF\nrm -rf x\nEOF', [['bash'], ['rm', '-rf', 'x']], 'heredoc fed to a shell'],
    ['bash <<< "rm x"', [['bash'], ['rm', 'x']], 'here-string fed to a shell'],
    [
      'cat <<EOF | sh\nrm -rf x\nEOF',
      [['cat'], ['sh'], ['rm', '-rf', 'x']],
      'heredoc piped through cat into a shell',
    ],
    [
      "echo 'rm -rf x' | bash",
      [['echo', 'rm -rf x'], ['bash'], ['rm', '-rf', 'x']],
      'static echo piped into a shell',
    ],
    ['xargs rm -f', [['rm', '-f']], 'xargs stripped'],
    [
      'find . -exec rm {} \\;',
      [
        ['find', '.', '-exec', 'rm', '{}', ';'],
        ['rm', '{}'],
      ],
      'find -exec launches rm',
    ],
    [
      "find . -name '*.ts' -exec grep -l TODO {} + -o -exec sh -c id \\;",
      [
        [
          'find',
          '.',
          '-name',
          '*.ts',
          '-exec',
          'grep',
          '-l',
          'TODO',
          '{}',
          '+',
          '-o',
          '-exec',
          'sh',
          '-c',
          'id',
          ';',
        ],
        ['grep', '-l', 'TODO', '{}'],
        ['sh', '-c', 'id'],
        ['id'],
      ],
      'two -exec clauses, the second a shell',
    ],
    [
      'watch -n 1 "ls; rm x"',
      [['watch', '-n', '1', 'ls; rm x'], ['ls'], ['rm', 'x']],
      'watch runs its arguments through sh -c',
    ],
    [
      "env -S 'rm -rf x'",
      [
        ['env', '-S', 'rm -rf x'],
        ['rm', '-rf', 'x'],
      ],
      'env -S splits its string',
    ],
    [
      "flock /tmp/l -c 'rm x'",
      [
        ['flock', '/tmp/l', '-c', 'rm x'],
        ['rm', 'x'],
      ],
      'flock -c runs a shell string',
    ],
  ])('%j', (command, expected, _why) => {
    expect(argvs(command)).toEqual(expected);
  });
});

describe('commands without a program word, declarations and pseudo-commands', () => {
  it.each([
    ['A=1', [], [['A', '1', false]], 'a standalone assignment has an empty argv'],
    ['PATH=/tmp/x', [], [['PATH', '/tmp/x', true]], 'a standalone assignment of a dangerous name'],
    ['> out.txt', [], [], 'a bare redirect (truncates the file) has an empty argv'],
    [
      'export LD_PRELOAD=./x.so B',
      ['export', 'LD_PRELOAD=./x.so', 'B'],
      [['LD_PRELOAD', './x.so', true]],
      'export words and their assignments',
    ],
    ['local x=$(id)', ['local', 'x=$(id)'], [['x', '$(id)', false]], 'local with a substitution'],
    ['[[ -f x && -d y ]]', ['[[', '-f', 'x', '&&', '-d', 'y', ']]'], [], '[[ ]] as words'],
    ['! grep -q x f', ['grep', '-q', 'x', 'f'], [], 'negation is transparent'],
  ])('%j', (command, argv, assignments, _why) => {
    const cmd = parseAndSplit(command).commands.find((c) => c.via === 'top');
    expect(cmd?.argv.map((w) => w.text)).toEqual(argv);
    expect(cmd?.assignments.map((a) => [a.name, a.value, a.dangerous])).toEqual(assignments);
  });

  it('$(< file) is modelled as cat reading the file', () => {
    const [inner] = parseAndSplit('echo "$(< notes.txt)"').commands;
    expect(inner?.argv.map((w) => w.text)).toEqual(['cat']);
    expect(inner?.redirects.map((r) => `${r.op}${r.target.text}`)).toEqual(['<notes.txt']);
    expect(inner?.via).toBe('$()');
  });

  it('records heredoc bodies and whether they expand', () => {
    const [a] = parseAndSplit('cat <<EOF\nx $y\nEOF').commands;
    expect(a?.redirects[0]).toMatchObject({ op: '<<', heredocBody: 'x $y\n', bodyExpands: true });
    const [b] = parseAndSplit("cat <<-'EOF'\n\tx $y\nEOF").commands;
    expect(b?.redirects[0]).toMatchObject({
      op: '<<-',
      bodyExpands: false,
      target: expect.objectContaining({ text: 'EOF' }),
    });
  });

  it('records the nested scripts it parsed, with their depth', () => {
    const r = parseAndSplit(`sh -c "bash -c 'rm x'"`);
    expect(r.scripts?.map((s) => [s.via, s.text, s.depth])).toEqual([
      ['sh -c', "bash -c 'rm x'", 1],
      ['sh -c', 'rm x', 2],
    ]);
    expect(r.commands.map((c) => [c.argv[0]?.text, c.depth])).toEqual([
      ['sh', 0],
      ['bash', 1],
      ['rm', 2],
    ]);
  });

  it('fails closed past the nested-script depth limit', () => {
    let command = 'id';
    for (let i = 0; i < 10; i++) command = `sh -c ${JSON.stringify(command)}`;
    const r = parseAndSplit(command);
    expect(r.ok).toBe(false);
    expect(r.problems.join(' ')).toMatch(/nested more than/);
  });
});

describe('connectors, subshells and offsets', () => {
  const pick = (c: SimpleCommand) => [c.argv.map((w) => w.text).join(' '), c.connector, c.inSubshell, c.via];
  it.each([
    [
      'a && b || c',
      [
        ['a', '', false, 'top'],
        ['b', '&&', false, 'top'],
        ['c', '||', false, 'top'],
      ],
      'list connectors',
    ],
    [
      'a | b',
      [
        ['a', '', true, 'pipeline'],
        ['b', '|', true, 'pipeline'],
      ],
      'pipeline stages run in subshells',
    ],
    [
      'a & b',
      [
        ['a', '', true, 'top'],
        ['b', '&', false, 'top'],
      ],
      'a background job runs in a subshell',
    ],
    [
      'a\nb',
      [
        ['a', '', false, 'top'],
        ['b', '\n', false, 'top'],
      ],
      'newline connector',
    ],
    [
      'cd x; (cd y)',
      [
        ['cd x', '', false, 'top'],
        ['cd y', ';', true, 'subshell'],
      ],
      'subshell flag for cd tracking',
    ],
    [
      'echo $(cd y)',
      [
        ['cd y', '', true, '$()'],
        ['echo $(cd y)', '', false, 'top'],
      ],
      'substitution bodies are subshells',
    ],
  ])('%j', (command, expected, _why) => {
    expect(parseAndSplit(command).commands.map(pick)).toEqual(expected);
  });

  it('records source offsets of each command', () => {
    const r = parseAndSplit('ls a && rm -rf b');
    expect(r.commands.map((c) => [c.start, c.end, c.raw])).toEqual([
      [0, 4, 'ls a'],
      [8, 16, 'rm -rf b'],
    ]);
  });
});

describe('redirect re-attribution (docs/dependencies.md "Bash parsing")', () => {
  it('rm 2>/dev/null -rf / is rm -rf / with a redirect to /dev/null', () => {
    const [c] = parseAndSplit('rm 2>/dev/null -rf /').commands;
    expect(c?.argv.map((w) => w.text)).toEqual(['rm', '-rf', '/']);
    expect(c?.redirects).toEqual([
      { op: '>', fd: 2, target: expect.objectContaining({ text: '/dev/null' }) },
    ]);
  });

  it('a trailing redirect of a list belongs to its last command', () => {
    const cmds = parseAndSplit('a && b | c > /dev/null').commands;
    expect(cmds.map((c) => c.redirects.map((r) => r.target.text))).toEqual([[], [], ['/dev/null']]);
  });

  it('redirects of a group apply to every command in it', () => {
    const cmds = parseAndSplit('{ a; b; } > out').commands;
    expect(cmds.map((c) => c.redirects.map((r) => `${r.op}${r.target.text}`))).toEqual([['>out'], ['>out']]);
  });

  it('words after a heredoc redirect stay with the command', () => {
    const cmds = parseAndSplit('cat <<EOF > out.txt\nhi\nEOF').commands;
    expect(cmds).toHaveLength(1);
    expect(cmds[0]?.redirects.map((r) => r.op)).toEqual(['<<', '>']);
    expect(cmds[0]?.redirects[0]?.heredocBody).toBe('hi\n');
  });

  it('a heredoc followed by a pipe: the later stages are separate commands', () => {
    const r = parseAndSplit('cat <<EOF | grep x\nhi\nEOF');
    expect(r.commands.map((c) => [c.argv[0]?.text, c.connector, c.inSubshell])).toEqual([
      ['cat', '', true],
      ['grep', '|', true],
    ]);
  });
});

describe('fail closed', () => {
  it.each([
    ['echo "unterminated', 'unterminated double quote'],
    ['ls &&', 'trailing operator'],
    ['echo $(', 'unclosed substitution (MISSING node)'],
    ['if true; then ls', 'if without fi'],
    ['echo x; fi', 'stray fi accepted as a command name by tree-sitter'],
    ['coproc foo { ls; }', 'coproc is misparsed'],
    ["sh -c 'echo \"x'", 'the sh -c script does not parse'],
    ['cat <<<x >y <<<z', 'here-string after another redirect (tree-sitter ERROR)'],
  ])('%j is not ok (%s)', (command) => {
    const r = parseAndSplit(command);
    expect(r.ok).toBe(false);
    expect(r.problems.length).toBeGreaterThan(0);
  });

  it('rejects input over the size cap', () => {
    const r = parseAndSplit(`echo ${'a'.repeat(70_000)}`);
    expect(r.ok).toBe(false);
    expect(r.problems[0]).toMatch(/not analysed/);
  });

  it('still returns the commands it could read when the parse failed (deny rules keep matching)', () => {
    const r = parseAndSplit('rm -rf build; echo "oops');
    expect(r.ok).toBe(false);
    expect(r.commands[0]?.argv.map((w) => w.text)).toEqual(['rm', '-rf', 'build']);
  });

  it('a long && chain (under the node cap) splits whole without overflowing the stack', () => {
    // `t && ` is five nodes (list, command, command_name, word, `&&`): a sixth of the cap in parts
    const parts = Math.floor(PARSE_BUDGET.maxNodes / 6);
    const command = Array.from({ length: parts }, (_, i) => (i === parts - 1 ? 'last' : 't')).join(' && ');
    const r = parseAndSplit(command);
    expect(r.ok).toBe(true);
    expect(r.commands).toHaveLength(parts);
    expect(r.commands[parts - 1]?.argv[0]?.text).toBe('last');
    expect(r.commands[parts - 1]?.connector).toBe('&&');
  });

  it('a 10,000-part && chain stops at the work caps (docs/analysis-budget.md) with a reason, never a throw', () => {
    const command = Array.from({ length: 10_000 }, (_, i) => (i === 9_999 ? 'last' : 't')).join(' && ');
    const r = parseAndSplit(command);
    expect(r.ok).toBe(false);
    expect(r.problems.join(' ')).toMatch(/cap of one parse/);
    expect(r.commands.length).toBeLessThan(10_000);
  });

  it('deeply nested substitutions do not overflow the stack', () => {
    let command = 'id';
    for (let i = 0; i < 300; i++) command = `echo $(${command})`;
    const r = parseAndSplit(command);
    expect(r.commands).toHaveLength(301);
  });

  it('deeply nested subshells and groups do not overflow the stack', () => {
    // seven nodes a level (`(`, `{`, `;`, `}`, `)`, subshell, group): as deep as the caps allow
    const levels = Math.floor(PARSE_BUDGET.maxNodes / 8);
    const command = `${'( { '.repeat(levels)}rm x${' ; } )'.repeat(levels)}`;
    const r = parseAndSplit(command);
    expect(r.commands.map((c) => c.argv.map((w) => w.text).join(' '))).toEqual(['rm x']);
    expect(r.commands[0]?.inSubshell).toBe(true);
  });

  it('parseAndSplitAsync initialises the parser first', async () => {
    const r = await parseAndSplitAsync('ls');
    expect(r.commands).toHaveLength(1);
  });
});
