/**
 * The in-process `gantry check` (dist/fast/gantry-check-local.cjs: one CommonJS file with its npm
 * packages, run with V8's code cache by code-cache.ts), run by bin/gantry.js when no resident server
 * answers (check-client.ts): the check a user or a script runs by hand should cost as little
 * start-up as the guard allows.
 *
 * - The grammar's WebAssembly is compiled with Liftoff only, as on the hook's cold path
 *   (hook-main.ts): one check parses a few commands, and without the flag process exit waits several
 *   hundred milliseconds for V8's background optimising compile of the grammar. The caller sets the
 *   flag before the bundle is compiled (V8 accepts a code cache only under the flags it was made
 *   with) and says so with `v8FlagsSet`; it is set here for a caller that did not. bin/gantry.js
 *   leaves it off for a command line the literal gate admits (check-client.ts `localCheckHint`):
 *   setting it loads `node:v8` (and with it Node's stream modules), and every built-in module
 *   loaded after a flag change is compiled from source, as V8 refuses Node's own code cache then.
 * - A plain invocation is parsed by check-args.ts, so commander is not loaded; help, version and
 *   anything malformed are left to the full command line (dist/fast/gantry-cli.cjs), which reports it.
 * - A Bash check starts loading the parser at once, so its compile runs while the settings load,
 *   unless every command is one the literal gate admits (../shell/literal-command.ts): those need
 *   no grammar. A failure here is ignored: the check's own parser load retries and reports it.
 * - The answer is written with `fs.writeSync` (write-output.ts): `process.stdout` on a pipe loads
 *   Node's stream modules. A reader that closes the pipe early ends the check quietly (exit 0).
 */
import { setFlagsFromString } from 'node:v8';
import { admitsLiteral } from '../shell/literal-command.js';
import { initShellParser } from '../shell/parser.js';
import { parseCheckArgs } from './check-args.js';
import { runCheck } from './check.js';
import { writeOutput } from './write-output.js';

/** The V8 flags of the in-process check, set before its bundle is compiled. */
export const CHECK_V8_FLAGS = ['--liftoff-only'] as const;

/**
 * Checks the invocation in `process.argv` (the words after `check`) and sets `process.exitCode`;
 * false, having done nothing, when it is not a plain invocation (the caller runs the full command line).
 * `v8FlagsSet`: the caller chose the V8 flags before this bundle was compiled (see the module
 * comment); otherwise `CHECK_V8_FLAGS` are set here.
 */
export async function runLocalCheck(o: { v8FlagsSet?: boolean } = {}): Promise<boolean> {
  if (o.v8FlagsSet !== true) for (const f of CHECK_V8_FLAGS) setFlagsFromString(f);
  const parsed = parseCheckArgs(process.argv.slice(3));
  if (!parsed) return false;
  if (parsed.options.tool === undefined && !admitsLiteral(parsed.words.join(' ')))
    initShellParser().catch(() => undefined);
  process.exitCode = await runCheck(parsed.words, {
    ...parsed.options,
    out: (text) => writeOutput('stdout', text, { exitOnClosedPipe: true }),
    err: (text) => writeOutput('stderr', text),
  });
  return true;
}
