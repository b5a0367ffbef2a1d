/**
 * Launchers in front of a program (`timeout 5 cat f`, `env -u X ls`, `xargs grep TODO`,
 * `nice -n 10 du`): peeled off one by one, each with its own option rules, until the program
 * that actually runs; that program is then judged by its validator. Works on the words as
 * written (`SimpleCommand.fullArgv`), so the launcher's own options are checked too.
 *
 * Fail closed: privilege and context changers (sudo, doas, su, chroot, unshare, nsenter …),
 * `env -S`, `flock` (creates its lock file), `watch` (runs its arguments through `sh -c`) and
 * `/usr/bin/time -o` are not read-only; a path-qualified program is not the trusted tool.
 *
 * Source: the Claude Code permissions docs "Wrappers stripped before matching"; docs/security-round-2.md "Normalising before rule
 * matching" (transparent wrappers; `./cat` asks) and "xargs (when it launches a read-only command)".
 */
import type { SimpleCommand, Word } from '../types.js';
import { DANGEROUS_VARIABLE } from './misc.js';
import { compiledLazily, compileOptions, scanArgs, words } from './options.js';
import { disqualifier, no, type ReadOnlyVerdict, type Validator, yes } from './verdict.js';
import { getOwn } from '../../core/get-own.js';

/** Programs never read-only whatever follows: they change user, root or namespaces. */
const CONTEXT_CHANGERS = new Set([
  ...words('sudo doas su pkexec runuser chroot unshare nsenter setpriv firejail flatpak-spawn'),
]);

/** Children xargs may launch read-only: their options cannot be turned into writes or exec by appended input. */
const XARGS_SAFE_CHILDREN = new Set([
  ...words('grep egrep fgrep cat head tail wc ls stat du echo printf basename dirname realpath readlink'),
  ...words('nl od strings cmp diff md5sum sha1sum sha256sum sha512sum cksum test true'),
]);

const TIMEOUT = compiledLazily(() => ({
  safe: ['-k=', '--kill-after=', '-s=', '--signal=', '--preserve-status', '--foreground', '-v', '--verbose'],
  stopAtOperand: true,
}));
const NICE = compiledLazily(() => ({ safe: ['-n=', '--adjustment='], numeric: true, stopAtOperand: true }));
const STDBUF = compiledLazily(() => ({
  safe: ['-i=', '-o=', '-e=', '--input=', '--output=', '--error='],
  stopAtOperand: true,
}));
const TIME = compiledLazily(() => ({
  safe: ['-p', '--portability', '-f=', '--format=', '-v', '--verbose', '-q', '--quiet', '-a', '--append'],
  unsafe: { '-o=': 'writes timing output to a file', '--output=': 'writes timing output to a file' },
  stopAtOperand: true,
}));
const ENV = compiledLazily(() => ({
  safe: [
    ...words('-i --ignore-environment -u= --unset= -0 --null -C= --chdir= -v --debug --block-signal=?'),
    ...words('--default-signal=? --ignore-signal=? --list-signal-handling'),
  ],
  unsafe: {
    '-S=': 'splits a string into a command line (a hidden command)',
    '--split-string=': 'splits a string into a command line (a hidden command)',
  },
  stopAtOperand: true,
}));
const IONICE = compiledLazily(() => ({
  safe: ['-c=', '--class=', '-n=', '--classdata=', '-t', '--ignore'],
  stopAtOperand: true,
}));
const SETSID = compiledLazily(() => ({
  safe: ['-c', '--ctty', '-f', '--fork', '-w', '--wait'],
  stopAtOperand: true,
}));
const XARGS = compiledLazily(() => ({
  safe: [
    ...words('-0 --null -a= --arg-file= -d= --delimiter= -E= -e=? --eof=? -I= -i=? --replace=? -L= -l=?'),
    ...words('--max-lines=? -n= --max-args= -P= --max-procs= --process-slot-var= -r --no-run-if-empty -s='),
    ...words('--max-chars= --show-limits -t --verbose -x --exit'),
  ],
  unsafe: {
    '-p': 'prompts on the terminal',
    '--interactive': 'prompts on the terminal',
    '-o': 'reopens the terminal as stdin of the child',
    '--open-tty': 'reopens the terminal as stdin of the child',
  },
  stopAtOperand: true,
}));

