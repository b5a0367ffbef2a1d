/**
 * Bundle entry of the `gantry` command line (dist/fast/gantry.mjs; `gantry hook` has its own,
 * hook/hook-bundle-entry.ts). bin/gantry.js starts every command from one bundled file, so a
 * `gantry check` costs little more than Node's own start.
 *
 * For `check`:
 * - the grammar's WebAssembly is compiled with Liftoff only, as on the hook's cold path
 *   (hook-main.ts): one check parses a few commands, and without the flag process exit waits several
 *   hundred milliseconds for V8's background optimising compile of the grammar;
 * - a Bash check (no `--tool`) starts loading the parser at once, so the compile runs while the
 *   settings load. A failure here is ignored: the check's own `initShellParser()` call retries and
 *   reports it;
 * - a plain invocation is parsed by check-args.ts and run without loading commander; help, version
 *   and anything malformed go through the full command line (main.ts).
 * Long runs (`replay`, `mcp`) keep the optimising compiler.
 */
import { setFlagsFromString } from 'node:v8';
import { parseCheckArgs } from './check-args.js';
import { exitQuietlyOnClosedPipe } from './closed-pipe.js';

const fastCheck = process.argv[2] === 'check' ? parseCheckArgs(process.argv.slice(3)) : undefined;
if (process.argv[2] === 'check') {
  setFlagsFromString('--liftoff-only');
  if (!process.argv.includes('--tool')) {
    import('../shell/parser.js').then((m) => m.initShellParser()).catch(() => undefined);
  }
}
if (fastCheck) {
  exitQuietlyOnClosedPipe();
  const { runCheck } = await import('./check.js');
  process.exitCode = await runCheck(fastCheck.words, fastCheck.options);
} else {
  const { main } = await import('./main.js');
  await main(process.argv);
}
