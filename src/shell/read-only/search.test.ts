import { describe, expect, it } from 'vitest';
import { simple } from '../testing-helpers.js';
import { checkReadOnly } from './index.js';

describe('read-only: grep, rg, find, fd', () => {
  it.each([
    ['grep -rn "TODO" src --include="*.ts"', true, 'recursive search with include glob'],
    ['grep -c "error" logs/app.log', true, 'count'],
    ['grep -E "^(import|export)" src/index.ts', true, 'ERE pattern with | in quotes'],
    ['grep -rniI "pattern" docs', true, 'bundled flags'],
    ['grep -A3 -B2 foo f', true, 'context'],
    ['grep -f patterns.txt f', true, 'pattern file is a read (path checked as effect)'],
    ['grep --bogus x f', false, 'unknown option'],
    ['egrep "a|b" f', true, 'egrep'],
    ['rg -n "TODO" src', true, 'rg search'],
    ['rg --type ts -l "useEffect"', true, 'type filter'],
    ["rg -- '--pre' docs", true, '--pre after -- is a pattern'],
    ["rg -g '!node_modules' -i error .", true, 'glob'],
    ["rg -n 'foo|bar' src", true, 'pattern with |'],
    ['rg --pre=./x.sh TODO src', false, '--pre runs a preprocessor'],
    ["rg --pre sh '' README.md", false, '--pre with separate value'],
    ['rg TOKEN src --pre=exfil', false, '--pre after operands (permutation)'],
    ['rg --pr=x foo', false, 'abbreviated --pre'],
    ['rg --hostname-bin ./x.sh foo', false, '--hostname-bin runs a program'],
    ['rg -z foo', false, '--search-zip runs decompressors'],
    ['rg -uuz foo', false, 'bundled -z'],
    ['rg "$P" src', false, 'an expansion in option position could be --pre'],
    ['rg -e "$P" src', true, 'expansion as the value of -e is a pattern'],
    ["find . -name '*.ts' -type f", true, 'name test'],
    ['find src -type f -newer package.json -print', true, '-newer reads a reference file'],
    ['find . -maxdepth 2 -name "*.md" -not -path "./node_modules/*"', true, 'not/path'],
    ['find . -name a.txt -o -name b.txt', true, 'or'],
    ["find . -type f -size +1M -printf '%s %p\\n'", true, 'printf to stdout'],
    ["find . -name '*.ts' -print", true, 'print'],
    ['find . ( -name a -o -name b ) -prune', true, 'parentheses'],
    ["find . -name '*.log' -delete", false, '-delete removes files'],
    ["find . -name '*.ts' -fprint /tmp/list.txt", false, '-fprint writes'],
    ["find / -fprintf /home/user/.bashrc 'x' -quit", false, '-fprintf writes'],
    ['find . -fls out', false, '-fls writes'],
    ['find . -exec rm -rf {} +', false, '-exec runs a command'],
    ['find . -execdir chmod 777 {} ;', false, '-execdir'],
    ['find . -okdir rm {} ;', false, '-okdir'],
    ['find . -ok rm {} ;', false, '-ok'],
    [
      'find . -name x -exec grep -l TODO {} +',
      false,
      'even a read-only child: -exec is never read-only here',
    ],
    ['find . -files0-from list', false, 'reads start paths from a file'],
    ['find . -frobnicate', false, 'unknown primary'],
    ['find . $ACTION', false, 'expansion could become -delete'],
    ['fd -e ts src', true, 'fd search'],
    ['fd -x rm', false, 'fd -x runs a command'],
    ['fd --exec-batch rm', false, 'fd -X'],
  ])('%s → %s (%s)', (line, expected) => {
    expect(checkReadOnly(simple(line)).readOnly).toBe(expected);
  });
});
