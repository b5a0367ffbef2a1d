/**
 * Bundle entry of the `gantry` command line (dist/fast/gantry.mjs; `gantry hook` has its own,
 * hook/hook-bundle-entry.ts). bin/gantry.js starts every command from one bundled file, so a
 * `gantry check` costs little more than Node's own start.
 *
 * For `check`, the grammar's WebAssembly is compiled with Liftoff only, as on the hook's cold path
 * (hook-main.ts): one check parses a few commands, and without the flag process exit waits several
 * hundred milliseconds for V8's background optimising compile of the grammar. Long runs (`replay`,
 * `mcp`) keep the optimising compiler.
 */
import { setFlagsFromString } from 'node:v8';
import { main } from './main.js';

if (process.argv[2] === 'check') setFlagsFromString('--liftoff-only');
await main(process.argv);
