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
 *   command line and the settings load. A failure here is ignored: the check's own
 *   `initShellParser()` call retries and reports it.
 * Long runs (`replay`, `mcp`) keep the optimising compiler.
 */
import { setFlagsFromString } from 'node:v8';

if (process.argv[2] === 'check') {
  setFlagsFromString('--liftoff-only');
  if (!process.argv.includes('--tool')) {
    import('../shell/parser.js').then((m) => m.initShellParser()).catch(() => undefined);
  }
}
const { main } = await import('./main.js');
await main(process.argv);
