import { beforeAll, describe, expect, it } from 'vitest';
import { mapPathResolver } from '../../core/paths.js';
import { initShellParser } from '../parser.js';
import { parseAndSplit } from '../split.js';
import { computeEffects } from './index.js';

beforeAll(async () => {
  await initShellParser();
});

const opts = {
  cwd: '/p',
  home: '/h',
  resolver: mapPathResolver({ '/p/docs-link': '/p/docs' }, ['/p', '/h', '/p/docs', '/tmp']),
};

/** cwd of every sub-command as `program:cwd` (`?` = unknown), plus the final cwd. */
function cwds(command: string): { cwds: string[]; final: string } {
  const split = parseAndSplit(command);
  const r = computeEffects(split.commands, opts, Infinity, command);
  return {
    cwds: split.commands.map((c, i) => `${c.argv[0]?.text ?? ''}:${r.cwds[i] ?? '?'}`),
    final: r.finalCwd ?? '?',
  };
}

/** File effects (exec omitted) as `kind[?] target`. */
function fileEffects(command: string): string[] {
  const split = parseAndSplit(command);
  return computeEffects(split.commands, opts, Infinity, command)
    .effects.filter((e) => e.kind !== 'exec')
    .map((e) => `${e.kind}${e.certainty === 'unknown' ? '?' : ''} ${e.target}`);
}

describe('cd tracking across a command line', () => {
  it.each([
    ['cd src && cat a', ['cd:/p', 'cat:/p/src'], '/p/src', 'top-level cd persists'],
    ['cd src; cd ..; ls', ['cd:/p', 'cd:/p/src', 'ls:/p'], '/p', '.. from the tracked cwd'],
    ['cd ~/.ssh && echo k >> authorized_keys', ['cd:/p', 'echo:/h/.ssh'], '/h/.ssh', '~ resolved'],
    ['cd', ['cd:/p'], '/h', 'bare cd goes home'],
    ['cd - && ls', ['cd:/p', 'ls:?'], '?', 'cd - makes the cwd unknown'],
    ['cd "$DIR" && cat f', ['cd:/p', 'cat:?'], '?', 'cd to an expansion: unknown'],
    ['cd $HOME/x && ls', ['cd:/p', 'ls:/h/x'], '/h/x', '$HOME is known'],
    ['(cd /tmp; rm x); rm y', ['cd:/p', 'rm:/tmp', 'rm:/p'], '/p', 'cd in a subshell applies inside it only'],
    ['(cd /tmp); (cat x)', ['cd:/p', 'cat:?'], '/p', 'a sibling subshell after a subshell cd: unknown'],
    ['cd /tmp | cat x', ['cd:/p', 'cat:?'], '?', 'a cd in a pipeline stage does not reach the next stage'],
    [
      'echo $(cd /tmp; pwd) && ls',
      ['cd:/p', 'pwd:/tmp', 'echo:/p', 'ls:/p'],
      '/p',
      'cd inside $( ) stays inside',
    ],
    [
      'cd /nope || exit 1; cat f',
      ['cd:/p', 'exit:/p', 'cat:/nope'],
      '/nope',
      'cd || exit: the fallback runs in the old cwd',
    ],
    ['cd x || true; cat f', ['cd:/p', 'true:/p', 'cat:?'], '?', 'cd || other: either cwd afterwards'],
    ['pushd src && popd && ls', ['pushd:/p', 'popd:/p/src', 'ls:/p'], '/p', 'pushd/popd stack'],
    ['popd', ['popd:/p'], '?', 'popd with an empty stack: unknown'],
    ['cd docs-link && cat g', ['cd:/p', 'cat:/p/docs'], '/p/docs', 'cd through a symlink resolves it'],
    [
      'cd docs && grep -rn x guide/*.md 2>/dev/null | grep -i foo',
      ['cd:/p', 'grep:/p/docs', 'grep:?'],
      '?',
      'tree-sitter puts the cd in the pipeline (docs/dependencies.md "Bash parsing"): same stage keeps it, after the pipeline unknown',
    ],
    [
      "bash -c 'cd /x && rm y'",
      ['bash:/p', 'cd:/p', 'rm:?'],
      '/p',
      'cd inside a nested script: later nested commands unknown',
    ],
  ])('%s (%s)', (command, expected, final) => {
    expect(cwds(command)).toEqual({ cwds: expected, final });
  });
});

describe('effects across sub-commands', () => {
  it.each([
    ['cd /tmp && rm -rf x', ['read /tmp', 'delete /tmp/x'], 'relative path after cd'],
    [
      'ln -s /h/.bashrc rc && echo x >> rc',
      ['write /p/rc', 'read /h/.bashrc', 'write /h/.bashrc', 'write /p/rc'],
      'a link created earlier in the line is followed',
    ],
    [
      'find src -name "*.ts" | xargs grep -n TODO',
      ['read /p/src', 'read /p/src'],
      'xargs input from find lies below its start path',
    ],
    ['git ls-files | xargs wc -l', ['read /p'], 'git ls-files lists the cwd'],
    ['git diff --name-only | xargs -r wc -l', ['read /p'], 'git diff --name-only lists repository paths'],
    [
      'git diff --name-status | xargs wc -l',
      ['read? <arguments read from input>'],
      'status letters are not paths: unknown',
    ],
    [
      'cat list | xargs rm',
      ['read /p/list', 'delete? <arguments read from input>'],
      'xargs input from arbitrary text is unknown',
    ],
    [
      'xargs -a list.txt wc -l',
      ['read /p/list.txt', 'read /p'],
      'xargs -a: names from a project file, relative to the cwd',
    ],
    [
      'xargs -a /etc/hosts wc -l',
      ['read /etc/hosts', 'read /p'],
      'xargs -a outside: the list file is the path checked',
    ],
    [
      "find . -printf '/etc/%f\\n' | xargs cat",
      ['read /p', 'read? <arguments read from input>'],
      'find -printf output is arbitrary text',
    ],
    ['ls src | xargs -I{} cat {}', ['read /p/src', 'read /p'], 'ls prints names relative to the cwd'],
    ["find . -name '*.bak' -exec rm {} \\;", ['read /p', 'delete? {}'], 'find -exec child: {} is unknown'],
    [
      'env -C /tmp ls > out',
      ['write /p/out', 'read /tmp', 'read /tmp'],
      'env -C: redirect in the shell cwd, the program in DIR',
    ],
  ])('%s → %j (%s)', (command, expected) => {
    expect(fileEffects(command)).toEqual(expected);
  });
});
