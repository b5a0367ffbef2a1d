/**
 * Read-only validators for system-information commands, pagers and manuals, docker listing,
 * xxd, date/hostname, directory changes and shell builtins that only print or set shell state.
 *
 * Source: docs/security-round-2.md (date hostname uname whoami id ps which type
 * man cd docker ps/images; `man -P/-H/--html/--pager`; less startup commands; `date -s`/
 * positional time/`date -f FILE`; `xxd -r`), the Claude Code permissions docs (docker aimed at another daemon prompts;
 * a cd inside the working dirs is read-only), corpus class pager-escape.
 */
import type { Word } from '../types.js';
import { compiledLazily, operandsOf, scanArgs, words } from './options.js';
import { anyArgs, byTable, disqualifier, no, type Validator, yes } from './verdict.js';
import { getOwn } from '../../core/get-own.js';

const MAN = byTable('man', () => ({
  safe: [
    ...words('-a --all -f --whatis -k --apropos -K --global-apropos -w --where --path --location -W'),
    ...words('--where-cat --location-cat -l --local-file -s= --sections= -S= -M= --manpath= -m='),
    ...words('--systems= -L= --locale= -e= --extension= -i --ignore-case -I --match-case --regex'),
    ...words('--wildcard --names-only --no-subpages -7 --ascii -E= --encoding= --no-hyphenation --nh'),
    ...words('--no-justification --nj -c --catman -d --debug -D --default -h --help -V --version'),
  ],
  unsafe: {
    '-P=': 'runs the given pager program',
    '--pager=': 'runs the given pager program',
    '-H=?': 'runs the given browser program',
    '--html=?': 'runs the given browser program',
    '-X=?': 'runs gxditview',
    '--gxditview=?': 'runs gxditview',
    '-C=': 'reads another man configuration file',
    '--config-file=': 'reads another man configuration file',
    '-p=': 'selects preprocessor programs',
    '--preprocessor=': 'selects preprocessor programs',
    '-R=': 'recodes a page',
    '--recode=': 'recodes a page',
    '-r=': 'sets the pager prompt',
    '--prompt=': 'sets the pager prompt',
  },
}));

const LESS_OPTIONS = compiledLazily(() => ({
  safe: [
    ...'aABcCdeEfFgGiIJKLmMnNqQrRsSuUVwWX~'.split('').map((c) => `-${c}`),
    ...words('-b= -h= -j= -p= -P= -x= -y= -z= -#= --chop-long-lines --quit-if-one-screen --no-init'),
    ...words('--RAW-CONTROL-CHARS --raw-control-chars --LINE-NUMBERS --line-numbers --ignore-case'),
    ...words('--IGNORE-CASE --long-prompt --squeeze-blank-lines --quiet --silent --tabs= --pattern='),
    ...words('--prompt= --mouse --wordwrap --use-color --follow-name --help --version'),
  ],
  unsafe: {
    '-k=': 'loads a lesskey file (key bindings can run commands)',
    '--lesskey-file=': 'loads a lesskey file (key bindings can run commands)',
    '--lesskey-src=': 'loads a lesskey source file (key bindings can run commands)',
    '-o=': 'writes a log file',
    '--log-file=': 'writes a log file',
    '-O=': 'writes a log file',
    '--LOG-FILE=': 'writes a log file',
    '-T=': 'reads another tags file',
    '--tag-file=': 'reads another tags file',
    '-t=': 'opens the file containing a tag',
    '--tag=': 'opens the file containing a tag',
  },
}));

/** A `+cmd` startup command of less/more that only moves or searches (no newline, no shell escape). */
export function isHarmlessPagerCommand(arg: string): boolean {
  const body = arg.replace(/^\+\+?/, '');
  if (/[\n\r]/.test(body)) return false;
  return /^(\d+|[GgF]|[/?][^!|]*)$/.test(body) || body === '';
}

