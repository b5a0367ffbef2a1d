/**
 * Redirections attached to every kind of command are effects (docs/shell-analysis.md "Redirections
 * on any command"). Oracle: real bash runs each harmless command in an empty temporary directory
 * (HOME inside it) and the files it creates must all appear as write effects of the analysis.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from './analyze.js';
import { initShellParser } from './parser.js';

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-redirect-kinds-')));

beforeAll(async () => {
  await initShellParser();
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

let counter = 0;

/** Files bash creates (relative to the run directory; `~/` for the home) when it runs `command`. */
function bashCreates(command: string): { created: string[]; cwd: string; home: string } {
  const cwd = path.join(root, `run${counter++}`);
  const home = path.join(cwd, 'home');
  mkdirSync(home, { recursive: true });
  try {
    execFileSync('bash', ['-c', command], {
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
      stdio: 'ignore',
      timeout: 5000,
    });
  } catch {
    // a failing test command still opens its redirections
  }
  const created = [
    ...readdirSync(cwd)
      .filter((f) => f !== 'home')
      .map((f) => path.join(cwd, f)),
    ...readdirSync(home).map((f) => path.join(home, f)),
  ];
  return { created, cwd, home };
}

/** [command, reason]: bash writes a file; the analysis must report a write effect on it. */
const WRITES: [string, string][] = [
  ['[ x ] > out', 'single-bracket test, output redirect after the brackets'],
  ['[ x ] 2>>~/.rc', 'single-bracket test, stderr append into the home directory'],
  ["[ 1 -eq ';echo INJECTED;' ] 2>>~/.rc", 'the error text carries the operands into the file'],
  ['[ a > out ]', 'inside `[ ]` a `>` is a redirection (bash runs `[ a ]`)'],
  ['[ -n a -a c >> ~/.rc ]', 'append inside the brackets'],
  ['[ a >| out ]', 'clobber operator inside the brackets'],
  ['[[ x ]] > out', 'double-bracket test, output redirect'],
  ['[[ -f nothing ]] 2> out', 'double-bracket test, numbered fd'],
  ['test x > out', 'test builtin'],
  ['export A=1 > out', 'declaration builtin'],
  ['declare -p A 2> out', 'declare with a failing lookup'],
  ['typeset B=2 >> out', 'typeset'],
  ['readonly C=3 &> out', 'readonly with &>'],
  ['f() { local x > out; }; f', 'local inside a function'],
  ['unset nothing > out', 'unset'],
  ['(( 1 )) > out', 'arithmetic command'],
  ['(( 0 )) &>> out', 'arithmetic command with &>>'],
  ['case x in esac > out', 'compound command that runs no command'],
  ['case x in y) echo;; esac > out', 'case whose branch does not run'],
  ['{ :; } > out', 'group'],
  ['if true; then :; fi > out', 'if statement'],
  ['while false; do :; done > out', 'while loop whose body never runs'],
  ['for i in; do :; done > out', 'for loop over nothing'],
  ['true 3> out', 'numbered descriptor'],
  ['exec 3> out', 'exec opening a descriptor'],
  ['exec {fd}> out', 'exec with a named descriptor'],
  ['echo x >& out', '>& with a file name'],
  ['echo x >| out', 'clobber'],
  ['exec 3<> out', 'exec opening a read-write descriptor'],
  ['[ x ] 3<> out', 'read-write redirection on a test command'],
  ['cat <> out', 'read-write standard input'],
  ['[ x ] > out && ls', 'test command followed by a list'],
];

describe('redirections of every command kind are write effects (oracle: bash)', () => {
  it.each(WRITES)('%s (%s)', (command) => {
    const { created, cwd, home } = bashCreates(command);
    expect(created.length, 'bash created the file').toBeGreaterThan(0);
    const a = analyzeCommand(command, { cwd, home });
    const writes = a.effects.filter((e) => e.kind === 'write').map((e) => e.target);
    for (const f of created) expect(writes).toContain(f);
    expect(a.readOnly).toBe(false);
  });
});

/** [command, reason]: look-alikes that write nothing and stay read-only. */
const BENIGN: [string, string][] = [
  ['[ -f package.json ]', 'plain file test'],
  ['[[ a > b ]]', 'inside [[ ]] `>` compares strings'],
  ['(( 2 > 1 ))', 'inside (( )) `>` compares numbers'],
  ['[ "$x" = y ] && echo ok', 'string test in a list'],
  ['test -d src 2>/dev/null', 'stderr to /dev/null'],
  ['[ -f x ] 2>&1', 'descriptor duplication'],
  ['export A=1 2>/dev/null', 'declaration with stderr discarded'],
  ['echo x 3>&1 1>&2 2>&3', 'descriptor swaps only'],
  ['if [ -d src ]; then ls; fi', 'test in an if'],
];

describe('benign look-alikes stay read-only', () => {
  it.each(BENIGN)('%s (%s)', (command) => {
    const { created, cwd, home } = bashCreates(command);
    expect(created).toEqual([]);
    const a = analyzeCommand(command, { cwd, home });
    expect(a.effects.filter((e) => e.kind === 'write')).toEqual([]);
    if (!command.startsWith('((')) expect(a.readOnly).toBe(true);
  });
});
