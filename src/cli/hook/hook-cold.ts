/**
 * The in-process path of a `gantry hook` call the resident server did not answer (hook-warm.ts):
 * log why a socket was refused, decide the call with the guard loaded here (hook-main.ts), then start
 * a server for the next calls. Built twice: dist/fast/gantry-hook-cold.cjs, which bin/gantry.js runs
 * with V8's code cache (../code-cache.ts), and dist/fast/gantry-hook-cold.mjs, which shares chunks
 * with the hook bundle (hook-bundle-entry.ts).
 */
import { setFlagsFromString } from 'node:v8';
import { appendAuditLine } from '../audit/audit-log.js';
import { hookMain } from './hook-main.js';
import { spawnDaemon } from './hook-spawn.js';
import type { ColdHookCall } from './hook-warm.js';

/**
 * Decides `call` in this process and writes the answer (sets `process.exitCode`). The grammar's
 * WebAssembly is compiled with Liftoff only: the work is done in ~100 ms, and without the flag
 * process exit waits ~400 ms for V8's background optimising compile of the 1.36 MB grammar
 * (docs/dependencies.md "Start-up cost of one-shot processes"). `v8FlagsSet`: the caller set the
 * flags before this bundle was compiled (bin/gantry.js, which leaves the flag off for a tool that
 * parses no shell command; docs/startup.md); otherwise the flag is set here.
 */
export async function decideInProcess(call: ColdHookCall & { v8FlagsSet?: boolean }): Promise<void> {
  if (call.v8FlagsSet !== true) setFlagsFromString('--liftoff-only');
  if (call.refused !== undefined) {
    appendAuditLine(process.env, {
      event: 'hook-server-refused',
      socket: call.socket,
      reason: call.refused,
      decided: 'in-process',
    });
  }
  await hookMain(call.args, call.stdin);
  if (call.warm) spawnDaemon(call.bundle, call.socket);
}
