/**
 * One `gantry hook` call from the client's side: read the hook input, forward it to the resident
 * server when its socket can be trusted (hook-client.ts), print the server's answer; otherwise hand
 * the call to the in-process path (hook-cold.ts), which decides it, logs why a socket was refused and
 * starts a server for the next call.
 *
 * Two bundles run this module: dist/fast/gantry-hook-client.cjs (CommonJS, Node built-ins only;
 * bin/gantry.js requires it, so a warm call never starts the ES module loader) and
 * dist/fast/gantry-hook.mjs (hook-bundle-entry.ts). The caller says how the in-process path is loaded,
 * so this file imports nothing of the guard.
 */
import {
  askDaemon,
  daemonEnabled,
  FORWARDED_ENV,
  type HookWireAnswer,
  readAllStdin,
  socketPathFor,
} from './hook-client.js';

/** What the in-process path needs to decide a call the server did not answer. */
export interface ColdHookCall {
  /** The words after `hook`. */
  args: string[];
  /** The hook input, already read. */
  stdin: string;
  /** The hook bundle (dist/fast/gantry-hook.mjs) a new server is started from. */
  bundle: string;
  /** The socket the server listens on (named after the bundle). */
  socket: string;
  /** False when `GANTRY_HOOK_DAEMON` turns the server off: no server is started. */
  warm: boolean;
  /** Why the socket that was there was not trusted (written to the hook log), if it was refused. */
  refused?: string;
}

/** The in-process path's module (hook-cold.ts). */
export interface ColdHookModule {
  decideInProcess(call: ColdHookCall): Promise<void>;
}

/**
 * A call from a git checkout, whose dist/ must never be used older than the sources
 * (bin/gantry.js). The server vouches for them when it can (source-vouch.ts); otherwise, before
 * anything of the answer is used, `ensureCurrent` compares them and, when they changed, rebuilds
 * dist/ and runs the call again in a new process (then it exits and never returns) or blocks the
 * call when the rebuild fails.
 */
export interface CheckoutCall {
  /** The checkout's folder (bin/gantry.js's parent). */
  root: string;
  /** Returns when dist/ matches the sources; given the hook input, for a new process to run it again. */
  ensureCurrent(stdin: string): void;
}

/**
 * Runs one call. `hookBundle` is dist/fast/gantry-hook.mjs (its size and mtime name the socket);
 * `loadCold` loads hook-cold.ts only when the server does not answer; `checkout` is set by
 * bin/gantry.js when it runs from a git checkout and left the comparison of dist/ with the sources
 * to this call. Sets `process.exitCode`.
 */
export async function runHookCall(
  args: string[],
  hookBundle: string,
  loadCold: () => Promise<ColdHookModule>,
  checkout?: CheckoutCall,
): Promise<void> {
  const stdin = await readAllStdin();
  const env = process.env;
  const warm = daemonEnabled(env);
  const socket = socketPathFor(hookBundle, env);
  const forwarded: Record<string, string> = {};
  for (const k of FORWARDED_ENV) if (env[k] !== undefined) forwarded[k] = env[k] as string;
  let refused: string | undefined;
  const answer: HookWireAnswer | undefined = warm
    ? await askDaemon(
        socket,
        {
          stdin,
          argv: args,
          env: forwarded,
          cwd: process.cwd(),
          ...(checkout ? { checkout: checkout.root } : {}),
        },
        Number(env.GANTRY_HOOK_DAEMON_TIMEOUT_MS) || 3000,
        (reason) => {
          refused = reason;
        },
      )
    : undefined;
  // Without the server's word that the sources match dist/, they are compared here first.
  if (checkout && answer?.sourcesCurrent !== true) checkout.ensureCurrent(stdin);
  if (answer) {
    process.stdout.write(answer.stdout);
    if (answer.stderr) process.stderr.write(answer.stderr);
    process.exitCode = answer.exitCode;
    return;
  }
  const cold = await loadCold();
  await cold.decideInProcess({
    args,
    stdin,
    bundle: hookBundle,
    socket,
    warm,
    ...(refused !== undefined ? { refused } : {}),
  });
}
