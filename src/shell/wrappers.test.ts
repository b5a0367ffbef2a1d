import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from './parser.js';
import { parseAndSplit } from './split.js';
import type { SimpleCommand } from './types.js';
import { shellInvocation, stripWrappers, trustedProgramName } from './wrappers.js';

beforeAll(async () => {
  await initShellParser();
});

function first(line: string): SimpleCommand {
  const cmd = parseAndSplit(line).commands[0];
  if (!cmd) throw new Error(`no command in ${line}`);
  return cmd;
}

const text = (cmd: SimpleCommand) => cmd.argv.map((w) => w.text).join(' ');

describe('transparent wrappers are stripped (docs/security-round-2.md)', () => {
  it.each([
    ['timeout 5 rm -rf build', 'rm -rf build', ['timeout'], 'duration operand'],
    ['timeout -s KILL -k 2 5 rm x', 'rm x', ['timeout'], 'options with values before the duration'],
    ['timeout --signal=TERM 1m npm test', 'npm test', ['timeout'], 'long option with ='],
    ['time npm test', 'npm test', ['time'], 'time'],
    ['time -p ls', 'ls', ['time'], 'time -p'],
    ['nice -n 10 npm run build', 'npm run build', ['nice'], 'nice -n N'],
    ['nice -10 make', 'make', ['nice'], 'nice -N'],
    ['nohup pnpm publish', 'pnpm publish', ['nohup'], 'nohup'],
    ['stdbuf -oL -eL grep x f', 'grep x f', ['stdbuf'], 'stdbuf with attached modes'],
    ['ionice -c 3 rsync a b', 'rsync a b', ['ionice'], 'ionice'],
    ['setsid -f sleep 1', 'sleep 1', ['setsid'], 'setsid'],
    ['flock /tmp/lock git add -A', 'git add -A', ['flock'], 'flock FILE cmd'],
    ['flock -w 5 /tmp/lock make', 'make', ['flock'], 'flock with a timeout'],
    ['taskset 0x3 make', 'make', ['taskset'], 'taskset MASK cmd'],
    ['taskset -c 0,1 make', 'make', ['taskset'], 'taskset -c LIST cmd'],
    ['command rm -rf build', 'rm -rf build', ['command'], 'command builtin'],
    ['builtin cd src', 'cd src', ['builtin'], 'builtin'],
    ['env rm -rf build', 'rm -rf build', ['env'], 'bare env'],
    ['env -i PATH=/bin FOO=1 ls', 'ls', ['env'], 'env -i with assignments'],
    ['env -u HOME ls', 'ls', ['env'], 'env -u NAME'],
    ['sudo -u root -E rm x', 'rm x', ['sudo'], 'sudo with options'],
    ['doas -u root ls', 'ls', ['doas'], 'doas'],
    ['exec -a name ls', 'ls', ['exec'], 'exec -a'],
    ['busybox rm -rf x', 'rm -rf x', ['busybox'], 'busybox applet'],
    ['xargs rm', 'rm', ['xargs'], 'bare xargs'],
    ['xargs -0 -n1 -I{} cp {} dst', 'cp {} dst', ['xargs'], 'xargs with options'],
    ['xargs -a targets.txt rm', 'rm', ['xargs'], 'xargs -a FILE'],
    ['/usr/bin/timeout 5 rm x', 'rm x', ['timeout'], 'wrapper in a system bin directory'],
    [
      'timeout 5 nice -n 2 env A=1 sudo rm x',
      'rm x',
      ['timeout', 'nice', 'env', 'sudo'],
      'nested wrappers, outermost first',
    ],
    ['nohup rm -rf build &', 'rm -rf build', ['nohup'], 'backgrounded'],
    ['chrt -f 5 rm x', 'rm x', ['chrt'], 'chrt POLICY PRIORITY cmd'],
    ['runuser -u app -- rm x', 'rm x', ['runuser'], 'runuser -u USER -- cmd'],
  ])('%j → %j via %j (%s)', (line, argv, wrappers) => {
    const cmd = first(line);
    expect(text(cmd)).toBe(argv);
    expect(cmd.wrappers).toEqual(wrappers);
    expect(cmd.fullArgv.map((w) => w.text).join(' ')).toBe(line.replace(/ &$/, ''));
  });

  it.each([
    ['./timeout 5 rm x', './timeout 5 rm x', 'a project-local program named timeout is not the wrapper'],
    ['timeout', 'timeout', 'nothing to run'],
    ['env', 'env', 'env alone prints the environment'],
    ['command -v git', 'command -v git', 'command -v is a lookup'],
    ['sudo -l', 'sudo -l', 'sudo -l lists privileges'],
    [
      'timeout --bogus 5 rm x',
      'timeout --bogus 5 rm x',
      'unknown option: cannot find the command (fail closed)',
    ],
    ['exec 3>&1', 'exec', 'exec with only redirects'],
    ['xargs', 'xargs', 'xargs with no command runs echo'],
    ['$W rm x', '$W rm x', 'a dynamic wrapper name is not trusted'],
  ])('%j stays %j (%s)', (line, argv) => {
    expect(text(first(line))).toBe(argv);
  });

  it('a dynamic option value or operand is consumed; a dynamic command stays visible as the program', () => {
    expect(text(first('nice -n $N rm x'))).toBe('rm x');
    expect(text(first('timeout $T rm x'))).toBe('rm x');
    expect(text(first('timeout 5 $cmd x'))).toBe('$cmd x');
  });

  it('records assignments given to env and sudo, flagging dangerous names', () => {
    const cmd = first('env LD_PRELOAD=./x.so FOO=1 ls');
    expect(cmd.assignments).toEqual([
      { name: 'LD_PRELOAD', value: './x.so', dangerous: true },
      { name: 'FOO', value: '1', dangerous: false },
    ]);
  });

  it('records wrapper paths for effects', () => {
    expect(first('env -C /etc cat passwd').wrapperPaths).toEqual([
      { wrapper: 'env', role: 'chdir', word: expect.objectContaining({ text: '/etc' }) },
    ]);
    expect(first('time -o t.txt ls').wrapperPaths?.[0]).toMatchObject({ wrapper: 'time', role: 'write' });
    expect(first('flock /tmp/l ls').wrapperPaths?.[0]).toMatchObject({ wrapper: 'flock', role: 'lock' });
    expect(first('xargs -a list.txt rm').wrapperPaths?.[0]).toMatchObject({ wrapper: 'xargs', role: 'read' });
  });
});

