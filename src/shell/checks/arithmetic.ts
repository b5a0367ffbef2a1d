/**
 * ARITHMETIC_INJECTION (docs/shell-analysis.md "Arithmetic is code"). Bash evaluates arithmetic
 * recursively: a variable's value is itself parsed as an expression, and an array subscript inside
 * it is expanded, so `x='a[$(id)]'; echo $((x))` runs `id`. Text that comes from outside the
 * command is therefore code wherever bash evaluates arithmetic.
 *
 * Outside values: names bound by `read`, `mapfile`/`readarray`, `printf -v` with expanded
 * arguments, a `for`/`select` over expansions, and assignments whose value is a command
 * substitution (`$(<file)`, `$(cmd)`, backticks, `<(…)`) or another outside value; and command
 * substitutions written inside the arithmetic itself (their output is evaluated). Substitutions
 * whose output can only be a number (`$(date +%s)`, `$(wc -l < f)`, `… | wc -l`, `$(nproc)`,
 * `$(seq …)` lists) are data.
 *
 * Arithmetic contexts: `$(( ))`, `(( ))`, C-style `for (( ))`, `let`, operands of `[[ … -eq … ]]`
 * (and -ne/-lt/-le/-gt/-ge), array subscripts (`a[$x]=`, `${a[$x]}`), substring offsets
 * (`${v:$x}`), and values assigned to `declare -i`/`local -i`/`typeset -i` variables.
 * The analysis is flow-insensitive over the line (a name bound anywhere is an outside value
 * everywhere), which errs on the side of asking.
 */
import type { Finding } from '../../core/permission-types.js';
import type { SimpleCommand, SplitResult } from '../types.js';
import { boundNames } from './bindings.js';
import { type Detector, finding, programOf } from './detector.js';

const SUBSTITUTION = /\$\(|`|<\(/;
const NUMERIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
const DECLARERS = new Set(['declare', 'typeset', 'local']);

/** Command substitution bodies whose output is only ever a number. */
const NUMERIC_PRODUCER =
  /^\s*(?:date\s+['"]?\+%[sNYmdHMSjuwVUyGgC]+['"]?|nproc(?:\s+--all)?|id\s+-[ug]|getconf\s+\w+|seq(?:\s+-?\d+){1,3}|git\s+rev-list\s+--count\s+[\w./~^@-]+|stat\s+-c\s*['"]?%[sYXZWi]['"]?\s+\S+|wc\s+-[lcwm]\s*(?:<\s*[^\s;|&<>()]+)?|[^;&()`]*\|\s*wc\s+-[lcwm]\s*)\s*$/;

/**
 * The bodies of `$(…)` in `text` (nesting and quotes counted roughly), or undefined when the text
 * has a backtick or `<(` (which are never treated as numeric) or an unterminated substitution.
 */
function substitutionBodies(text: string): string[] | undefined {
  if (text.includes('`') || text.includes('<(')) return undefined;
  const out: string[] = [];
  for (let i = text.indexOf('$('); i >= 0; i = text.indexOf('$(', i + 1)) {
    if (text[i + 2] === '(') continue; // $(( … )) is arithmetic, not a substitution
    let depth = 0;
    let end = -1;
    for (let j = i + 1; j < text.length; j++) {
      const c = text[j];
      if (c === '(') depth++;
      else if (c === ')' && --depth === 0) {
        end = j;
        break;
      }
    }
    if (end < 0) return undefined;
    out.push(text.slice(i + 2, end));
    i = end;
  }
  return out;
}

/** Why `text` (an arithmetic expression) runs outside code, or undefined. */
function injection(text: string, tainted: ReadonlySet<string>): string | undefined {
  if (SUBSTITUTION.test(text)) {
    const bodies = substitutionBodies(text);
    if (!bodies || bodies.some((b) => !NUMERIC_PRODUCER.test(b)))
      return 'evaluates the output of a command as arithmetic';
  }
  if (tainted.size === 0) return undefined;
  for (const m of text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
    const name = m[0];
    if (tainted.has(name)) return `evaluates ${name}, a value read from outside the command`;
  }
  return undefined;
}

