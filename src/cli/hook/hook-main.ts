/**
 * The in-process (cold) path of `gantry hook`, used when no hook server answers (hook-client.ts):
 * nothing loaded but the guard. Flags: `--settings FILE` (repeatable), `--pass-allow`. Its V8 flags
 * are set by the caller (hook-cold.ts).
 */
import { parseHookArgs } from './hook-client.js';
import { writeOutput } from '../write-output.js';
import { handleHook, readStdin } from './run-hook.js';

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
