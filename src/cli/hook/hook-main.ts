/**
 * The in-process (cold) path of `gantry hook`, used when no hook server answers (hook-client.ts):
 * nothing loaded but the guard. Flags: `--settings FILE` (repeatable), `--pass-allow`.
 *
 * The grammar's WebAssembly is compiled with Liftoff only: the work is done in ~100 ms, and
 * without this flag process exit waits ~400 ms for V8's background optimising compile of the 1.36 MB
 * grammar (docs/dependencies.md "Start-up cost of one-shot processes").
 */
import { setFlagsFromString } from 'node:v8';
import { parseHookArgs } from './hook-client.js';
import { writeOutput } from '../write-output.js';
import { handleHook, readStdin } from './run-hook.js';

setFlagsFromString('--liftoff-only');

export { parseHookArgs };

/** Decides one invocation in this process and writes the answer; `stdinText` defaults to reading stdin. */
export async function hookMain(argv: readonly string[], stdinText?: string): Promise<void> {
  const args = parseHookArgs(argv);
  const answer = await handleHook(stdinText ?? (await readStdin()), {
    ...(args.settingsFiles.length ? { settingsFiles: args.settingsFiles } : {}),
    passAllow: args.passAllow,
    denyOnly: args.denyOnly,
    ...(args.errors.length ? { argErrors: args.errors } : {}),
  });
  writeOutput('stdout', answer.stdout);
  writeOutput('stderr', answer.stderr);
  process.exitCode = answer.exitCode;
}
