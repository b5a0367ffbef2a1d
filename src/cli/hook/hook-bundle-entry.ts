/**
 * Bundle entry of `gantry hook` (dist/gantry-hook.mjs). Warm path first: forward the hook input to
 * the resident server (hook-client.ts) when its socket can be trusted; otherwise decide in-process
 * (logging why the socket was refused) and start a server for the next call. `--hook-daemon <socket>` runs the server itself.
 */
import {
  appendHookLog,
  askDaemon,
  currentBundleFile,
  daemonEnabled,
  FORWARDED_ENV,
  socketPathFor,
  spawnDaemon,
} from './hook-client.js';

const argv = process.argv.slice(2);
if (argv[0] === '--hook-daemon' && argv[1]) {
  const { runHookDaemon } = await import('./hook-daemon.js');
  await runHookDaemon(argv[1]);
  process.exit(0); // stopped (idle or signal): do not linger on handles the guard may hold
} else {
  const args = argv[0] === 'hook' ? argv.slice(1) : argv;
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const stdin = Buffer.concat(chunks).toString('utf8');
  const env = process.env;
  const warm = daemonEnabled(env);
  const bundle = currentBundleFile(import.meta.url);
  const socket = socketPathFor(bundle, env);
  const forwarded: Record<string, string> = {};
  for (const k of FORWARDED_ENV) if (env[k] !== undefined) forwarded[k] = env[k] as string;
  const answer = warm
    ? await askDaemon(
        socket,
        { stdin, argv: args, env: forwarded, cwd: process.cwd() },
        Number(env.GANTRY_HOOK_DAEMON_TIMEOUT_MS) || 3000,
        (reason) =>
          appendHookLog(env, { event: 'hook-server-refused', socket, reason, decided: 'in-process' }),
      )
    : undefined;
  if (answer) {
    process.stdout.write(answer.stdout);
    if (answer.stderr) process.stderr.write(answer.stderr);
    process.exitCode = answer.exitCode;
  } else {
    const { hookMain } = await import('./hook-main.js');
    await hookMain(args, stdin);
    if (warm) spawnDaemon(bundle, socket);
  }
}
