/**
 * Execution primitives hidden in the arguments of otherwise ordinary programs (docs/security-round-2.md
 * "Execution primitives stay findings under allow rules": "An allow rule grants the program, not a
 * shell hidden in its arguments: sed … e, awk system(), find -exec, xargs sh -c, git -c …/pager/hooks
 * path, rg --pre, sort --compress-program, tar --checkpoint-action/--to-command/-I, zip -TT, make
 * --eval, split --filter, sqlite3 .shell, ssh -o ProxyCommand, rsync -e, npm exec/yarn exec … sh").
 * Each rule says which option runs what.
 */
import type { SimpleCommand, Word } from '../types.js';
import { SHELL_NAMES } from '../wrappers.js';
import { gitSubcommand } from './substitution.js';
import { getOwn } from '../../core/get-own.js';

type Rule = (cmd: SimpleCommand, args: Word[]) => string | undefined;

/** Arguments before a `--` end-of-options marker. */
function options(args: Word[]): Word[] {
  const end = args.findIndex((w) => w.text === '--' && !w.quoted);
  return end < 0 ? args : args.slice(0, end);
}

/** `--name`, `--name=value` or an unambiguous prefix of it (GNU getopt accepts abbreviations). */
function longOption(args: Word[], name: string, minPrefix: number): Word | undefined {
  return options(args).find((w) => {
    if (!w.text.startsWith('--')) return false;
    const given = w.text.slice(2).split('=')[0] as string;
    return given.length >= minPrefix && name.startsWith(given);
  });
}

/** A short option letter, alone or bundled (`-I`, `-xI`), before `--`. */
function shortOption(args: Word[], letter: string): Word | undefined {
  for (const w of args) {
    if (w.text === '--') return undefined;
    if (/^-[A-Za-z0-9]+/.test(w.text) && !w.text.startsWith('--') && w.text.slice(1).includes(letter))
      return w;
  }
  return undefined;
}

function anyText(args: Word[], re: RegExp): Word | undefined {
  return options(args).find((w) => re.test(w.text));
}

const SSH_EXEC_OPTIONS =
  /^(?:-o)?\s*(ProxyCommand|LocalCommand|PermitLocalCommand|KnownHostsCommand|RemoteCommand|ProxyJump)\s*[= ]/i;

function sshRule(_cmd: SimpleCommand, args: Word[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    const value = t === '-o' ? args[i + 1]?.text : t.startsWith('-o') ? t.slice(2) : undefined;
    if (value !== undefined && SSH_EXEC_OPTIONS.test(`${value} `))
      return `-o ${value.split(/[= ]/)[0]} runs a local command`;
    if (t === '-F' || t.startsWith('-F')) return '-F loads a config file that can set ProxyCommand';
    if (t === '-S' && _cmd.argv[0]?.text !== 'ssh') return '-S names the program used to connect';
  }
  return undefined;
}

const AWK_EXEC = /system\s*\(|\|\s*getline|\|&|(?:print|printf)[^;{}]*\|/;
const SED_EXEC_COMMAND =
  /(?:^|[;\n{}])\s*(?:\d+|\$|\/(?:[^/\\\n]|\\.)*\/)?(?:\s*,\s*(?:\d+|\$|\/(?:[^/\\\n]|\\.)*\/))?\s*!?\s*e(?:\s|;|$)/;
const SED_S_EXEC_FLAG =
  /(?:^|[;\n{}\s])s([^\\\n\w\s])(?:(?!\1)[^\\\n]|\\.)*\1(?:(?!\1)[^\\\n]|\\.)*\1[gpiImM0-9w]*e/;

/** The program text of awk/sed: `-e` values, else the first operand. */
function programTexts(args: Word[], valueOptions: Set<string>, scriptOptions: Set<string>): string[] {
  const out: string[] = [];
  let firstOperand: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (scriptOptions.has(t)) {
      out.push(args[i + 1]?.text ?? '');
      i++;
      continue;
    }
    const attached = [...scriptOptions].find((o) => o.length === 2 && t.startsWith(o) && t.length > 2);
    if (attached) {
      out.push(t.slice(2));
      continue;
    }
    if (t.startsWith('--expression=') || t.startsWith('--source=')) {
      out.push(t.slice(t.indexOf('=') + 1));
      continue;
    }
    if (valueOptions.has(t)) {
      i++;
      continue;
    }
    if (t.startsWith('-') && t.length > 1) continue;
    firstOperand ??= t;
  }
  if (out.length === 0 && firstOperand !== undefined) out.push(firstOperand);
  return out;
}

const GIT_EXEC_SUBCOMMAND: Record<string, (args: Word[]) => string | undefined> = {
  rebase: (a) => (anyText(a, /^(-x|--exec(=|$))/) ? 'rebase --exec runs a command per commit' : undefined),
  difftool: (a) => (anyText(a, /^(-x|--extcmd(=|$))/) ? 'difftool --extcmd runs a program' : undefined),
  mergetool: (a) =>
    anyText(a, /^(-t|--tool(=|$))/) ? 'mergetool --tool runs a configured program' : undefined,
  bisect: (a) => (a[0]?.text === 'run' ? 'bisect run runs a command' : undefined),
  submodule: (a) =>
    a.some((w) => w.text === 'foreach') ? 'submodule foreach runs a shell command' : undefined,
  'filter-branch': () => 'filter-branch runs shell filters',
  'filter-repo': () => 'filter-repo runs callbacks',
  grep: (a) => (anyText(a, /^(-O|--open-files-in-pager)/) ? 'grep -O runs a pager program' : undefined),
  archive: (a) => (anyText(a, /^--exec(=|$)/) ? 'archive --exec names a remote program' : undefined),
};

