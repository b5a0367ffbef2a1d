import { beforeAll, describe, expect, it } from 'vitest';
import { type ExitCodeInterpretation, interpretExitCode } from './exit-codes.js';
import { initShellParser } from './parser.js';

beforeAll(async () => {
  await initShellParser();
});

const ROWS: [string, number, ExitCodeInterpretation, string][] = [
  ['grep foo f', 1, { isError: false, message: 'No matches found' }, 'grep 1 = no matches'],
  ['grep foo f', 2, { isError: true }, 'grep 2 = error'],
  ['rg foo', 1, { isError: false, message: 'No matches found' }, 'rg 1 = no matches'],
  ['egrep a f', 1, { isError: false, message: 'No matches found' }, 'egrep'],
  ['diff a b', 1, { isError: false, message: 'Files differ' }, 'diff 1 = files differ'],
  ['diff a b', 2, { isError: true }, 'diff 2 = trouble'],
  ['cmp a b', 1, { isError: false, message: 'Files differ' }, 'cmp 1 = differ'],
  ['test -f x', 1, { isError: false, message: 'Condition is false' }, 'test 1 = false'],
  ['[ -d x ]', 1, { isError: false, message: 'Condition is false' }, '[ 1 = false'],
  [
    'find / -name x',
    1,
    { isError: false, message: 'Some directories were inaccessible (partial results)' },
    'find 1 = partial',
  ],
  ['git diff --quiet', 1, { isError: false, message: 'Files differ' }, 'git diff 1 = differences'],
  ['git grep foo', 1, { isError: false, message: 'No matches found' }, 'git grep 1 = no matches'],
  ['git status', 1, { isError: true }, 'other git sub-commands: 1 is an error'],
  ['ls nope', 2, { isError: true }, 'ordinary failure'],
  ['npm test', 1, { isError: true }, 'other programs: 1 is an error'],
  ['cat f | grep x', 1, { isError: false, message: 'No matches found' }, 'the last pipeline stage decides'],
  ['grep x f | wc -l', 1, { isError: true }, 'wc is last: 1 is an error'],
  ['cd src && grep -r x .', 1, { isError: false, message: 'No matches found' }, 'last command of a list'],
  ['timeout 5 grep x f', 1, { isError: false, message: 'No matches found' }, 'wrappers are looked through'],
  ['/usr/bin/grep x f', 1, { isError: false, message: 'No matches found' }, 'path-qualified grep'],
  ['echo $(grep x f)', 1, { isError: true }, 'a grep inside $() does not decide the status'],
  ['anything', 0, { isError: false }, '0 is success'],
];

describe('interpretExitCode', () => {
  it.each(ROWS)('%s exit %i → %j (%s)', (command, code, expected) => {
    expect(interpretExitCode(command, code)).toEqual(expected);
  });
});
