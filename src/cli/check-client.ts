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
import { admitsLiteral } from '../shell/literal-command.js';
import { parseCheckArgs } from './check-args.js';
import {
  askDaemon,
  daemonEnabled,
  FORWARDED_ENV,
  type HookWireAnswer,
  socketPathFor,
} from './hook/hook-client.js';
import { writeOutput } from './write-output.js';

// The in-process check's loader, in this file: bin/gantry.js then loads one module, not two, before
// the check's bundle (docs/startup.md). The same code as dist/fast/gantry-code-cache.cjs.
export { requireWithCodeCache } from './code-cache.js';

/** What the in-process check is told about its invocation before its bundle is loaded. */
export interface LocalCheckHint {
  /**
   * False only for a plain check of one Bash command line that the literal-command gate admits
   * (../shell/literal-command.ts): its decision needs no grammar, so no WebAssembly is compiled and
   * the caller need not set the grammar's V8 flag (docs/startup.md, "The in-process check and the
   * code cache"). True for everything else (`--tool`, help, a malformed invocation).
   */
  mayParseShell: boolean;
}

/** The hint for an invocation, given what `parseCheckArgs` made of the words after `check`. */
export function localCheckHint(parsed: ReturnType<typeof parseCheckArgs>): LocalCheckHint {
  const literal =
    parsed !== undefined &&
    parsed.options.tool === undefined &&
    parsed.words.length > 0 &&
    admitsLiteral(parsed.words.join(' '));
  return { mayParseShell: !literal };
}

/**
 * Runs one check. `args` are the words after `check`; `hookBundle` is dist/fast/gantry-hook.mjs
 * (the server's socket is named after it); `loadLocal` runs the in-process check (it reads
 * `process.argv` itself) and is given the invocation's `LocalCheckHint`. Sets `process.exitCode`.
 */
export async function runCheckClient(
  args: string[],
  hookBundle: string,
  loadLocal: (hint: LocalCheckHint) => Promise<unknown>,
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
    await loadLocal(localCheckHint(parsed));
  }
}
