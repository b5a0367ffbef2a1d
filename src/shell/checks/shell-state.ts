/**
 * Builtins that change what later words of the same command line do (docs/shell-analysis.md
 * "Shell state"). The analysis reads every word as a default bash reads it; these builtins make
 * that reading wrong for the rest of the line, so each is a finding:
 *
 * - `SHELL_OPTION_CHANGE`: `set`/`shopt` options that change how later words are expanded or
 *   executed (one row per option below, each with its reason), `set -a` when a dangerous variable
 *   is assigned after it, and `enable -n` (a builtin's name then runs a program from PATH).
 * - `NAMEREF_DECLARATION`: `declare -n`/`local -n`/`typeset -n` make a name an alias of another
 *   variable, so a later harmless-looking assignment writes whatever the reference names (PATH…).
 *
 * Variables bound by loops and builtins (`for PATH in …`, `read LD_PRELOAD`) are
 * DANGEROUS_VARIABLES (variables.ts); `hash -p`, `alias`, `enable -f` are EVAL_OR_SOURCE.
 */
import type { Finding } from '../../core/permission-types.js';
import { type Detector, finding, programsOf } from './detector.js';

/** `set` single-letter options (turned on with `-X`, off with `+X`): [letter, on?, reason]. */
const SET_LETTERS: ReadonlyArray<readonly [string, boolean, string]> = [
  ['k', true, 'makes assignment words anywhere in a command environment assignments (`ls PATH=/tmp/x`)'],
  ['B', false, 'turns brace expansion off, so braces are passed as written'],
  ['T', true, 'makes DEBUG and RETURN traps run inside functions and substitutions'],
];

/** `set -o NAME` / `set +o NAME`: [name, on?, reason]. */
const SET_LONG: ReadonlyArray<readonly [string, boolean, string]> = [
  ['keyword', true, 'makes assignment words anywhere in a command environment assignments'],
  ['braceexpand', false, 'turns brace expansion off, so braces are passed as written'],
  ['functrace', true, 'makes DEBUG and RETURN traps run inside functions and substitutions'],
  ['posix', true, 'changes how later words are parsed and which builtins run'],
];

/** `shopt -s NAME`: [name, reason]. */
const SHOPT_SET: ReadonlyArray<readonly [string, string]> = [
  ['expand_aliases', 'expands aliases, so a later command name may run an alias defined in the line'],
  ['dotglob', 'makes globs match dot-files (`cat *` then reads .env)'],
  ['extglob', 'changes how later lines are parsed (extended patterns)'],
  ['nocaseglob', 'makes globs match without regard to case'],
  ['nocasematch', 'makes pattern tests match without regard to case'],
  ['lastpipe', 'runs the last stage of a pipeline in the current shell (a `cd` there persists)'],
  ['sourcepath', 'makes `source NAME` search PATH'],
  ['extdebug', 'makes the DEBUG trap able to skip or change commands'],
  ['failglob', 'makes an unmatched glob an error that skips the command'],
];

/** What a `set` command turns on or off that changes later words, or undefined. */
function setChange(words: readonly string[]): string | undefined {
  for (let i = 0; i < words.length; i++) {
    const t = words[i] as string;
    if (t === '--' || t === '-') return undefined;
    const sign = t[0];
    if ((sign !== '-' && sign !== '+') || t.length < 2) return undefined;
    const on = sign === '-';
    if (t.slice(1) === 'o') {
      const name = words[i + 1];
      i++;
      const row = SET_LONG.find(([n, o]) => n === name && o === on);
      if (row) return `set ${t} ${row[0]} ${row[2]}`;
      continue;
    }
    for (const c of t.slice(1)) {
      const row = SET_LETTERS.find(([l, o]) => l === c && o === on);
      if (row) return `set ${sign}${c} ${row[2]}`;
    }
    if (t.endsWith('o')) {
      // `-eo NAME`: a bundled -o takes the next word as the option name.
      const name = words[i + 1];
      i++;
      const row = SET_LONG.find(([n, o]) => n === name && o === on);
      if (row) return `set ${sign}o ${row[0]} ${row[2]}`;
    }
  }
  return undefined;
}

