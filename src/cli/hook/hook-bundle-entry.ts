/**
 * Bundle entry of `gantry hook` (dist/fast/gantry-hook.mjs). `--hook-daemon <socket>` runs the
 * resident server; anything else is one hook call (hook-warm.ts: the server's answer when its socket
 * can be trusted, otherwise the in-process path of hook-cold.ts). bin/gantry.js runs a call through
 * the CommonJS client (dist/fast/gantry-hook-client.cjs) instead, which starts faster; this entry
 * serves the server and a host that runs the bundle directly.
 */
import { fileURLToPath } from 'node:url';
import { currentBundleFile } from './hook-client.js';
import { runHookCall } from './hook-warm.js';

const argv = process.argv.slice(2);
if (argv[0] === '--hook-daemon' && argv[1]) {
  const { runHookDaemon } = await import('./hook-daemon.js');
  // Bundled, the analysis worker is built next to this file (scripts/build.mjs).
  const worker = import.meta.url.endsWith('.ts')
    ? undefined
    : new URL('./gantry-analysis-worker.mjs', import.meta.url);
  // Bundled, this file is <package>/dist/fast/gantry-hook.mjs.
  const packageRoot = worker ? fileURLToPath(new URL('../../', import.meta.url)) : undefined;
  await runHookDaemon(argv[1], undefined, worker, packageRoot);
  process.exit(0); // stopped (idle or signal): do not linger on handles the guard may hold
} else {
  await runHookCall(
    argv[0] === 'hook' ? argv.slice(1) : argv,
    currentBundleFile(import.meta.url),
    () => import('./hook-cold.js'),
  );
}