const lessValidator: Validator = (args) => {
  const plain: Word[] = [];
  for (const w of args) {
    if (w.text.startsWith('+')) {
      if (!isHarmlessPagerCommand(w.text))
        return no(`less startup command ${w.text} is not known to be harmless`);
      continue;
    }
    plain.push(w);
  }
  const items = scanArgs(plain, LESS_OPTIONS());
  const bad = disqualifier('less', items, true);
  return bad ? no(bad) : yes('less only pages files');
};

const MORE = byTable('more', () => ({
  safe: [
    ...words('-d -l -f -p -c -s -u -e -n= --silent --logical --no-pause --print-over --clean-print'),
    ...words('--squeeze --plain --exit-on-eof --lines= --help -V --version'),
  ],
  numeric: true,
}));
const moreValidator: Validator = (args, cmd) => {
  const plain: Word[] = [];
  for (const w of args) {
    if (w.text.startsWith('+')) {
      if (!isHarmlessPagerCommand(w.text))
        return no(`more startup command ${w.text} is not known to be harmless`);
      continue;
    }
    plain.push(w);
  }
  return MORE(plain, cmd);
};

const DATE_OPTIONS = compiledLazily(() => ({
  safe: [
    ...words('-d= --date= -I=? --iso-8601=? -R --rfc-email --rfc-822 --rfc-2822 --rfc-3339= -r='),
    ...words('--reference= -u --utc --universal --debug --resolution --help --version'),
  ],
  unsafe: {
    '-s=': 'sets the system clock',
    '--set=': 'sets the system clock',
    '-f=': 'reads dates from a file',
    '--file=': 'reads dates from a file',
  },
}));

const dateValidator: Validator = (args) => {
  const items = scanArgs(args, DATE_OPTIONS());
  const bad = disqualifier('date', items, true);
  if (bad) return no(bad);
  const op = operandsOf(items).find((w) => !w.text.startsWith('+'));
  if (op) return no(`date with a time operand (${op.text}) sets the system clock`);
  return yes('date only prints the time');
};

const HOSTNAME = byTable(
  'hostname',
  () => ({
    safe: [
      ...words('-a --alias -A --all-fqdns -d --domain -f --fqdn --long -i --ip-address -I'),
      ...words('--all-ip-addresses -s --short -y --yp --nis -h --help -V --version'),
    ],
    unsafe: {
      '-F=': 'sets the host name from a file',
      '--file=': 'sets the host name from a file',
      '-b': 'sets the host name',
      '--boot': 'sets the host name',
    },
  }),
  { maxOperands: 0 },
);

const UNAME = byTable('uname', () => ({
  safe: [
    ...'asnrvmpio'.split('').map((c) => `-${c}`),
    ...words('--all --kernel-name --nodename --kernel-release --kernel-version --machine --processor'),
    ...words('--hardware-platform --operating-system --help --version'),
  ],
}));

const ID = byTable('id', () => ({
  safe: [
    ...words('-a -u -g -G -n -r -z -Z --user --group --groups --name --real --zero --context --help'),
    ...words('--version'),
  ],
}));

const XXD_FLAGS = new Set([
  ...words('-a -autoskip -b -bits -C -capitalize -E -EBCDIC -e -h -help -i -include -p -ps -postscript'),
  ...words('-plain -u -uppercase -v -version -d'),
]);
const XXD_WITH_VALUE = [...words('-c -cols -g -groupsize -l -len -n -name -o -offset -s -seek -R')];

/** xxd uses single-dash long options; `-r` reverts (patches/writes); a second operand is the output file. */
const xxdValidator: Validator = (args) => {
  let operands = 0;
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (t.startsWith('-r')) return no('xxd -r converts a dump back to binary (writes/patches a file)');
    if (t === '-' || !t.startsWith('-')) {
      operands++;
      continue;
    }
    if (XXD_FLAGS.has(t)) continue;
    const v = XXD_WITH_VALUE.find(
      (o) => t === o || (t.startsWith(o) && /^[-+]?(0x)?[0-9a-fA-F]+$/.test(t.slice(o.length))),
    );
    if (v) {
      if (t === v) i++;
      continue;
    }
    return no(`xxd: option ${t} is not known to be read-only`);
  }
  if (operands > 1) return no('xxd with two operands writes the second (output file)');
  return yes('xxd only dumps');
};

