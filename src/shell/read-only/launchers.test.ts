import { describe, expect, it } from 'vitest';
import { cmdFromArgv, simple, word } from '../testing-helpers.js';
import { checkReadOnly } from './index.js';

describe('read-only: launchers, program identity, redirections, assignments', () => {
  it.each([
    ['timeout 5 cat f', true, 'timeout is transparent'],
    ['timeout -s KILL 5 ls', true, 'timeout with options'],
    ['timeout 5 rm -rf x', false, 'the launched program decides'],
    ['nice -n 10 du -sh .', true, 'nice is transparent'],
    ['nohup cat f', true, 'nohup is transparent'],
    ['time ls', true, 'time is transparent'],
    ['time -o t.txt ls', false, '/usr/bin/time -o writes a file'],
    ['stdbuf -oL grep x f', true, 'stdbuf -o is a buffer mode, not a file'],
    ['env', true, 'env alone prints the environment'],
    ['env -u FOO ls', true, 'env -u is transparent'],
    ['env LANG=C sort f', true, 'plain assignment through env'],
    ['env LD_PRELOAD=x.so ls', false, 'dangerous assignment through env'],
    ["env -S 'sh -c id'", false, 'env -S splits a hidden command line'],
    ['command -v git', true, 'command -v only prints'],
    ['command ls', true, 'command is transparent'],
    ['builtin echo x', true, 'builtin is transparent'],
    ['sudo cat f', false, 'another user'],
    ['doas ls', false, 'another user'],
    ['flock /tmp/lock cat f', false, 'flock creates its lock file'],
    ["watch 'ls'", false, 'watch runs through sh -c'],
    ['xargs grep -n TODO', true, 'xargs with a read-only child'],
    ['xargs wc -l', true, 'xargs wc'],
    ['xargs -I{} echo {}', true, 'xargs -I with echo'],
    ['xargs -0 -n1 cat', true, 'xargs options then cat'],
    ['xargs', true, 'xargs alone runs echo'],
    ['xargs rm', false, 'xargs rm deletes'],
    ['xargs sh -c id', false, 'xargs launching a shell'],
    ['xargs -n1 curl -s', false, 'network child'],
    ['xargs rg foo', false, 'rg options could be injected by the input (--pre)'],
    ['xargs sed s/a/b/', false, 'sed options could be injected by the input (-i)'],
    ['xargs -p cat', false, 'interactive prompt'],
    ['./cat README.md', false, 'path-qualified program is not the trusted tool'],
    ['/tmp/evil/ls', false, 'absolute path program'],
    ['/bin/cat f', false, 'absolute path program (even the real one)'],
    ['$CMD f', false, 'program from an expansion'],
    ['ls > /dev/null 2>&1', true, 'output to /dev/null and fd duplication'],
    ['grep -rn foo src 2>/dev/null', true, 'stderr to /dev/null'],
    ['tr a b < notes.txt', true, 'input redirection (path judged as effect)'],
    ['cat <<< hello', true, 'here-string'],
    ['echo hi > notes.txt', false, 'output redirect writes a file'],
    ['git status --short > status.txt', false, 'read-only command into a file'],
    ['echo x >> f', false, 'append'],
    ['echo x >| f', false, 'clobber'],
    ['echo x &> out.log', false, '&> writes'],
    ['echo x >& out.log', false, '>& with a file name writes'],
    ['cat <> f', false, '<> opens for writing'],
    ['LANG=C ls', true, 'harmless assignment prefix'],
    ["GIT_PAGER='sh -c id' git log -1", false, 'dangerous assignment prefix'],
    ["LESSOPEN='|sh -c id %s' less README.md", false, 'LESSOPEN runs a program'],
    ["PAGER='sh' man ls", false, 'PAGER'],
    ['FOO=1', true, 'bare assignment only sets a variable'],
  ])('%s → %s (%s)', (line, expected) => {
    expect(checkReadOnly(simple(line)).readOnly).toBe(expected);
  });

  it('a quoted word that looks like an assignment is a program, not an assignment', () => {
    const cmd = cmdFromArgv([], { argv: [word('X=1', { raw: "'X=1'", quoted: true }), word('ls')] });
    expect(checkReadOnly(cmd).readOnly).toBe(false);
  });

  it('wrappers stripped by the splitter are still judged from fullArgv', () => {
    const full = ['sudo', 'cat', 'f'].map((t) => word(t));
    const cmd = cmdFromArgv(['cat', 'f'], { fullArgv: full, wrappers: ['sudo'] });
    expect(checkReadOnly(cmd)).toEqual({
      readOnly: false,
      reason: 'sudo runs a command as another user or in another context',
    });
  });

  it('a PATH change earlier in the line makes program names untrusted', () => {
    expect(checkReadOnly(simple('cat f'), { pathShadowed: true }).readOnly).toBe(false);
  });
});
