/**
 * Bundle entry of the `gantry` command line (dist/fast/gantry.mjs). bin/gantry.js starts `hook` and
 * `check` from their own bundles (hook/hook-bundle-entry.ts, check-entry.ts) and every other
 * command from this one.
 *
 * `check` reaches this entry only for help, version or malformed input (check-entry.ts hands those
 * over); its grammar compile stays Liftoff-only as there. Long runs (`replay`, `mcp`) keep the
 * optimising compiler.
 */
import { setFlagsFromString } from 'node:v8';
import { main } from './main.js';

if (process.argv[2] === 'check') setFlagsFromString('--liftoff-only');
await main(process.argv);