/** True when `set` turns on allexport (`-a`, `-o allexport`). */
function setsAllexport(words: readonly string[]): boolean {
  for (let i = 0; i < words.length; i++) {
    const t = words[i] as string;
    if (t === '-o' && words[i + 1] === 'allexport') return true;
    if (/^-[A-Za-z]*a/.test(t) && t !== '-o') return true;
    if (!t.startsWith('-') && !t.startsWith('+')) return false;
  }
  return false;
}

/** The words of a command other than set/shopt/enable: not read, so not copied. */
const NO_WORDS: readonly string[] = [];

export const SHELL_OPTION_CHANGE: Detector = {
  id: 'SHELL_OPTION_CHANGE',
  reason:
    'set/shopt options that change how later words are expanded or run (set -k, set +B, shopt -s dotglob/expand_aliases/extglob …), set -a before a dangerous assignment, and enable -n make the rest of the line mean something other than what was analysed.',
  detect(_command, split) {
    const programs = programsOf(split);
    const out: Finding[] = [];
    let allexportAt: number | undefined;
    split.commands.forEach((cmd, i) => {
      const program = programs[i];
      const words =
        program === 'set' || program === 'shopt' || program === 'enable'
          ? cmd.argv.slice(1).map((w) => w.text)
          : NO_WORDS;
      let why: string | undefined;
      if (program === 'set') {
        why = setChange(words);
        if (setsAllexport(words)) allexportAt ??= i;
      } else if (program === 'shopt' && words.includes('-s')) {
        const row = SHOPT_SET.find(([name]) => words.includes(name));
        if (row) why = `shopt -s ${row[0]} ${row[1]}`;
      } else if (program === 'enable' && words.some((w) => /^-[a-z]*n/.test(w))) {
        why = 'enable -n disables a builtin, so its name runs a program found in PATH';
      }
      if (allexportAt !== undefined && i > allexportAt && cmd.argv.length === 0) {
        const a = cmd.assignments.find((x) => x.dangerous);
        if (a) why ??= `set -a exports ${a.name} to every later program`;
      }
      if (cmd.argv.some((w) => w.dynamic) && (program === 'set' || program === 'shopt'))
        why ??= `${program} takes options from an expansion`;
      if (why) out.push(finding(this, `${why}.`, i));
    });
    return out;
  },
};

export const NAMEREF_DECLARATION: Detector = {
  id: 'NAMEREF_DECLARATION',
  reason:
    'declare -n / local -n / typeset -n make a variable a reference to another one, so a later assignment to a harmless-looking name writes the variable it names (PATH, LD_PRELOAD, BASH_ENV …).',
  detect(_command, split) {
    const programs = programsOf(split);
    const out: Finding[] = [];
    split.commands.forEach((cmd, i) => {
      const program = programs[i];
      if (program !== 'declare' && program !== 'local' && program !== 'typeset') return;
      for (const w of cmd.argv.slice(1)) {
        if (w.text === '--' || !w.text.startsWith('-')) break;
        if (w.dynamic || /^-[A-Za-z]*n/.test(w.text)) {
          out.push(finding(this, `${program} ${w.text} declares a name reference.`, i));
          return;
        }
      }
    });
    return out;
  },
};

/**
 * True when `hash` binds a command name to a file: its `-p FILE` option, read as bash's getopt
 * reads `hash`'s options (`-dlp:rt`): bundled (`-rp FILE`) or attached (`-pFILE`), up to the first
 * operand or `--`.
 */
export function hashBindsName(argv: ReadonlyArray<{ text: string }>): boolean {
  for (const w of argv.slice(1)) {
    if (w.text === '--' || !w.text.startsWith('-') || w.text === '-') return false;
    if (w.text.slice(1).includes('p')) return true;
  }
  return false;
}