/** Words after the options of a launcher (the scan stops at the first operand). */
function afterOptions(
  name: string,
  words: readonly Word[],
  table: ReturnType<typeof compileOptions>,
): { rest: Word[]; bad?: string } {
  const items = scanArgs(words, table, true);
  const bad = disqualifier(name, items, table.hasUnsafe);
  if (bad) return { rest: [], bad };
  const firstOperand = items.find((it) => it.kind === 'operand' || it.kind === 'dynamic');
  if (!firstOperand) return { rest: [] };
  return { rest: words.slice(firstOperand.index) };
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;

/**
 * One launcher step: for a launcher program (`timeout`, `nice`, `env`, `xargs` …) the words of
 * the command it launches (`rest`) and, when its own options disqualify read-only, why (`bad`).
 * Returns undefined when `name` is not a launcher. `env` assignments stay in `rest` (callers
 * judge them with `splitEnvAssignments`).
 */
export function peelLauncher(
  name: string,
  args: readonly Word[],
): { rest: Word[]; bad?: string } | undefined {
  switch (name) {
    case 'timeout': {
      const step = afterOptions(name, args, TIMEOUT());
      if (!step.bad) step.rest = step.rest.slice(1); // DURATION
      return step;
    }
    case 'nice':
      return afterOptions(name, args, NICE());
    case 'stdbuf':
      return afterOptions(name, args, STDBUF());
    case 'time':
      return afterOptions(name, args, TIME());
    case 'ionice':
      return afterOptions(name, args, IONICE());
    case 'setsid':
      return afterOptions(name, args, SETSID());
    case 'nohup':
    case 'builtin':
    case 'noglob':
    case 'nocorrect':
      return { rest: [...args] };
    case 'command': {
      const first = args[0]?.text;
      if (first === '-v' || first === '-V') return { rest: [] };
      return { rest: first === '-p' ? args.slice(1) : [...args] };
    }
    case 'exec': {
      let k = 0;
      while (k < args.length && /^-[cl]+$/.test(args[k]?.text ?? '')) k++;
      if (args[k]?.text === '-a') k += 2;
      return { rest: args.slice(k) };
    }
    case 'env': {
      const step = afterOptions(name, args, ENV());
      if (step.bad) return step;
      const { rest } = splitEnvAssignments(step.rest);
      return { rest };
    }
    case 'xargs':
      return afterOptions(name, args, XARGS());
    default:
      return undefined;
  }
}

/** Leading `NAME=value` words of an `env` command line: the assignments and the words after them. */
export function splitEnvAssignments(words: readonly Word[]): { names: string[]; rest: Word[] } {
  let k = 0;
  const names: string[] = [];
  while (k < words.length) {
    const m = ASSIGNMENT.exec(words[k]?.raw ?? '');
    if (!m) break;
    names.push(m[1] as string);
    k++;
  }
  return { names, rest: words.slice(k) };
}

/**
 * Judges a word list that starts with a program, peeling launchers. `registry` maps program
 * names to validators. Never throws.
 */
export function validateLaunch(
  words: readonly Word[],
  cmd: SimpleCommand,
  registry: Readonly<Record<string, Validator>>,
): ReadOnlyVerdict {
  let ws = words;
  const via: string[] = [];
  for (let guard = 0; guard < 32; guard++) {
    const w0 = ws[0];
    if (!w0) return via.length ? yes(`${via.join(' ')} without a command`) : yes('no command');
    if (w0.dynamic) return no(`the program name is an expansion (${w0.raw})`);
    const name = w0.text;
    if (name.includes('/')) return no(`path-qualified program ${name} is not the trusted tool`);
    const args = ws.slice(1);
    if (CONTEXT_CHANGERS.has(name)) return no(`${name} runs a command as another user or in another context`);
    if (name === 'flock') return no('flock creates its lock file');
    if (name === 'watch') return no('watch runs its arguments through sh -c');
    if (name === 'command' && (args[0]?.text === '-v' || args[0]?.text === '-V'))
      return yes('command -v only prints how a name resolves');
    if (name === 'env') {
      const opts = afterOptions(name, args, ENV());
      if (!opts.bad) {
        const { names, rest } = splitEnvAssignments(opts.rest);
        const bad = names.find((n) => DANGEROUS_VARIABLE.test(n));
        if (bad) return no(`env ${bad}=… changes what the command runs or loads`);
        if (rest.length === 0) return yes('env only prints the environment');
      }
    }
    const step = peelLauncher(name, args);
    if (!step) {
      const v = getOwn(registry, name);
      if (!v) return no(`${name} is not a known read-only program`);
      const verdict = v(args, cmd);
      return via.length && verdict.readOnly ? yes(`${verdict.reason} (via ${via.join(', ')})`) : verdict;
    }
    if (step.bad) return no(step.bad);
    if (name === 'xargs') {
      const child = step.rest[0];
      if (!child) return yes('xargs runs echo (read-only)');
      if (child.dynamic || !XARGS_SAFE_CHILDREN.has(child.text))
        return no(
          `xargs launches ${child.raw}, whose options its input could change (not a read-only child)`,
        );
    }
    via.push(name);
    ws = step.rest;
  }
  return no('too many nested launchers');
}
