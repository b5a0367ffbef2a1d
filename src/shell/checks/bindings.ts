/**
 * Which variable names a command binds, read from its words as bash reads them (bash(1) "SHELL
 * BUILTIN COMMANDS"): `read [-a NAME] NAME…`, `mapfile`/`readarray [ARRAY]` (default MAPFILE),
 * `getopts OPTSTRING NAME`, `printf -v NAME`. Shared by the variable checks (a binder that sets
 * PATH is a finding) and the arithmetic check (a value read from input is data an attacker may
 * control).
 */
import type { SimpleCommand, Word } from '../types.js';
import { programOf } from './detector.js';

/** Options of `read` that take a value (the value of `-a` is a bound name). */
const READ_VALUED = new Set(['a', 'd', 'i', 'n', 'N', 'p', 't', 'u']);
/** Options of `mapfile`/`readarray` that take a value. */
const MAPFILE_VALUED = new Set(['d', 'n', 'O', 's', 'u', 'C', 'c']);

/** One bound name, as written. */
export interface BoundName {
  name: string;
  /** `read`, `mapfile`, `getopts`, `printf -v`. */
  binder: string;
}

/** Names `cmd` binds; empty for any other program. Dynamic words are skipped (their name is unknown). */
/** The programs `boundNames` reads (the cases below); any other binds nothing. */
const BINDERS: ReadonlySet<string> = new Set(['read', 'mapfile', 'readarray', 'getopts', 'printf']);

export function boundNames(cmd: SimpleCommand): BoundName[] {
  const program = programOf(cmd);
  if (!program || !BINDERS.has(program)) return [];
  const args = cmd.argv.slice(1);
  switch (program) {
    case 'read':
      return optionNames(args, READ_VALUED, 'a', 'read', undefined);
    case 'mapfile':
    case 'readarray':
      return optionNames(args, MAPFILE_VALUED, undefined, program, 'MAPFILE').slice(-1);
    case 'getopts': {
      const w = args.filter((x) => !x.text.startsWith('-'))[1];
      return w && !w.dynamic ? [{ name: w.text, binder: 'getopts' }] : [];
    }
    case 'printf': {
      const out: BoundName[] = [];
      for (let i = 0; i < args.length; i++) {
        const t = (args[i] as Word).text;
        if (t === '--') break;
        if (t === '-v' && args[i + 1] && !args[i + 1]?.dynamic)
          out.push({ name: args[i + 1]?.text ?? '', binder: 'printf -v' });
        else if (t.startsWith('-v') && t.length > 2) out.push({ name: t.slice(2), binder: 'printf -v' });
        if (!t.startsWith('-')) break;
      }
      return out.map((b) => ({ ...b, name: b.name.replace(/\[.*$/s, '') }));
    }
    default:
      return [];
  }
}

/**
 * Operand names after bundled short options; `valued` options skip their value, `nameOption`'s
 * value is itself a name. `fallback` is the name bound when no operand is given.
 */
function optionNames(
  args: readonly Word[],
  valued: ReadonlySet<string>,
  nameOption: string | undefined,
  binder: string,
  fallback: string | undefined,
): BoundName[] {
  const out: BoundName[] = [];
  let optionsDone = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (!optionsDone && t === '--') {
      optionsDone = true;
      continue;
    }
    if (!optionsDone && t.startsWith('-') && t.length > 1 && !w.dynamic) {
      for (let k = 1; k < t.length; k++) {
        const c = t[k] as string;
        if (!valued.has(c)) continue;
        const attached = t.slice(k + 1);
        const value = attached || args[i + 1]?.text;
        if (!attached) i++;
        if (c === nameOption && value) out.push({ name: value, binder });
        break;
      }
      continue;
    }
    optionsDone = true;
    if (!w.dynamic) out.push({ name: t, binder });
  }
  if (out.length === 0 && fallback) out.push({ name: fallback, binder });
  return out;
}
