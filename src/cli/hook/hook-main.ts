/**
 * Entry point of `gantry hook` when started from the prebuilt bundle (dist/gantry-hook.mjs): no
 * command-line framework, nothing loaded but the guard (issue 7: start-up time is the product).
 * Flags: `--settings FILE` (repeatable), `--pass-allow`.
 *
 * The grammar's WebAssembly is compiled with Liftoff only: the work is done in ~100 ms, and
 * without this flag process exit waits ~400 ms for V8's background optimising compile of the 1.36 MB
 * grammar (stack.md §10).
 */
import { setFlagsFromString } from 'node:v8';
import { handleHook, readStdin } from './run-hook.js';

setFlagsFromString('--liftoff-only');

/** Parses the hook's own flags. Unknown flags are ignored (a host may pass extra words). */
export function parseHookArgs(argv: readonly string[]): { settingsFiles: string[]; passAllow: boolean } {
  const settingsFiles: string[] = [];
  let passAllow = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--settings' && argv[i + 1]) settingsFiles.push(argv[++i] as string);
    else if (a?.startsWith('--settings=')) settingsFiles.push(a.slice('--settings='.length));
    else if (a === '--pass-allow') passAllow = true;
  }
  return { settingsFiles, passAllow };
}

export async function hookMain(argv: readonly string[]): Promise<void> {
  const args = parseHookArgs(argv);
  const answer = await handleHook(await readStdin(), {
    ...(args.settingsFiles.length ? { settingsFiles: args.settingsFiles } : {}),
    passAllow: args.passAllow,
  });
  process.stdout.write(answer.stdout);
  if (answer.stderr) process.stderr.write(answer.stderr);
  process.exitCode = answer.exitCode;
}