export const EXECUTION_PRIMITIVE_RULES: Readonly<Record<string, Rule>> = {
  git: (cmd, args) => {
    const sub = gitSubcommand(cmd);
    const globals = sub ? args.slice(0, sub.index - 1) : args;
    if (
      globals.some(
        (w) => w.text === '-c' || (w.text.startsWith('-c') && w.text.length > 2 && !w.text.startsWith('--')),
      )
    ) {
      return 'git -c sets configuration (pagers, ssh commands, hooks, aliases) for this run';
    }
    if (globals.some((w) => w.text.startsWith('--config-env')))
      return 'git --config-env sets configuration from the environment';
    if (globals.some((w) => w.text.startsWith('--exec-path=')))
      return 'git --exec-path loads git helper programs from another directory';
    if (globals.some((w) => w.text === '--git-dir' || w.text.startsWith('--git-dir='))) {
      return 'git --git-dir uses another repository, whose config can set pagers, hooks and fsmonitor programs';
    }
    if (anyText(args, /^--(upload-pack|receive-pack)(=|$)/))
      return '--upload-pack/--receive-pack name a program to run';
    if (sub) return getOwn(GIT_EXEC_SUBCOMMAND, sub.name)?.(args.slice(sub.index));
    return undefined;
  },
  rg: (_c, a) =>
    longOption(a, 'pre', 3) && !longOption(a, 'pre-glob', 5)
      ? 'rg --pre runs a program on every searched file'
      : longOption(a, 'hostname-bin', 3)
        ? 'rg --hostname-bin runs a program'
        : undefined,
  sort: (_c, a) =>
    longOption(a, 'compress-program', 4) ? 'sort --compress-program runs a program' : undefined,
  tar: (_c, a) => {
    for (const name of [
      'to-command',
      'checkpoint-action',
      'use-compress-program',
      'info-script',
      'new-volume-script',
      'rsh-command',
      'rmt-command',
    ]) {
      if (longOption(a, name, name.length)) return `tar --${name} runs a program`;
    }
    return shortOption(a, 'I')
      ? 'tar -I runs a compression program'
      : shortOption(a, 'F')
        ? 'tar -F runs a volume script'
        : undefined;
  },
  zip: (_c, a) => (anyText(a, /^(-TT|--unzip-command)/) ? 'zip -TT runs a test command' : undefined),
  make: (_c, a) => (anyText(a, /^(-E|--eval)/) ? 'make --eval evaluates makefile code' : undefined),
  split: (_c, a) =>
    longOption(a, 'filter', 3) ? 'split --filter runs a shell command per chunk' : undefined,
  sqlite3: (_c, a) =>
    anyText(a, /(^|\s|;)\.(shell|system|once|output|import|load)\b/) || anyText(a, /^-cmd$/)
      ? 'sqlite3 dot-commands run programs or touch files'
      : undefined,
  ssh: sshRule,
  scp: sshRule,
  sftp: sshRule,
  rsync: (_c, a) =>
    anyText(a, /^--(rsh|rsync-path)(=|$)/) || shortOption(a, 'e')
      ? 'rsync -e/--rsh/--rsync-path runs a program'
      : undefined,
  npm: (_c, a) =>
    a[0] && ['exec', 'x'].includes(a[0].text) ? `npm ${a[0].text} runs a package binary` : undefined,
  pnpm: (_c, a) =>
    a[0] && ['exec', 'dlx'].includes(a[0].text) ? `pnpm ${a[0].text} runs a package binary` : undefined,
  yarn: (_c, a) =>
    a[0] && ['exec', 'dlx'].includes(a[0].text) ? `yarn ${a[0].text} runs a package binary` : undefined,
  bun: (_c, a) => (a[0]?.text === 'x' ? 'bun x runs a package binary' : undefined),
  awk: awkRule,
  gawk: awkRule,
  mawk: awkRule,
  nawk: awkRule,
  sed: (_c, a) => {
    const texts = programTexts(
      a,
      new Set(['-l', '--line-length']),
      new Set(['-e', '--expression', '-f', '--file']),
    );
    return texts.some((t) => SED_EXEC_COMMAND.test(t) || SED_S_EXEC_FLAG.test(t))
      ? 'the sed script runs a shell command (e)'
      : undefined;
  },
  less: (_c, a) =>
    anyText(a, /^\+.*[!|]/) || anyText(a, /^(-k|--lesskey-file|--lesskey-src)/)
      ? 'less runs a startup command or loads key bindings'
      : undefined,
  more: (_c, a) => (anyText(a, /^\+.*!/) ? 'more runs a startup command' : undefined),
  man: (_c, a) =>
    anyText(a, /^(-P|-H|--pager|--html|--browser)/) ? 'man -P/-H runs the named pager or browser' : undefined,
  xargs: () => undefined,
};

function awkRule(_cmd: SimpleCommand, args: Word[]): string | undefined {
  const texts = programTexts(
    args,
    new Set(['-F', '-v', '--assign', '--field-separator']),
    new Set(['-e', '--source']),
  );
  return texts.some((t) => AWK_EXEC.test(t)) ? 'the awk program runs commands (system(), pipes)' : undefined;
}

/** Interpreters and shells a wrapper like xargs or find -exec may launch. */
export const LAUNCHED_EXECUTORS = new Set([
  ...SHELL_NAMES,
  'python',
  'python3',
  'perl',
  'ruby',
  'node',
  'php',
  'lua',
  'env',
  'eval',
]);
