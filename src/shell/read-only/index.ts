/**
 * Read-only validation of one sub-command (codex `is_safe_command` style: an allowlist of programs
 * and, per program, the options and sub-commands that keep it read-only; anything else is not).
 *
 * Sequence: env assignments (a dangerous name, or one the shell would act on, disqualifies) →
 * redirections (output into a file disqualifies; `/dev/null`, `/dev/stdout`, `/dev/stderr`, fd
 * duplication and input redirection do not) → the words as written, launchers peeled
 * (launchers.ts) → the program's validator. A path-qualified (`./cat`, `/bin/cat`) or
 * PATH-shadowed program is not the trusted tool.
 *
 * Path constraints are NOT judged here: the paths a read-only command reads come back as effects
 * and the permission engine checks them against the working directories.
 *
 * Source: docs/security-round-2.md, "Normalising before rule matching"; the Claude Code permissions docs
 * "Read-only command set"; docs/architecture.md readOnlyValidation.ts.
 */
import type { Redirect, SimpleCommand, Word } from '../types.js';
import { coreUtilValidators } from './core-utils.js';
import { gitValidator } from './git.js';
import { inspectValidators } from './inspect.js';
import { validateLaunch } from './launchers.js';
import { DANGEROUS_VARIABLE, miscValidators } from './misc.js';
import { searchValidators } from './search.js';
import { textValidators } from './text.js';
import { no, type ReadOnlyVerdict, type Validator, yes } from './verdict.js';

export type { ReadOnlyVerdict, Validator } from './verdict.js';

/** Every program the validator knows, by name. */
export const READ_ONLY_VALIDATORS: Readonly<Record<string, Validator>> = {
  ...inspectValidators,
  ...coreUtilValidators,
  ...textValidators,
  ...searchValidators,
  ...miscValidators,
  git: gitValidator,
};

/** Redirect targets that are not files. */
export const NON_FILE_TARGETS = new Set([
  '/dev/null',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/stdin',
  '/dev/tty',
]);

/** True when a redirection writes a file (not /dev/null, not an fd duplication). */
export function redirectWritesFile(r: Redirect): boolean {
  const op = r.op;
  if (op === '<' || op === '<<' || op === '<<-' || op === '<<<') return false;
  if (op === '>&' || op === '<&') {
    // `2>&1`, `>&-`: fd duplication/close; `>& file` (no digit) writes a file.
    return !/^(\d+|-)$/.test(r.target.text) && !NON_FILE_TARGETS.has(r.target.text);
  }
  return !NON_FILE_TARGETS.has(r.target.text);
}

export interface ReadOnlyOptions {
  /** An earlier sub-command changed PATH (or hash/alias state): program names are not trusted. */
  pathShadowed?: boolean;
}

const ASSIGNMENT_RAW = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/** Words as written minus leading assignment words (if the splitter kept them in fullArgv). */
function launchWords(cmd: SimpleCommand): readonly Word[] {
  const words = cmd.fullArgv.length ? cmd.fullArgv : cmd.argv;
  let k = 0;
  while (k < words.length && ASSIGNMENT_RAW.test((words[k] as Word).raw)) k++;
  return k ? words.slice(k) : words;
}

/**
 * Is this sub-command read-only? Never throws.
 * @returns `{readOnly, reason}`; `reason` names the first thing that disqualified it, or why it is fine.
 */
export function checkReadOnly(cmd: SimpleCommand, options: ReadOnlyOptions = {}): ReadOnlyVerdict {
  for (const a of cmd.assignments) {
    if (a.dangerous || DANGEROUS_VARIABLE.test(a.name))
      return no(`assignment ${a.name}=… changes what the command runs or loads`);
  }
  for (const r of cmd.redirects) {
    if (r.op === '<>') return no(`<> opens ${r.target.text} for writing`);
    if (redirectWritesFile(r)) return no(`output redirected into a file (${r.op} ${r.target.raw})`);
  }
  if (cmd.argv.length === 0 && launchWords(cmd).length === 0) {
    return yes(cmd.assignments.length ? 'only sets shell variables' : 'no command');
  }
  if (options.pathShadowed) return no('PATH (or the command hash) was changed earlier in this command line');
  return validateLaunch(launchWords(cmd), cmd, READ_ONLY_VALIDATORS);
}

/** Read-only check of a bare word list (argv as strings), for callers without a parsed command. */
export function isReadOnlyArgv(argv: readonly Word[]): ReadOnlyVerdict {
  const cmd: SimpleCommand = {
    argv: [...argv],
    fullArgv: [...argv],
    assignments: [],
    wrappers: [],
    redirects: [],
    raw: argv.map((w) => w.raw).join(' '),
    via: 'top',
    start: 0,
    end: 0,
    connector: '',
    inSubshell: false,
  };
  return checkReadOnly(cmd);
}
