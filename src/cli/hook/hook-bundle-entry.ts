/**
 * Bundle entry of `gantry hook` (dist/gantry-hook.mjs). Warm path first: forward the hook input to
 * the resident server (hook-client.ts) when its socket can be trusted; otherwise decide in-process
 * (logging why the socket was refused) and start a server for the next call. The warm path loads
 * only the client; the audit log, the guard and `node:child_process` are loaded on the cold path.
 * `--hook-daemon <socket>` runs the server itself.
 */
import {
  askDaemon,
  currentBundleFile,
  daemonEnabled,
  FORWARDED_ENV,
  readAllStdin,
  socketPathFor,
} from './hook-client.js';

const argv = process.argv.slice(2);
if (argv[0] === '--hook-daemon' && argv[1]) {
  const { runHookDaemon } = await import('./hook-daemon.js');
  // Bundled, the analysis worker is built next to this file (scripts/build.mjs).
  const worker = import.meta.url.endsWith('.ts')
    ? undefined
    : new URL('./gantry-analysis-worker.mjs', import.meta.url);
  await runHookDaemon(argv[1], undefined, worker);
  process.exit(0); // stopped (idle or signal): do not linger on handles the guard may hold
} else {
  const args = argv[0] === 'hook' ? argv.slice(1) : argv;
  const stdin = await readAllStdin();
  const env = process.env;
  const warm = daemonEnabled(env);
  const bundle = currentBundleFile(import.meta.url);
  const socket = socketPathFor(bundle, env);
  const forwarded: Record<string, string> = {};
  for (const k of FORWARDED_ENV) if (env[k] !== undefined) forwarded[k] = env[k] as string;
  let refused: string | undefined;
  const answer = warm
    ? await askDaemon(
        socket,
        { stdin, argv: args, env: forwarded, cwd: process.cwd() },
        Number(env.GANTRY_HOOK_DAEMON_TIMEOUT_MS) || 3000,
        (reason) => {
          refused = reason;
        },
      )
    : undefined;
  if (answer) {
    process.stdout.write(answer.stdout);
    if (answer.stderr) process.stderr.write(answer.stderr);
    process.exitCode = answer.exitCode;
  } else {
    if (refused !== undefined) {
      const { appendAuditLine } = await import('../audit/audit-log.js');
      appendAuditLine(env, { event: 'hook-server-refused', socket, reason: refused, decided: 'in-process' });
    }
    const { hookMain } = await import('./hook-main.js');
    await hookMain(args, stdin);
    if (warm) (await import('./hook-spawn.js')).spawnDaemon(bundle, socket);
  }
}
