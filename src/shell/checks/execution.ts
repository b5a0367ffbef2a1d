/**
 * Checks for code that runs beyond what the command line shows: execution primitives in arguments
 * (primitives.ts), `eval`/`source`/`.` and friends, privilege wrappers, wrappers that change the
 * directory, and shells that read their script from a pipe (docs/security-round-2.md "`eval`,
 * `source`/`.`", "Execution primitives stay findings under allow rules"; the Claude Code permissions docs "Exec-style
 * wrappers … can never be prefix-approved").
 */
import type { Finding } from '../../core/permission-types.js';
import type { Word } from '../types.js';
import { type Detector, finding, programsOf } from './detector.js';
import { EXECUTION_PRIMITIVE_RULES, LAUNCHED_EXECUTORS } from './primitives.js';
import { hashBindsName } from './shell-state.js';
import { getOwn } from '../../core/get-own.js';

const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

export const EXECUTION_PRIMITIVE: Detector = {
  id: 'EXECUTION_PRIMITIVE',
  reason:
    'An option or program text that makes an ordinary program run another program or shell (git -c, rg --pre, sort --compress-program, tar --to-command, sed e, awk system(), find -exec, xargs sh …) is arbitrary execution even when the program itself is allowed.',
  detect(_command, split) {
    const programs = programsOf(split);
    const out: Finding[] = [];
    split.commands.forEach((cmd, i) => {
      const program = programs[i];
      if (!program) return;
      const rule = getOwn(EXECUTION_PRIMITIVE_RULES, program);
      const why = rule?.(cmd, cmd.argv.slice(1));
      if (why) {
        out.push(finding(this, `${why}.`, i));
        return;
      }
      if (program === 'find') {
        const primary = cmd.argv.find((w) => FIND_EXEC.has(w.text));
        if (primary) out.push(finding(this, `find ${primary.text} runs a program for every file found.`, i));
        return;
      }
      if (cmd.wrappers.includes('xargs') && LAUNCHED_EXECUTORS.has(program)) {
        out.push(finding(this, `xargs runs ${program}, which executes code built from its input.`, i));
      }
    });
    return out;
  },
};

const EVAL_PROGRAMS: Readonly<Record<string, string>> = {
  eval: 'evaluates its arguments as shell code',
  source: 'runs a file as shell code in the current shell',
  '.': 'runs a file as shell code in the current shell',
};

/** The operands of a command no rule below reads them for: not copied. */
const NO_WORDS: readonly Word[] = [];

export const EVAL_OR_SOURCE: Detector = {
  id: 'EVAL_OR_SOURCE',
  reason:
    '`eval`, `source`/`.`, `trap CMD`, `enable -f`, `hash -p` and `alias x=…` run or install code that the command line does not show (file contents, strings evaluated later, replaced command lookups).',
  detect(_command, split) {
    const programs = programsOf(split);
    const out: Finding[] = [];
    split.commands.forEach((cmd, i) => {
      const program = programs[i];
      if (!program || cmd.argv[0]?.text.includes('/')) return;
      // The operands are read by the trap and alias rules only.
      const args =
        program === 'trap' || program === 'alias'
          ? cmd.argv.slice(1).filter((w) => !w.text.startsWith('-'))
          : NO_WORDS;
      const why =
        getOwn(EVAL_PROGRAMS, program) ??
        (program === 'trap' && args.length >= 2
          ? 'installs a command to run later on a signal'
          : undefined) ??
        (program === 'enable' && cmd.argv.some((w) => w.text.startsWith('-') && w.text.includes('f'))
          ? 'loads a builtin from a shared library'
          : undefined) ??
        (program === 'hash' && hashBindsName(cmd.argv)
          ? 'changes which file a command name runs'
          : undefined) ??
        (program === 'alias' && args.some((w) => w.text.includes('='))
          ? 'defines an alias that changes what a later command name runs'
          : undefined);
      if (why) out.push(finding(this, `${program} ${why}.`, i));
    });
    return out;
  },
};

const PRIVILEGE_PROGRAMS = new Set(['sudo', 'doas', 'su', 'pkexec', 'run0', 'runuser', 'sudoedit']);

export const PRIVILEGE_ESCALATION: Detector = {
  id: 'PRIVILEGE_ESCALATION',
  reason:
    'sudo, doas, su, pkexec and run0 run a command as another user (usually root); that always needs a person to decide.',
  detect(_command, split) {
    const programs = programsOf(split);
    const out: Finding[] = [];
    split.commands.forEach((cmd, i) => {
      const program = programs[i];
      const wrapper = cmd.wrappers.find((w) => PRIVILEGE_PROGRAMS.has(w));
      const via = wrapper ?? (program && PRIVILEGE_PROGRAMS.has(program) ? program : undefined);
      if (via) out.push(finding(this, `The command runs through ${via} as another user.`, i));
    });
    return out;
  },
};

export const WRAPPER_CHANGES_DIRECTORY: Detector = {
  id: 'WRAPPER_CHANGES_DIRECTORY',
  reason:
    '`env -C DIR`, `sudo -D DIR` and `sudo -R DIR` run the command in another directory or root, so its relative paths do not mean what they seem.',
  detect(_command, split) {
    const out: Finding[] = [];
    split.commands.forEach((cmd, i) => {
      const p = cmd.wrapperPaths?.find((x) => x.role === 'chdir');
      if (p)
        out.push(
          finding(
            this,
            `${p.wrapper} runs the command in ${JSON.stringify(p.word.text)}; its relative paths resolve there.`,
            i,
          ),
        );
    });
    return out;
  },
};

export const SHELL_SCRIPT_FROM_STDIN: Detector = {
  id: 'SHELL_SCRIPT_FROM_STDIN',
  reason:
    'A shell that reads its script from a pipe (`curl … | sh`, `cat x | bash`) runs text that is only known at run time.',
  detect(_command, split) {
    const s = (split.scripts ?? []).find((x) => x.via === 'stdin');
    return s
      ? [
          finding(
            this,
            'A shell reads its script from standard input (a pipe, a terminal or an inherited descriptor); that script cannot be checked.',
          ),
        ]
      : [];
  },
};
