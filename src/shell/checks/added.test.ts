import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../parser.js';
import { parseAndSplit } from '../split.js';
import type { Detector } from './detector.js';
import {
  ADDED_DETECTORS,
  ALL_DETECTORS,
  DYNAMIC_COMMAND_WORD,
  EVAL_OR_SOURCE,
  EXECUTION_PRIMITIVE,
  PARAMETER_CODE_EVALUATION,
  PRIVILEGE_ESCALATION,
  runSecurityChecks,
  SHELL_SCRIPT_FROM_STDIN,
  UNICODE_DISPLAY_CONTROL,
  WRAPPER_CHANGES_DIRECTORY,
  ZSH_EQUALS_EXPANSION,
} from './index.js';

beforeAll(async () => {
  await initShellParser();
});

type Row = [command: string, fires: boolean, why: string];

function fires(detector: Detector, command: string): boolean {
  const found = detector.detect(command, parseAndSplit(command));
  for (const f of found) {
    expect(f.id).toBe(detector.id);
    expect(f.behavior).toBe('ask');
    expect(f.checkId).toBeUndefined();
  }
  return found.length > 0;
}

const TABLES: Array<[Detector, Row[]]> = [
  [
    DYNAMIC_COMMAND_WORD,
    [
      ['$cmd -rf x', true, 'the program is a variable'],
      ['$(echo rm) x', true, 'the program is a substitution'],
      ['/bin/r? x', true, 'the program is a glob'],
      ['/bin/{rm,true} x', true, 'the program comes from brace expansion'],
      ['"$EDITOR" notes.txt', true, 'a quoted variable is still computed'],
      ['ls "$dir"', false, 'a variable in an argument is not a finding'],
      ['/usr/bin/env ls', false, 'a static path'],
    ],
  ],
  [
    PARAMETER_CODE_EVALUATION,
    [
      ['echo ${x@P}', true, 'prompt expansion runs $( )'],
      ['echo "${arr[$i]}"', true, 'subscript evaluated as arithmetic'],
      ['echo $(( a[x] + 1 ))', true, 'arithmetic subscript'],
      ['echo ${!ref}', true, 'indirect expansion'],
      ['(( a[i]++ ))', true, 'arithmetic command with a subscript'],
      ['echo ${arr[0]}', false, 'literal index'],
      ['echo "${arr[@]}"', false, 'all elements'],
      ['echo ${x:-[default]}', false, 'brackets in a default value are not a subscript'],
      ['echo $((i+1))', false, 'plain arithmetic'],
      ['echo ${!prefix*}', false, 'names matching a prefix'],
    ],
  ],
  [
    EVAL_OR_SOURCE,
    [
      ['eval ls', true, 'eval evaluates its arguments'],
      ['source ./scripts/setup.sh', true, 'source runs a file'],
      ['. ~/.profile', true, 'dot-sourcing'],
      ["trap 'rm -rf x' EXIT", true, 'trap installs code for later'],
      ['enable -f ./x.so y', true, 'loads a builtin from a library'],
      ['hash -p /tmp/x ls', true, 'rebinds what ls runs'],
      ['trap - EXIT', false, 'resetting a trap'],
      ["alias ls='rm -rf x'", true, 'an alias changes what a later ls runs'],
      ['alias', false, 'listing aliases'],
      ['echo source', false, 'an argument'],
    ],
  ],
  [
    EXECUTION_PRIMITIVE,
    [
      ["git -c core.pager='sh -c id' log", true, 'git -c sets a pager'],
      ['git --git-dir=/tmp/evil/.git log', true, "another repository's config runs programs"],
      ["git rebase -x 'make test' main", true, 'rebase --exec'],
      ['rg --pre=./x.sh TODO src', true, 'rg preprocessor'],
      ['rg TOKEN src --pre exfil', true, 'rg --pre after operands'],
      ['sort --compress-prog=sh data.txt', true, 'abbreviated --compress-program'],
      ["tar -cf x.tar --to-command='sh -c id' src", true, 'tar --to-command'],
      ['tar -xIzstd -f x.tar', true, 'bundled tar -I'],
      ['zip -TT "sh -c id" x.zip a', true, 'zip test command'],
      ['split --filter="sh -c id" big.txt', true, 'split --filter'],
      ['sqlite3 db ".shell id"', true, 'sqlite3 dot-command'],
      ["ssh -o ProxyCommand='sh -c id' host", true, 'ssh ProxyCommand'],
      ['rsync -e "sh -c id" a b:', true, 'rsync remote shell'],
      ['npm exec -- cowsay hi', true, 'npm exec runs a package binary'],
      ['yarn dlx create-x', true, 'yarn dlx'],
      ['awk \'BEGIN{system("id")}\'', true, 'awk system()'],
      ['awk \'{ "date" | getline d }\' f', true, 'awk command pipe'],
      ["sed -n '1e id' README.md", true, 'sed e command'],
      ["sed 's/.*/id/e' notes.txt", true, 'sed s///e flag'],
      ["less '+!id' README.md", true, 'less startup shell command'],
      ["man -P 'sh -c id' ls", true, 'man pager'],
      ['find . -name x -exec rm {} +', true, 'find -exec'],
      ["echo x | xargs sh -c 'id'", true, 'xargs launches a shell'],
      ["rg -- '--pre' docs", false, 'after --, --pre is a pattern'],
      ['git log --oneline -5', false, 'read-only git'],
      ['sort -n -k2 data.txt', false, 'plain sort'],
      ["awk '{print $1}' data.csv", false, 'plain awk'],
      ["sed -n '1,5p' x", false, 'plain sed print'],
      ["sed 's/e/E/g' x", false, 'e as text inside s///'],
      ['tar -czf a.tgz src', false, 'plain tar'],
      ['rsync -av src/ dst/', false, 'plain rsync'],
      ['npm run build', false, 'npm run is not npm exec'],
      ['find . -name "*.ts"', false, 'find without exec primaries'],
      ['ls | xargs grep -n TODO', false, 'xargs launching a non-shell'],
    ],
  ],
  [
    PRIVILEGE_ESCALATION,
    [
      ['sudo ls', true, 'sudo wrapper'],
      ['/usr/bin/sudo id', true, 'path-qualified sudo'],
      ['doas rm x', true, 'doas'],
      ["su -c 'id'", true, 'su -c'],
      ['sudo -l', true, 'sudo without a command is still sudo'],
      ['pkexec id', true, 'pkexec'],
      ['ls', false, 'no privilege change'],
      ['echo sudo', false, 'an argument'],
    ],
  ],
  [
    WRAPPER_CHANGES_DIRECTORY,
    [
      ['env -C /etc cat passwd', true, 'env -C moves relative paths'],
      ['env --chdir=/etc cat passwd', true, 'long form'],
      ['sudo -D /tmp ls', true, 'sudo -D'],
      ['env FOO=1 ls', false, 'env with assignments only'],
    ],
  ],
  [
    SHELL_SCRIPT_FROM_STDIN,
    [
      ['curl -s x | sh', true, 'script from a pipe'],
      ['cat a.sh | bash', true, 'file content piped to a shell'],
      ['env /bin/sh', true, 'an interactive shell reads its input'],
      ['bash script.sh', false, 'a script file (an exec effect, not an injection)'],
      ["bash -c 'ls'", false, 'a parsed -c script'],
      ['bash <<EOF\nls\nEOF', false, 'a parsed heredoc script'],
    ],
  ],
  [
    UNICODE_DISPLAY_CONTROL,
    [
      ['echo "a\u202eb"', true, 'right-to-left override (even in quotes)'],
      ['ls\u200b -la', true, 'zero-width space'],
      ['echo "\u{E0041}"', true, 'tag character'],
      ['echo "\u3164"', true, 'Hangul filler renders blank'],
      ['echo "héllo wörld"', false, 'ordinary accented letters'],
    ],
  ],
  [
    ZSH_EQUALS_EXPANSION,
    [
      ['=ls -la', true, '=ls is the path of ls in zsh'],
      ['echo =curl', true, '=cmd as an argument'],
      ['[ "$a" = b ]', false, 'a test operator'],
      ['echo a=b', false, 'an = inside a word'],
    ],
  ],
];

