/**
 * Exit-code semantics: some programs use exit status 1 for an ordinary answer, not a failure —
 * grep/rg/ag/ack 1 = no matches, diff/cmp (and `git diff`) 1 = files differ, test/[/[[ 1 =
 * condition false, find 1 = some directories were inaccessible (partial result), `git grep` 1 =
 * no matches. Anything ≥ 2 (and any non-zero code of other programs) is an error.
 *
 * The command whose status the shell returns is the last one of the top-level list; for a
 * pipeline, its last stage (without `pipefail`). Wrappers (`timeout`, `nice` …) are looked through.
 *
 * Source: docs/architecture.md (commandSemantics.ts); the Claude Code tools reference "Exit status" (benign exit 1 list,
 * `returnCodeInterpretation`).
 */
import { isShellParserReady } from './parser.js';
import { parseAndSplit } from './split.js';
import type { SimpleCommand } from './types.js';
import { getOwn } from '../core/get-own.js';

/** How to present an exit status. `isError` false means the run succeeded (possibly with a note). */
export interface ExitCodeInterpretation {
  isError: boolean;
  /** Human-readable meaning for a benign non-zero status (e.g. `No matches found`). */
  message?: string;
}

type Semantics = (code: number, args: readonly string[]) => ExitCodeInterpretation;

const plain: Semantics = (code) => ({ isError: code !== 0 });

function benignOne(message: string): Semantics {
  return (code) =>
    code === 0 ? { isError: false } : code === 1 ? { isError: false, message } : { isError: true };
}

const SEMANTICS: Record<string, Semantics> = {
  grep: benignOne('No matches found'),
  egrep: benignOne('No matches found'),
  fgrep: benignOne('No matches found'),
  zgrep: benignOne('No matches found'),
  rg: benignOne('No matches found'),
  ag: benignOne('No matches found'),
  ack: benignOne('No matches found'),
  diff: benignOne('Files differ'),
  cmp: benignOne('Files differ'),
  test: benignOne('Condition is false'),
  '[': benignOne('Condition is false'),
  '[[': benignOne('Condition is false'),
  find: benignOne('Some directories were inaccessible (partial results)'),
  git: (code, args) => {
    const sub = args.find((a) => !a.startsWith('-'));
    if (sub === 'diff') return benignOne('Files differ')(code, args);
    if (sub === 'grep') return benignOne('No matches found')(code, args);
    return plain(code, args);
  },
};

/** The sub-command whose status the shell returns: the last top-level command. */
function lastTopLevel(commands: readonly SimpleCommand[]): SimpleCommand | undefined {
  for (let k = commands.length - 1; k >= 0; k--) {
    const c = commands[k] as SimpleCommand;
    if ((c.depth ?? 0) > 0) continue;
    if (c.via === 'top' || c.via === 'pipeline' || c.via === 'subshell' || c.via === 'group') return c;
  }
  return commands[commands.length - 1];
}

/** Program name and arguments of the last command, from a fallback split at operators (parser unavailable). */
function fallbackLast(command: string): string[] {
  const parts = command.split(/\|\||&&|[;|&\n]/);
  const last = (parts[parts.length - 1] ?? '').trim() || (parts[parts.length - 2] ?? '').trim();
  return last.split(/\s+/).filter(Boolean);
}

const WRAPPERS = new Set([
  'timeout',
  'nice',
  'nohup',
  'time',
  'stdbuf',
  'command',
  'builtin',
  'env',
  'xargs',
]);

/**
 * Interprets the exit status of a Bash command.
 * @param command - the command line as run, or its split form (the Bash tool already has it).
 * @param code - the exit status (0–255).
 * @returns `{isError, message?}`; never throws.
 */
export function interpretExitCode(
  command: string | readonly SimpleCommand[],
  code: number,
): ExitCodeInterpretation {
  if (code === 0) return { isError: false };
  let argv: string[];
  if (typeof command === 'string') {
    if (isShellParserReady()) {
      const last = lastTopLevel(parseAndSplit(command).commands);
      argv = last ? last.argv.map((w) => w.text) : fallbackLast(command);
    } else {
      argv = fallbackLast(command);
      while (argv.length > 1 && WRAPPERS.has(argv[0] as string)) argv.shift();
    }
  } else {
    argv = lastTopLevel(command)?.argv.map((w) => w.text) ?? [];
  }
  const program = (argv[0] ?? '').replace(/^.*\//, '');
  const semantics = getOwn(SEMANTICS, program) ?? plain;
  return semantics(code, argv.slice(1));
}