const DOCKER_GLOBAL_UNSAFE = /^(-H|--host|--context|-c|--config|--tlscacert|--tlscert|--tlskey)(=|$)/;
const DOCKER_SUB: Record<string, Validator> = {
  ps: byTable('docker ps', () => ({
    safe: [
      ...words('-a --all -q --quiet -s --size -n= --last= -l --latest --format= -f= --filter= --no-trunc'),
    ],
  })),
  images: byTable('docker images', () => ({
    safe: [...words('-a --all -q --quiet --digests --no-trunc --format= -f= --filter= --tree')],
  })),
  version: byTable('docker version', () => ({ safe: ['-f=', '--format='] })),
  info: byTable('docker info', () => ({ safe: ['-f=', '--format='] })),
  inspect: byTable('docker inspect', () => ({ safe: ['-f=', '--format=', '-s', '--size', '--type='] })),
  logs: byTable('docker logs', () => ({
    safe: ['--details', '-f', '--follow', '--since=', '--until=', '-n=', '--tail=', '-t', '--timestamps'],
  })),
};

const dockerValidator: Validator = (args, cmd) => {
  if (args.length === 1 && /^(?:--version|-v)$/.test(args[0]?.text ?? ''))
    return yes('docker --version only prints');
  let i = 0;
  while (i < args.length && (args[i] as Word).text.startsWith('-')) {
    const t = (args[i] as Word).text;
    if (DOCKER_GLOBAL_UNSAFE.test(t))
      return no(`docker ${t} talks to another daemon or loads another config`);
    if (t === '--debug' || t === '-D' || t === '--log-level' || t.startsWith('--log-level=')) {
      i += t === '--log-level' ? 2 : 1;
      continue;
    }
    return no(`docker global option ${t} is not known to be read-only`);
  }
  let sub = args[i]?.text;
  let rest = args.slice(i + 1);
  if ((sub === 'container' || sub === 'image') && rest[0]?.text === 'ls') {
    sub = sub === 'container' ? 'ps' : 'images';
    rest = rest.slice(1);
  }
  const v = sub ? getOwn(DOCKER_SUB, sub) : undefined;
  if (!v) return no(`docker ${sub ?? ''} is not a read-only docker command`);
  return v(rest, cmd);
};

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Variables whose value changes what later commands run or load (export/declare of these is not
 * read-only). Mirrors the docs/security-round-2.md list of dangerous assignments.
 */
export const DANGEROUS_VARIABLE =
  /^(PATH|IFS|ENV|BASH_ENV|BASH_FUNC_.*|CDPATH|GLOBIGNORE|PS4|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|LD_.*|DYLD_.*|NODE_OPTIONS|NODE_PATH|PYTHON.*|PERL5.*|PERLLIB|RUBY.*|GEM_.*|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|CLASSPATH|GIT_.*|PAGER|MANPAGER|LESS.*|EDITOR|VISUAL|BROWSER|RIPGREP_CONFIG_PATH|GREP_OPTIONS|GOFLAGS|CARGO_.*|RUSTC_WRAPPER|NPM_CONFIG_.*|npm_config_.*|SSH_ASKPASS|SUDO_ASKPASS|HOME|TMPDIR|XDG_CONFIG_HOME|ZDOTDIR|INPUTRC|HISTFILE|MAIL.*)$/;

