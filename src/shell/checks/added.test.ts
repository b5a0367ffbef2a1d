import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../parser.js';
import { parseAndSplit } from '../split.js';
import type { Detector } from './detector.js';
import {
  ADDED_DETECTORS,
  ALL_DETECTORS,
  ARITHMETIC_INJECTION,
  ENVIRONMENT_DUMP,
  NAMEREF_DECLARATION,
  SECRET_VARIABLE,
  SHELL_OPTION_CHANGE,
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
      ['hash -p/tmp/x ls', true, 'the file attached to -p'],
      ['hash -rp /tmp/x ls', true, '-p bundled after -r'],
      ['hash -tp /tmp/x ls', true, '-p bundled after -t'],
      ['hash', false, 'listing the table'],
      ['hash -r', false, 'forgetting every location'],
      ['hash -t ls', false, 'printing where ls is'],
      ['hash ls -p', false, 'after an operand -p is a name to look up'],
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
  [
    SHELL_OPTION_CHANGE,
    [
      ['set -k; ls PATH=/tmp/x', true, 'keyword: assignment words anywhere become environment'],
      ['set -o keyword', true, 'keyword, long form'],
      ['set -eo keyword', true, 'keyword bundled after -e'],
      ['set +B; cat secret{01..02}.txt', true, 'brace expansion turned off'],
      ['set +o braceexpand', true, 'brace expansion off, long form'],
      ['shopt -s dotglob; cat *', true, 'globs match dot-files'],
      ['shopt -s expand_aliases; alias ls=rm', true, 'aliases expanded'],
      ['shopt -s extglob', true, 'later lines parse differently'],
      ['shopt -s lastpipe', true, 'the last pipeline stage runs in this shell'],
      ['set -a; LD_PRELOAD=/tmp/x.so', true, 'allexport before a dangerous assignment'],
      ['enable -n echo', true, 'a builtin disabled: its name runs a PATH program'],
      ['set $opts', true, 'options from an expansion'],
      ['set -euo pipefail', false, 'strict mode'],
      ['set -x; ls', false, 'xtrace'],
      ['set -- a b', false, 'positional parameters'],
      ['set -a; A=1', false, 'allexport of a harmless name'],
      ['shopt -s nullglob globstar', false, 'glob result options'],
      ['shopt -u dotglob', false, 'turning dotglob off'],
      ['shopt dotglob', false, 'printing an option'],
    ],
  ],
  [
    NAMEREF_DECLARATION,
    [
      ['declare -n ref=PATH; ref=/tmp', true, 'a reference to PATH'],
      ['local -n r=arr', true, 'local nameref'],
      ['typeset -rn r=x', true, 'bundled -n'],
      ['declare -a arr=(1 2)', false, 'an array'],
      ['local x=1', false, 'a plain local'],
      ['declare -i n=1', false, 'an integer'],
    ],
  ],
  [
    ARITHMETIC_INJECTION,
    [
      ['read -r n < count; echo $((n+1))', true, 'a value read from a file in $(( ))'],
      ['read x; (( x > 1 ))', true, 'read value in (( ))'],
      ['read x; [[ $x -eq 1 ]]', true, 'read value compared with -eq'],
      ['read x; let y=x+1', true, 'read value in let'],
      ['mapfile -t v < f; echo $(( v ))', true, 'mapfile default array name is a user choice'],
      ['x=$(cat f); echo $((x))', true, 'a substitution copied into a variable'],
      ['x=$(<f); y=$x; echo $((y))', true, 'a value copied twice'],
      ['echo $(( $(cat f) + 1 ))', true, 'substitution output inside the arithmetic'],
      ['a[$(cat f)]=1', true, 'substitution in an assignment subscript'],
      ['read i; echo "${arr[$i]}"', true, 'read value as an expansion subscript'],
      ['read i; a[$i]=1', true, 'read value as an assignment subscript'],
      ['for x in $(cat f); do echo $((x)); done', true, 'loop over command output'],
      ['read v; for ((i=v; i<3; i++)); do :; done', true, 'read value in a C-style for head'],
      ['read v; declare -i n=$v', true, 'read value assigned to an integer variable'],
      ['echo $(( $(date +%s) - 5 ))', false, 'a timestamp is only digits'],
      ['n=$(wc -l < f); echo $((n + 1))', false, 'a line count is only digits'],
      ['echo $(( $(ls | wc -l) * 2 ))', false, 'a count from a pipeline'],
      ['for i in $(seq 1 3); do echo $((i*2)); done', false, 'seq output is only numbers'],
      ['n=3; echo $((n+1))', false, 'a literal value'],
      ['for i in 1 2 3; do echo $((i*2)); done', false, 'static loop list'],
      ['read -r line; echo "$line"', false, 'a read value that is only printed'],
      ['echo $((RANDOM % 6))', false, 'shell variable'],
    ],
  ],
  [
    ENVIRONMENT_DUMP,
    [
      ['env', true, 'env alone'],
      ['env | grep -i key', true, 'env into a filter'],
      ['env -0', true, 'env with only options'],
      ['printenv', true, 'printenv alone'],
      ['export', true, 'export alone'],
      ['export -p', true, 'export -p'],
      ['declare -p', true, 'declare -p'],
      ['declare -xp', true, 'exported variables'],
      ['typeset -p', true, 'typeset -p'],
      ['set', true, 'set alone prints every variable'],
      ['compgen -v', true, 'variable names'],
      ['compgen -A export', true, 'exported names'],
      ['ps auxe', true, 'BSD e shows each process environment'],
      ["awk 'BEGIN { for (k in ENVIRON) print k, ENVIRON[k] }'", true, 'awk ENVIRON'],
      ['jq -n env', true, 'jq env builtin'],
      ["jq -n '$ENV.HOME'", true, 'jq $ENV'],
      ['env NODE_ENV=test npm test', false, 'env running a command'],
      ['printenv HOME', false, 'one harmless variable'],
      ['export PATH="$PATH:/opt/bin"', false, 'export with an assignment'],
      ['declare -p myarr', false, 'one named variable'],
      ['declare -f myfunc', false, 'a function definition'],
      ['set -e', false, 'set with an option'],
      ['ps aux', false, 'process list without environments'],
      ['ps -ef', false, 'dash options: -e is every process'],
      ["jq '.environment' config.json", false, 'a field named environment'],
      ["awk '{print $1}' f", false, 'awk without ENVIRON'],
    ],
  ],
  [
    SECRET_VARIABLE,
    [
      ['echo $AWS_SECRET_ACCESS_KEY', true, 'secret segment'],
      ['printenv GITHUB_TOKEN', true, 'printenv by name'],
      ['echo "${OPENAI_API_KEY}"', true, 'braced expansion'],
      ['curl -H "Authorization: Bearer $GH_TOKEN" https://api.github.com', true, 'sent in a header'],
      ['echo $DB_PASSWORD', true, 'password'],
      ['echo $github_pat', true, 'case-insensitive _PAT'],
      ['echo $STRIPEAPIKEY', true, 'glued API key'],
      ['declare -p NPM_TOKEN', true, 'declare -p by name'],
      ["sh -c 'echo $SECRET'", true, 'inside a nested script'],
      ['[ -n "$GITHUB_TOKEN" ] && echo set', false, 'only tests that it is set'],
      ['[[ -z $NPM_TOKEN ]]', false, 'only tests that it is empty'],
      ['echo $HOME $PWD $OLDPWD', false, 'ordinary variables (PWD is not a password)'],
      ['echo $KEYBOARD_LAYOUT', false, 'KEYBOARD is not KEY'],
      ['echo $TOKENIZERS_PARALLELISM', false, 'TOKENIZERS is not TOKEN'],
      ['echo $SSH_ASKPASS', false, 'ASKPASS is a program path'],
      ["echo 'the $API_KEY variable'", false, 'single quotes: no expansion'],
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
