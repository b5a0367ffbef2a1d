/**
 * `gantry check` from the client's side (dist/fast/gantry-check-client.cjs, a CommonJS bundle of
 * Node built-ins only that bin/gantry.js requires): when the resident hook server runs
 * (hook/hook-daemon.ts, started by `gantry hook`), a plain check is forwarded to it over the hook's
 * trusted socket (hook/hook-client.ts) and its answer printed, so the check costs about one Node
 * start; the server answers with the same code and output as the in-process check
 * (check-server.ts). Otherwise — no server, `GANTRY_HOOK_DAEMON=0`, a socket that is not trusted, no
 * answer within `GANTRY_HOOK_DAEMON_TIMEOUT_MS`, `--hooks`, help or a malformed command line — the
 * check runs in this process (check-entry.ts, run by the caller's `loadLocal`). A check never starts a server itself.
 */
import { parseCheckArgs } from './check-args.js';
import {
  askDaemon,
  daemonEnabled,
  FORWARDED_ENV,
  type HookWireAnswer,
  socketPathFor,
} from './hook/hook-client.js';
import { writeOutput } from './write-output.js';

/**
 * Runs one check. `args` are the words after `check`; `hookBundle` is dist/fast/gantry-hook.mjs
 * (the server's socket is named after it); `loadLocal` runs the in-process check (it reads
 * `process.argv` itself). Sets `process.exitCode`.
 */
export async function runCheckClient(
  args: string[],
  hookBundle: string,
  loadLocal: () => Promise<unknown>,
): Promise<void> {
  const env = process.env;
  const parsed = parseCheckArgs(args);
  let answer: HookWireAnswer | undefined;
  if (parsed && !parsed.options.hooks && daemonEnabled(env)) {
    const forwarded: Record<string, string> = {};
    for (const k of FORWARDED_ENV) if (env[k] !== undefined) forwarded[k] = env[k] as string;
    answer = await askDaemon(
      socketPathFor(hookBundle, env),
      { kind: 'check', stdin: '', argv: args, env: forwarded, cwd: process.cwd() },
      Number(env.GANTRY_HOOK_DAEMON_TIMEOUT_MS) || 3000,
    );
  }
  if (answer) {
    // the in-process check prints its warnings before the decision: keep that order on a terminal
    writeOutput('stderr', answer.stderr);
    writeOutput('stdout', answer.stdout, { exitOnClosedPipe: true });
    process.exitCode = answer.exitCode;
  } else {
    await loadLocal();
  }
}