/** export/declare/local/readonly/typeset: only plain names, none that change what runs. */
function declareValidator(name: string, flags: RegExp): Validator {
  return (args) => {
    for (const w of args) {
      const t = w.text;
      if (t.startsWith('-') || t.startsWith('+')) {
        if (!flags.test(t)) return no(`${name} ${t} is not known to be harmless`);
        continue;
      }
      const eq = t.indexOf('=');
      const varName = eq < 0 ? t : t.slice(0, eq);
      if (!IDENT.test(varName))
        return no(`${name} of ${varName}: not a plain variable name (subscripts are evaluated)`);
      if (DANGEROUS_VARIABLE.test(varName))
        return no(`${name} ${varName} changes what later commands run or load`);
    }
    return yes(`${name} only sets shell variables`);
  };
}

const SET_OPTION_NAMES = new Set([
  ...words('errexit nounset pipefail xtrace verbose noclobber noglob errtrace functrace allexport notify'),
  ...words('hashall braceexpand posix'),
]);

const setValidator: Validator = (args) => {
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (t === '--' || t === '-') return yes('set only sets positional parameters');
    if (/^[-+][euxvECTfhbmBHnkPta]*o$/.test(t)) {
      const n = args[i + 1]?.text;
      if (n !== undefined && !SET_OPTION_NAMES.has(n)) return no(`set -o ${n} is not known to be harmless`);
      i++;
      continue;
    }
    if (/^[-+][euxvECTfhbmBHnkPta]+$/.test(t)) continue;
    return no(`set ${t} is not known to be harmless`);
  }
  return yes('set only changes shell options');
};

const readValidator: Validator = (args) => {
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (/^-[rseE]+$/.test(t)) continue;
    if (/^-[adnNptui]$/.test(t)) {
      i++;
      if (t === '-a' && !IDENT.test(args[i]?.text ?? '')) return no('read -a into a non-plain name');
      continue;
    }
    if (/^-[dnNptui]./.test(t)) continue;
    if (!IDENT.test(t)) return no(`read into ${t}: not a plain variable name (subscripts are evaluated)`);
    if (DANGEROUS_VARIABLE.test(t)) return no(`read ${t} changes what later commands run or load`);
  }
  return yes('read only sets shell variables from its input');
};

const CD = byTable('cd', () => ({ safe: ['-L', '-P', '-e', '-@'] }), { maxOperands: 1 });

const historyValidator: Validator = (args) => {
  if (args.length === 0 || (args.length === 1 && /^\d+$/.test(args[0]?.text ?? '')))
    return yes('history only prints');
  return no('history with options reads, writes or changes the history file');
};

const aliasValidator: Validator = (args) =>
  args.every((w) => (!w.text.includes('=') && !w.text.startsWith('-') ? true : w.text === '-p'))
    ? yes('alias only prints aliases')
    : no('alias with a definition changes what later commands run');

/** shopt options that only change which names a glob yields, never what runs or what a glob can reach. */
const HARMLESS_SHOPT = new Set(['nullglob', 'globstar', 'checkwinsize', 'histappend', 'cmdhist']);

const shoptValidator: Validator = (args) => {
  if (!args.some((w) => w.text === '-s' || w.text === '-u')) return yes('shopt only prints');
  return args.every((w) => !w.dynamic && (/^-[squ]+$/.test(w.text) || HARMLESS_SHOPT.has(w.text)))
    ? yes('shopt sets only glob-result options (nullglob, globstar)')
    : no('shopt -s/-u changes shell behaviour (expand_aliases, dotglob …)');
};

/** `--version`-style queries of common tools: read-only when that is the whole command. */
function versionOnly(program: string, accepted: string[]): Validator {
  return (args) =>
    args.length === 1 && accepted.includes(args[0]?.text ?? '')
      ? yes(`${program} ${args[0]?.text} only prints its version`)
      : no(`${program} is not read-only (only ${accepted.join('/')} is)`);
}

const VERSION_FLAGS = ['--version', '-v', '-V', 'version', '--help', '-h'];

