/**
 * `gantry check` answered by the resident hook server (hook/hook-daemon.ts), so a check started
 * while the server runs costs little more than Node's own start (check-client.ts forwards the
 * invocation). The answer is exactly what the in-process check prints: the same `runCheck`, with the
 * client's working directory, paths and environment in place of the server's own.
 */
import path from 'node:path';
import type { HookWireAnswer, HookWireRequest } from './hook/hook-client.js';
import { parseCheckArgs } from './check-args.js';
import { type CheckCliOptions, runCheck } from './check.js';

/**
 * Runs one forwarded `gantry check`; undefined when the invocation is not one the server answers
 * (help, version, malformed options, `--hooks`, which runs the settings' hook commands in the
 * caller's environment): the client then runs it in-process.
 */
export async function answerCheckRequest(
  req: HookWireRequest,
  makeGuard?: CheckCliOptions['makeGuard'],
): Promise<HookWireAnswer | undefined> {
  if (typeof req.cwd !== 'string' || !path.isAbsolute(req.cwd) || !Array.isArray(req.argv)) return undefined;
  const parsed = parseCheckArgs(req.argv.map(String));
  if (!parsed || parsed.options.hooks) return undefined;
  const o = parsed.options;
  const env = req.env && typeof req.env === 'object' ? req.env : {};
  let stdout = '';
  let stderr = '';
  const exitCode = await runCheck(parsed.words, {
    ...o,
    // relative paths are the client's: resolve them against its working directory
    cwd: path.resolve(req.cwd, o.cwd ?? '.'),
    ...(o.settings ? { settings: o.settings.map((f) => path.resolve(req.cwd, f)) } : {}),
    env,
    ...(makeGuard ? { makeGuard } : {}),
    out: (t) => {
      stdout += t;
    },
    err: (t) => {
      stderr += t;
    },
  });
  return { stdout, stderr, exitCode };
}
