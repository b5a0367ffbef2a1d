/**
 * Variable checks (docs/architecture.md ids 6 and 11; docs/security-round-2.md "an assignment is itself a finding
 * when its value contains a substitution or when the name changes what program runs or what it
 * loads", "`$IFS` in any form", "parameter expansions that can evaluate code (`${x@P}`, arithmetic
 * subscripts)"). Plain `$VAR`/`"${VAR}"` in an argument is not a finding.
 */
import type { Finding } from '../../core/permission-types.js';
import { dangerousEnvReason } from '../env-vars.js';
import { boundNames } from './bindings.js';
import { type Detector, finding, programsOf } from './detector.js';

const SUBSTITUTION_IN_VALUE = /\$\(|`|<\(|>\(/;

export const DANGEROUS_VARIABLES: Detector = {
  id: 'DANGEROUS_VARIABLES',
  checkId: 6,
  reason:
    'Assigning a variable that changes what runs or loads (LD_PRELOAD, NODE_OPTIONS, PAGER, GIT_*, PATH, BASH_ENV, BASH_CMDS …), as a prefix, with export/declare, through env/sudo, as a loop variable or with read/mapfile/getopts/printf -v, or assigning the output of a command, changes the meaning of an otherwise allowed command.',
  detect(_command, split) {
    const out: Finding[] = [];
    split.commands.forEach((cmd, i) => {
      for (const a of cmd.assignments) {
        const why = a.dangerous ? (dangerousEnvReason(a.name) ?? 'changes what runs') : undefined;
        if (why) {
          out.push(finding(this, `The command sets ${a.name}, which ${why}.`, i));
          return;
        }
        if (SUBSTITUTION_IN_VALUE.test(a.value)) {
          out.push(finding(this, `The assignment to ${a.name} runs a command to compute its value.`, i));
          return;
        }
      }
      for (const b of boundNames(cmd)) {
        const why = dangerousEnvReason(b.name);
        if (why) {
          out.push(finding(this, `${b.binder} assigns ${b.name}, which ${why}.`, i));
          return;
        }
      }
    });
    for (const b of split.bindings ?? []) {
      const why = dangerousEnvReason(b.name);
      if (why) out.push(finding(this, `The ${b.via} loop assigns ${b.name}, which ${why}.`));
    }
    return out;
  },
};

const DECLARATIONS = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);

const IFS_REFERENCE = /^\$\{?[#!]?IFS(?![A-Za-z0-9_])/;

export const IFS_INJECTION: Detector = {
  id: 'IFS_INJECTION',
  checkId: 11,
  reason:
    '`$IFS` in any form (`${IFS}`, `${IFS:0:1}`, `$IFS`) hides a separator inside a word, and assigning IFS for the rest of the line (`IFS=,;` or `export IFS`) changes how every later expansion is split; a prefix for one command (`IFS= read -r l`) is the ordinary idiom.',
  detect(_command, split) {
    for (const n of split.notes ?? []) {
      if ((n.kind === 'simple-expansion' || n.kind === 'parameter-expansion') && IFS_REFERENCE.test(n.text)) {
        return [
          finding(this, `The command expands IFS (${JSON.stringify(n.text)}), which hides word separators.`),
        ];
      }
    }
    for (let i = 0; i < split.commands.length; i++) {
      const cmd = split.commands[i];
      // A prefix assignment (`IFS= read -r line`) only affects that one command: the common idiom.
      const persists = cmd && (cmd.argv.length === 0 || DECLARATIONS.has(cmd.argv[0]?.text ?? ''));
      if (persists && cmd.assignments.some((a) => a.name === 'IFS')) {
        return [
          finding(
            this,
            'The command assigns IFS, which changes how later expansions are split into words.',
            i,
          ),
        ];
      }
    }
    return [];
  },
};

/** `${a[i]}` subscripts whose index is not a literal number, `@` or `*` are evaluated as arithmetic. */
const SUBSCRIPT = /[A-Za-z_][A-Za-z0-9_]*\[([^\]]*)\]/g;
const EXPANSION_SUBSCRIPT = /^\$\{[!#]?[A-Za-z_][A-Za-z0-9_]*\[([^\]]*)\]/;
const LITERAL_INDEX = /^\s*(?:-?\d+|@|\*)\s*$/;

/** Arithmetic text: any `name[index]` with a non-literal index. */
function hasEvaluatedSubscript(text: string): boolean {
  for (const m of text.matchAll(SUBSCRIPT)) if (!LITERAL_INDEX.test(m[1] ?? '')) return true;
  return false;
}

/** `${name[index]…}` with a non-literal index (defaults like `${x:-[a]}` are not subscripts). */
function expansionSubscript(text: string): boolean {
  const m = EXPANSION_SUBSCRIPT.exec(text);
  return m !== null && !LITERAL_INDEX.test(m[1] ?? '');
}

export const PARAMETER_CODE_EVALUATION: Detector = {
  id: 'PARAMETER_CODE_EVALUATION',
  reason:
    'Expansions that evaluate their content as code: `${x@P}` (prompt expansion runs $( )), indirect `${!x}`, and array subscripts or arithmetic that reference variables (bash evaluates `a[$(cmd)]` inside them).',
  detect(_command, split) {
    const programs = programsOf(split);
    for (const n of split.notes ?? []) {
      if (n.kind === 'parameter-expansion') {
        if (/@P\}$/.test(n.text))
          return [
            finding(
              this,
              `The expansion ${JSON.stringify(n.text)} performs prompt expansion, which runs command substitutions.`,
            ),
          ];
        if (/^\$\{!/.test(n.text) && !/^\$\{![A-Za-z_][A-Za-z0-9_]*(?:[@*]|\[[@*]\])\}$/.test(n.text)) {
          return [
            finding(
              this,
              `The indirect expansion ${JSON.stringify(n.text)} evaluates a variable's content as a name (with subscripts evaluated as code).`,
            ),
          ];
        }
        if (expansionSubscript(n.text))
          return [
            finding(
              this,
              `The subscript in ${JSON.stringify(n.text)} is evaluated as arithmetic, which can run code.`,
            ),
          ];
      } else if (n.kind === 'arithmetic-expansion' && hasEvaluatedSubscript(n.text)) {
        return [
          finding(
            this,
            `The arithmetic ${JSON.stringify(n.text)} evaluates an array subscript, which can run code.`,
          ),
        ];
      }
    }
    for (let i = 0; i < split.commands.length; i++) {
      const cmd = split.commands[i];
      const program = cmd && programs[i];
      if (cmd && (program === '((' || program === 'let') && hasEvaluatedSubscript(cmd.raw)) {
        return [finding(this, 'The arithmetic command evaluates an array subscript, which can run code.', i)];
      }
    }
    return [];
  },
};