export const miscValidators: Record<string, Validator> = {
  man: MAN,
  less: lessValidator,
  more: moreValidator,
  date: dateValidator,
  hostname: HOSTNAME,
  uname: UNAME,
  id: ID,
  whoami: byTable('whoami', () => ({ safe: ['--help', '--version'] })),
  groups: anyArgs('groups only prints group names'),
  logname: anyArgs('logname only prints'),
  users: anyArgs('users only prints'),
  who: anyArgs('who only prints'),
  w: anyArgs('w only prints'),
  tty: anyArgs('tty only prints'),
  uptime: anyArgs('uptime only prints'),
  nproc: anyArgs('nproc only prints'),
  arch: anyArgs('arch only prints'),
  free: anyArgs('free only prints'),
  lscpu: anyArgs('lscpu only prints'),
  locale: anyArgs('locale only prints'),
  getconf: anyArgs('getconf only prints'),
  cal: anyArgs('cal only prints'),
  ps: anyArgs('ps only lists processes'),
  pgrep: anyArgs('pgrep only lists processes'),
  printenv: anyArgs('printenv only prints the environment'),
  which: byTable('which', () => ({
    safe: ['-a', '-s', '--all', '--skip-alias', '--skip-functions', '--help', '--version'],
  })),
  type: byTable('type', () => ({ safe: ['-a', '-f', '-p', '-P', '-t'] })),
  whereis: byTable('whereis', () => ({ safe: ['-b', '-m', '-s', '-u', '-l', '-B=', '-M=', '-S=', '-f'] })),
  xxd: xxdValidator,
  docker: dockerValidator,
  cd: CD,
  pushd: byTable('pushd', () => ({ safe: ['-n'], numeric: true }), { maxOperands: 1 }),
  popd: byTable('popd', () => ({ safe: ['-n'], numeric: true }), { maxOperands: 0 }),
  dirs: byTable('dirs', () => ({ safe: ['-c', '-l', '-p', '-v'], numeric: true })),
  export: declareValidator('export', /^-[fnp]+$/),
  declare: declareValidator('declare', /^[-+][aAfFgilnprtuxI]+$/),
  typeset: declareValidator('typeset', /^[-+][aAfFgilnprtuxI]+$/),
  local: declareValidator('local', /^[-+][aAfFilnprtuxI]+$/),
  readonly: declareValidator('readonly', /^-[aAfp]+$/),
  unset: declareValidator('unset', /^-[fvn]+$/),
  set: setValidator,
  read: readValidator,
  shift: anyArgs('shift only shifts positional parameters'),
  exit: anyArgs('exit only ends the shell'),
  return: anyArgs('return only ends a function'),
  wait: anyArgs('wait only waits'),
  jobs: anyArgs('jobs only lists jobs'),
  history: historyValidator,
  alias: aliasValidator,
  shopt: shoptValidator,
  umask: (args) =>
    args.length === 0 || (args.length === 1 && args[0]?.text === '-S')
      ? yes('umask only prints')
      : no('umask changes the file creation mask'),
  node: versionOnly('node', VERSION_FLAGS),
  npm: versionOnly('npm', VERSION_FLAGS),
  pnpm: versionOnly('pnpm', VERSION_FLAGS),
  yarn: versionOnly('yarn', VERSION_FLAGS),
  python: versionOnly('python', VERSION_FLAGS),
  python3: versionOnly('python3', VERSION_FLAGS),
  pip: versionOnly('pip', VERSION_FLAGS),
  pip3: versionOnly('pip3', VERSION_FLAGS),
  go: versionOnly('go', VERSION_FLAGS),
  cargo: versionOnly('cargo', VERSION_FLAGS),
  rustc: versionOnly('rustc', VERSION_FLAGS),
  java: versionOnly('java', [...VERSION_FLAGS, '-version']),
  ruby: versionOnly('ruby', VERSION_FLAGS),
  tsc: versionOnly('tsc', VERSION_FLAGS),
  deno: versionOnly('deno', VERSION_FLAGS),
  bun: versionOnly('bun', VERSION_FLAGS),
  gcc: versionOnly('gcc', VERSION_FLAGS),
  make: versionOnly('make', VERSION_FLAGS),
};
