/**
 * Bundle entry of the `gantry` command line (dist/fast/gantry-cli.cjs, one CommonJS file that
 * bin/gantry.js runs through V8's code cache; docs/startup.md). bin/gantry.js starts `hook` and
 * `check` from their own bundles (hook/hook-bundle-entry.ts, check-entry.ts) and every other
 * command from this one.
 *
 * V8 flags are set by bin/gantry.js before the bundle is compiled (a code cache is only taken under
 * the flags it was made with): Liftoff-only for `-p` and for `check` (which reaches this entry only
 * for help, version or malformed input); long runs (`replay`, `mcp`, interactive) keep the
 * optimising compiler.
 */
import { main } from './main.js';

/** Runs the command line on `argv` (`process.argv`'s shape). Rejects with what a command throws. */
export function runCli(argv: readonly string[] = process.argv): Promise<void> {
  return main(argv as string[]);
}
