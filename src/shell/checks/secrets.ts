/**
 * Secrets in the environment (docs/shell-analysis.md "Secrets"). The output of a command goes to
 * the model provider, so printing the environment or a secret-looking variable sends credentials
 * out of the machine. Two findings; the permission engine decides what they do (ask by default):
 *
 * - `ENVIRONMENT_DUMP`: the whole environment (or every variable) printed: `env`/`printenv` with
 *   no command and no name, `export`/`export -p`, `declare`/`typeset` with no name (`-p`, `-x`,
 *   or nothing), `set` alone, `compgen -v`/`-e`/`-A variable|export`, `ps e` (BSD-style `e` shows
 *   each process's environment), awk programs that read `ENVIRON`, and jq's `env`/`$ENV`.
 * - `SECRET_VARIABLE`: a variable whose name looks secret (`isSecretName`) expanded in a command
 *   (`echo $AWS_SECRET_ACCESS_KEY`, `curl -H "…$GITHUB_TOKEN"`) or printed by name (`printenv
 *   GITHUB_TOKEN`, `declare -p NPM_TOKEN`). A test that only checks it is set (`[ -n "$TOKEN" ]`)
 *   is not a finding.
 */
import type { Finding } from '../../core/permission-types.js';
import type { SimpleCommand } from '../types.js';
import { depthZeroOwners } from './command-at.js';
import { type Detector, finding, programOf, programsOf } from './detector.js';

/** Name segments (split at `_`) that mark a secret. */
const SECRET_SEGMENTS = new Set([
  'KEY',
  'KEYS',
  'APIKEY',
  'TOKEN',
  'TOKENS',
  'SECRET',
  'SECRETS',
  'PASSWORD',
  'PASSWORDS',
  'PASSWD',
  'PASS',
  'PASSPHRASE',
  'PAT',
  'CREDENTIAL',
  'CREDENTIALS',
  'CREDS',
  'PRIVATE',
  'COOKIE',
]);

/** Secret words glued to others (`APIKEY`, `GITHUBTOKEN`, `DBPASSWORD`). */
const SECRET_GLUED =
  /(?:API|ACCESS|SECRET|PRIVATE|AUTH|SIGNING|MASTER)KEY|TOKEN$|SECRET|PASSWORD|PASSWD|CREDENTIAL/;

/** True when a variable name looks like it holds a credential (case-insensitive). */
export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  if (upper.split('_').some((s) => SECRET_SEGMENTS.has(s))) return true;
  return SECRET_GLUED.test(upper);
}

const TEST_PROGRAMS = new Set(['[', '[[', 'test']);

/** The programs `dumpReason` looks at (its cases). */
const DUMPERS: ReadonlySet<string> = new Set([
  'env',
  'printenv',
  'export',
  'declare',
  'typeset',
  'set',
  'compgen',
  'ps',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'busybox',
  'jq',
  'gojq',
  'jaq',
]);

