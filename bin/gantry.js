#!/usr/bin/env node
// Entry point of the `gantry` command.
// - `gantry hook` runs from the prebuilt bundle (dist/gantry-hook.mjs, made by `npm run build`, which
//   `npm ci` runs) so the host's every tool call pays as little start-up as possible.
// - Everything else runs the TypeScript sources through tsx.
// Set GANTRY_NO_BUNDLE=1 to run the hook from the sources too.
import { existsSync } from 'node:fs';

const hookBundle = new URL('../dist/gantry-hook.mjs', import.meta.url);
const wantsHelp = process.argv.includes('--help') || process.argv.includes('-h');
if (process.argv[2] === 'hook' && !wantsHelp && !process.env.GANTRY_NO_BUNDLE && existsSync(hookBundle)) {
  await import(hookBundle.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../src/cli/main.ts');
  await main(process.argv);
}