/** Names whose values come from outside the command (see the module comment). */
function taintedNames(split: SplitResult): Set<string> {
  const tainted = new Set<string>();
  const refersTainted = (value: string) =>
    [...value.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)].some((m) => tainted.has(m[1] as string));
  for (const b of split.bindings ?? []) {
    const bodies = b.dynamic ? substitutionBodies(b.values) : [];
    const numeric =
      bodies !== undefined && bodies.length > 0 && bodies.every((x) => NUMERIC_PRODUCER.test(x));
    if (b.dynamic && !numeric) tainted.add(b.name);
  }
  // Two passes so a value copied from a name bound later in the line is still seen.
  for (let pass = 0; pass < 2; pass++) {
    for (const cmd of split.commands) {
      for (const b of boundNames(cmd)) {
        if (b.binder !== 'printf -v' || cmd.argv.some((w) => w.dynamic)) tainted.add(b.name);
      }
      for (const a of cmd.assignments) {
        if (SUBSTITUTION.test(a.value)) {
          const bodies = substitutionBodies(a.value);
          if (!bodies || bodies.some((x) => !NUMERIC_PRODUCER.test(x))) tainted.add(a.name);
        } else if (refersTainted(a.value)) tainted.add(a.name);
      }
    }
  }
  return tainted;
}

/** Arithmetic texts of one command: `((`, `let`, `[[ -eq ]]` operands, `declare -i` values. */
function commandArithmetic(cmd: SimpleCommand, intVars: Set<string>): string[] {
  const program = programOf(cmd);
  const argv = cmd.argv;
  const out: string[] = [];
  if (program === '((')
    out.push(
      argv
        .slice(1, -1)
        .map((w) => w.text)
        .join(' '),
    );
  else if (program === 'let') out.push(...argv.slice(1).map((w) => w.text));
  else if (program === '[[') {
    for (let i = 1; i < argv.length - 1; i++)
      if (NUMERIC_TESTS.has((argv[i] as { text: string }).text))
        out.push(argv[i - 1]?.text ?? '', argv[i + 1]?.text ?? '');
  } else if (program && DECLARERS.has(program)) {
    const flags = argv.slice(1).filter((w) => w.text.startsWith('-') || w.text.startsWith('+'));
    if (flags.some((w) => /^-[A-Za-z]*i/.test(w.text))) for (const a of cmd.assignments) intVars.add(a.name);
  }
  for (const a of cmd.assignments) if (intVars.has(a.name)) out.push(a.value);
  return out;
}

/** Arithmetic inside a parameter expansion: a subscript `${a[…]}` or an offset `${v:…}`. */
function expansionArithmetic(text: string): string | undefined {
  const m = /^\$\{[!#]?[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\]|:(?![-=?+]).*)/s.exec(text);
  return m?.[1];
}

export const ARITHMETIC_INJECTION: Detector = {
  id: 'ARITHMETIC_INJECTION',
  reason:
    'Bash evaluates arithmetic recursively (array subscripts inside values are expanded, `a[$(cmd)]` runs cmd), so a value read from input, a file or a command output used in $(( )), (( )), let, [[ -eq ]], subscripts, substring offsets or declare -i is code.',
  detect(_command, split) {
    const tainted = taintedNames(split);
    const out: Finding[] = [];
    for (const n of split.notes ?? []) {
      let text: string | undefined;
      if (n.kind === 'arithmetic-expansion' || n.kind === 'arithmetic-command') text = n.text;
      else if (n.kind === 'subscript') text = n.text.slice(n.text.indexOf('['));
      else if (n.kind === 'parameter-expansion') text = expansionArithmetic(n.text);
      const why = text === undefined ? undefined : injection(text, tainted);
      if (why) {
        out.push(finding(this, `${JSON.stringify(n.text.slice(0, 60))} ${why}.`));
        return out;
      }
    }
    const intVars = new Set<string>();
    for (const [i, cmd] of split.commands.entries()) {
      for (const text of commandArithmetic(cmd, intVars)) {
        const why = injection(text, tainted);
        if (why) {
          out.push(finding(this, `The arithmetic ${JSON.stringify(text.slice(0, 60))} ${why}.`, i));
          return out;
        }
      }
    }
    return out;
  },
};