/** Every wrapper of the table ends its options at `--` (each row checked against the tool's manual). */
describe('wrappers unwrap after --', () => {
  it.each([
    ['command -- rm x', 'the builtin'],
    ['command -p -- rm x', 'with an option before --'],
    ['builtin -- echo x', 'builtin'],
    ['exec -- rm x', 'exec'],
    ['exec -a name -- rm x', 'exec -a NAME --'],
    ['exec -c -- rm x', 'exec -c --'],
    ['nice -- rm x', 'nice'],
    ['nice -n 5 -- rm x', 'nice -n N --'],
    ['nohup -- rm x', 'nohup'],
    ['nice -n5 nohup -- rm x', 'nested'],
    ['env -- rm x', 'env'],
    ['env -i -- rm x', 'env -i --'],
    ['env -- A=1 rm x', 'assignments after --'],
    ['sudo -- rm x', 'sudo'],
    ['sudo -u root -- rm x', 'sudo -u USER --'],
    ['doas -- rm x', 'doas'],
    ['timeout -- 5 rm x', 'timeout -- DURATION'],
    ['stdbuf -o0 -- rm x', 'stdbuf'],
    ['setsid -- rm x', 'setsid'],
    ['time -- rm x', 'the time keyword'],
    ['time -p -- rm x', 'time -p --'],
    ['xargs -- rm x', 'xargs'],
    ['flock -- f rm x', 'flock -- FILE'],
    ['ionice -- rm x', 'ionice'],
    ['taskset -- 1 rm x', 'taskset -- MASK'],
    ['chrt -- 1 rm x', 'chrt -- PRIORITY'],
    ['runuser -u u -- rm x', 'runuser -u USER --'],
  ])('%j runs rm (%s)', (line) => {
    const cmds = parseAndSplit(line).commands;
    expect(cmds.map(text)).toContain(line.includes('echo') ? 'echo x' : 'rm x');
  });

  it.each([
    ['eval -- rm x', 'eval ends its options at --'],
    ['eval "--" rm x', 'a quoted -- is still the end of options'],
    ["sh -c -- 'rm x'", 'sh -c -- STRING'],
    ['watch -- rm x', 'watch --'],
  ])('%j runs rm as a nested script (%s)', (line) => {
    expect(parseAndSplit(line).commands.map(text)).toContain('rm x');
  });

  it.each([
    ['env A=1 -- rm x', 'env A=1 -- x runs a program named --'],
    ['timeout 5 -- rm x', 'after DURATION timeout takes -- as the command'],
    ['flock f -- rm x', 'after FILE flock takes -- as the command'],
    ['taskset 1 -- rm x', 'after MASK taskset takes -- as the command'],
    ['chrt -f 5 -- rm x', 'after PRIORITY chrt takes -- as the command'],
  ])('%j runs a program named -- (%s; checked against the real programs)', (line) => {
    expect(text(first(line))).toBe('-- rm x');
  });
});

describe('trustedProgramName and shellInvocation', () => {
  const w = (t: string) => ({ text: t, raw: t, dynamic: false, quoted: false, hasGlob: false });
  it.each([
    ['timeout', 'timeout'],
    ['/usr/bin/timeout', 'timeout'],
    ['/usr/local/sbin/x', 'x'],
    ['./timeout', undefined],
    ['/tmp/evil/timeout', undefined],
  ])('%s → %s', (input, name) => {
    expect(trustedProgramName(w(input))).toBe(name);
  });

  it.each([
    [['sh', '-c', 'ls'], 'command-string', 'plain -c'],
    [['bash', '-lc', 'ls'], 'command-string', 'bundled -lc'],
    [['bash', '-o', 'pipefail', '-c', 'ls'], 'command-string', '-o takes a value'],
    [['bash', '--norc', '-c', 'ls'], 'command-string', 'long option first'],
    [['bash', 'script.sh'], 'file', 'a script file'],
    [['bash'], 'stdin', 'no operands: reads stdin'],
    [['bash', '-s', '--', 'a'], 'stdin', '-s: stdin with arguments'],
    [['sh', '-c'], 'unknown', '-c without a string'],
  ])('%j → %s (%s)', (argv, kind) => {
    const inv = shellInvocation(argv.map(w));
    expect(inv.kind).toBe(kind);
  });

  it('stripWrappers leaves a plain argv alone', () => {
    const argv = [w('ls'), w('-la')];
    expect(stripWrappers(argv)).toMatchObject({ argv, wrappers: [], assignments: [], paths: [] });
  });
});
