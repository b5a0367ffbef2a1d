/**
 * The in-process `gantry check` (dist/fast/gantry-check-local.mjs, one file without chunks), run by
 * the check client (check-client.ts) when no resident server answers: the check a user or a
 * script runs by hand should cost as little start-up as the guard allows.
 *
 * - The grammar's WebAssembly is compiled with Liftoff only, as on the hook's cold path
 *   (hook-main.ts): one check parses a few commands, and without the flag process exit waits several
 *   hundred milliseconds for V8's background optimising compile of the grammar.
 * - A plain invocation is parsed by check-args.ts, so commander is not loaded; help, version and
 *   anything malformed go to the full command line (dist/fast/gantry.mjs), which reports it.
 * - A Bash check starts loading the parser at once, so its compile runs while the settings load. A
 *   failure here is ignored: the check's own `initShellParser()` call retries and reports it.
 */
import { setFlagsFromString } from 'node:v8';
import { initShellParser } from '../shell/parser.js';
import { parseCheckArgs } from './check-args.js';
import { runCheck } from './check.js';
import { exitQuietlyOnClosedPipe } from './closed-pipe.js';

setFlagsFromString('--liftoff-only');
const parsed = parseCheckArgs(process.argv.slice(3));
if (parsed) {
  if (parsed.options.tool === undefined) initShellParser().catch(() => undefined);
  exitQuietlyOnClosedPipe();
  process.exitCode = await runCheck(parsed.words, parsed.options);
} else {
  await import(new URL('./gantry.mjs', import.meta.url).href);
}