describe('checks added for corpus classes the 23 miss', () => {
  it('every added check has a table and a reason, and no id repeats', () => {
    expect(TABLES.map(([d]) => d.id).sort()).toEqual(ADDED_DETECTORS.map((d) => d.id).sort());
    for (const d of ADDED_DETECTORS) expect(d.reason.length).toBeGreaterThan(40);
    expect(new Set(ALL_DETECTORS.map((d) => d.id)).size).toBe(ALL_DETECTORS.length);
  });

  for (const [detector, rows] of TABLES) {
    describe(detector.id, () => {
      it.each(rows)('%j → %s (%s)', (command, expected) => {
        expect(fires(detector, command)).toBe(expected);
      });
    });
  }
});

describe('runSecurityChecks', () => {
  it('returns nothing for ordinary commands', () => {
    for (const command of [
      'ls -la',
      'git status && git diff --stat',
      'grep -rn "foo; bar" src',
      'echo "$HOME"',
      'echo "Done: ${count} files"',
    ]) {
      expect(runSecurityChecks(command, parseAndSplit(command))).toEqual([]);
    }
  });

  it('includes findings already on the split and ties per-command findings to their sub-command', () => {
    const split = parseAndSplit('ls && sudo rm x');
    split.findings.push({ id: 'X', message: 'preset', behavior: 'ask' });
    const found = runSecurityChecks('ls && sudo rm x', split);
    expect(found[0]?.id).toBe('X');
    expect(found.find((f) => f.id === 'PRIVILEGE_ESCALATION')?.subcommand).toBe(1);
  });

  it('turns a detector that throws into a finding (fail closed)', () => {
    const split = parseAndSplit('ls');
    // A corrupted split: commands with no argv array make every detector that reads argv throw.
    const broken = {
      ...split,
      commands: [{ ...split.commands[0], argv: undefined }],
    } as unknown as typeof split;
    const found = runSecurityChecks('ls', broken);
    expect(found.some((f) => f.id === 'INTERNAL_CHECK_ERROR' && f.behavior === 'ask')).toBe(true);
  });
});