/** Why `cmd` prints the whole environment, or undefined. */
function dumpReason(cmd: SimpleCommand): string | undefined {
  const program = programOf(cmd);
  // Any other program prints nothing of the environment (the default case below): its words are
  // not copied.
  if (!program || !DUMPERS.has(program)) return undefined;
  const args = cmd.argv.slice(1).map((w) => w.text);
  const operands = args.filter((t) => !t.startsWith('-'));
  switch (program) {
    case 'env':
      // Options, `-u NAME` and NAME=value only: no command follows, so env prints the environment.
      return args.every((t, i) => t.startsWith('-') || /^[A-Za-z_]\w*=/.test(t) || args[i - 1] === '-u')
        ? 'env without a command prints the environment'
        : undefined;
    case 'printenv':
      return operands.length === 0 ? 'printenv without a name prints the environment' : undefined;
    case 'export':
      return operands.length === 0 && cmd.assignments.length === 0
        ? 'export without a name lists exported variables'
        : undefined;
    case 'declare':
    case 'typeset':
      return operands.length === 0 &&
        cmd.assignments.length === 0 &&
        !args.some((t) => /^-[A-Za-z]*[fF]/.test(t))
        ? `${program} without a name prints variables with their values`
        : undefined;
    case 'set':
      return args.length === 0 ? 'set without arguments prints every variable' : undefined;
    case 'compgen':
      return args.some(
        (t, i) => /^-[A-Za-z]*[ve]/.test(t) || (t === '-A' && /^(variable|export)$/.test(args[i + 1] ?? '')),
      )
        ? 'compgen lists variable names'
        : undefined;
    case 'ps':
      return args.some((t) => !t.startsWith('-') && /^[a-zA-Z]*e[a-zA-Z]*$/.test(t))
        ? 'ps e prints the environment of each process'
        : undefined;
    case 'awk':
    case 'gawk':
    case 'mawk':
    case 'nawk':
    case 'busybox':
      return args.some((t) => t.includes('ENVIRON')) ? 'the awk program reads ENVIRON' : undefined;
    case 'jq':
    case 'gojq':
    case 'jaq':
      return args.some((t) => !t.startsWith('-') && /(?:^|[^\w$.])(?:env|\$ENV)(?![\w])/.test(t))
        ? 'the jq filter reads env/$ENV'
        : undefined;
    default:
      return undefined;
  }
}

export const ENVIRONMENT_DUMP: Detector = {
  id: 'ENVIRONMENT_DUMP',
  reason:
    'Printing the whole environment (env, printenv, export -p, declare -p, set, compgen -v, ps e, awk ENVIRON, jq env) sends every token and key it holds to the model provider.',
  detect(_command, split) {
    const out: Finding[] = [];
    split.commands.forEach((cmd, i) => {
      const why = dumpReason(cmd);
      if (why) out.push(finding(this, `${why}.`, i));
    });
    return out;
  },
};

const VARIABLE_REF = /^\$\{?[!#]?([A-Za-z_][A-Za-z0-9_]*)/;

export const SECRET_VARIABLE: Detector = {
  id: 'SECRET_VARIABLE',
  reason:
    'A variable whose name looks like a credential (*TOKEN*, *SECRET*, *KEY*, *PASSWORD*, *_PAT …) expanded in a command or printed by name can put its value in the output the model provider receives, or send it elsewhere.',
  detect(_command, split) {
    const programs = programsOf(split);
    const out: Finding[] = [];
    split.commands.forEach((cmd, i) => {
      const program = programs[i];
      const names =
        program === 'printenv'
          ? cmd.argv.slice(1).filter((w) => !w.text.startsWith('-'))
          : program === 'declare' || program === 'typeset' || program === 'export'
            ? cmd.argv.slice(1).filter((w) => !w.text.startsWith('-') && !w.text.includes('='))
            : [];
      const hit = names.find((w) => isSecretName(w.text));
      if (hit)
        out.push(finding(this, `${program} prints ${hit.text}, whose name looks like a credential.`, i));
    });
    // The notes that name a secret, in order; the sub-command of each depth-0 one is looked up for
    // all of them at once (command-at.ts; one scan of the sub-commands per note was quadratic).
    const secret: { name: string; depth: number; start: number }[] = [];
    for (const n of split.notes ?? []) {
      if (n.kind !== 'simple-expansion' && n.kind !== 'parameter-expansion') continue;
      const name = VARIABLE_REF.exec(n.text)?.[1];
      if (name && isSecretName(name)) secret.push({ name, depth: n.depth, start: n.start });
    }
    if (secret.length === 0) return out;
    const owners = depthZeroOwners(
      split,
      secret.filter((n) => n.depth === 0).map((n) => n.start),
    );
    for (const { name, depth, start } of secret) {
      if (depth === 0) {
        const at = owners.get(start) ?? -1;
        const cmd = at >= 0 ? split.commands[at] : undefined;
        if (
          cmd &&
          TEST_PROGRAMS.has(programs[at] ?? '') &&
          cmd.argv.some((w) => w.text === '-n' || w.text === '-z')
        )
          continue;
      }
      out.push(finding(this, `The command expands ${name}, whose name looks like a credential.`));
      break;
    }
    return out;
  },
};
