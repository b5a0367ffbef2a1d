/**
 * The vocabulary of read-only validation: a verdict with its reason, a per-program validator, and
 * `byTable`, which turns an option table into a validator (codex `is_safe_command` style: every
 * option must be known and safe, everything else is not read-only).
 */
import type { SimpleCommand, Word } from '../types.js';
import { type ArgItem, compileOptions, type OptionTable, scanArgs } from './options.js';

/** Whether one sub-command is proven read-only, and why (or why not). */
export interface ReadOnlyVerdict {
  readOnly: boolean;
  reason: string;
}

/** Judges the arguments (argv without the program) of one program. Never throws. */
export type Validator = (args: readonly Word[], cmd: SimpleCommand) => ReadOnlyVerdict;

export function yes(reason: string): ReadOnlyVerdict {
  return { readOnly: true, reason };
}

export function no(reason: string): ReadOnlyVerdict {
  return { readOnly: false, reason };
}

/** Validator that accepts any arguments (echo, true, printf without -v …). */
export function anyArgs(reason: string): Validator {
  return () => yes(reason);
}

export interface TableRules {
  /** Most operands allowed (e.g. `uniq IN OUT` writes OUT, so uniq allows 1). */
  maxOperands?: number;
  /** Extra check on the scanned items; return a verdict to override, undefined to accept. */
  check?: (items: ArgItem[], cmd: SimpleCommand) => ReadOnlyVerdict | undefined;
}

/** The first item that disqualifies read-only under a compiled table, as a reason, or undefined. */
export function disqualifier(
  program: string,
  items: readonly ArgItem[],
  hasUnsafe: boolean,
): string | undefined {
  for (const it of items) {
    if (it.kind === 'unknown') return `${program}: option ${it.text} is not known to be read-only`;
    if (it.kind === 'option' && it.unsafe) return `${program} ${it.name}: ${it.unsafe}`;
    if (it.kind === 'dynamic' && hasUnsafe)
      return `${program}: an expansion (${it.word.raw}) in option position could become an unsafe option`;
  }
  return undefined;
}

/**
 * A validator from an option table: every option known and safe, plus the rules. The table (given
 * as a function at module level, so its literal is not built at load either) is built and compiled
 * on the validator's first use: a `gantry check` or hook call meets one or two programs, not the
 * hundred the tables cover (docs/startup.md).
 */
export function byTable(
  program: string,
  table: OptionTable | (() => OptionTable),
  rules: TableRules = {},
): Validator {
  let compiled: ReturnType<typeof compileOptions> | undefined;
  return (args, cmd) => {
    compiled ??= compileOptions(typeof table === 'function' ? table() : table);
    const items = scanArgs(args, compiled);
    const bad = disqualifier(program, items, compiled.hasUnsafe);
    if (bad) return no(bad);
    if (rules.maxOperands !== undefined) {
      const n = items.filter((it) => it.kind === 'operand' || it.kind === 'dynamic').length;
      if (n > rules.maxOperands)
        return no(`${program} with more than ${rules.maxOperands} operand(s) writes or changes state`);
    }
    const extra = rules.check?.(items, cmd);
    if (extra) return extra;
    return yes(`${program} with read-only options`);
  };
}
