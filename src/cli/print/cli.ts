/**
 * The process side of `gantry -p`: real stdio, signals and the exit code.
 *
 * SIGTERM aborts the session (the running turn ends with every tool_use answered, the transcript
 * keeps what happened, so `--resume` can read it) and exits 143 (130 for SIGINT) once the session
 * closed, or after `GRACE_MS` at the latest. The process exits explicitly when the run is over, so
 * a lingering connection or timer cannot keep a host (the Agent SDK waits for the exit) hanging.
 *
 * WebAssembly is compiled with Liftoff only: the shell grammar is parsed a few times per turn, and
 * V8's background optimising compile of it otherwise takes the machine's cores for a second or more
 * right when the first Bash call runs (measured in bench/print.bench.ts). The flag is set here, after
 * the bundle and its modules are loaded and not before (bin/gantry.js): V8 refuses the code cache
 * Node's built-in modules carry once any flag changed, so a built-in loaded later is compiled from
 * source (about three times slower). bin/gantry.js restores the flags at exit for the bundle's cache.
 */
import { setFlagsFromString } from 'node:v8';
import { runPrint } from './run-print.js';

const GRACE_MS = 2_000;

export async function runPrintCli(argv: readonly string[]): Promise<never> {
  // Node's undici (with the http2, zlib and web-stream modules it loads) is needed by the first
  // model request (the SDKs' Headers and Response; the OpenAI SDK's fetch); loaded before the flag
  // change, it comes from Node's own code cache.
  void globalThis.Headers;
  setFlagsFromString('--liftoff-only');
  const controller = new AbortController();
  let signalCode: number | undefined;
  const onSignal = (code: number) => () => {
    if (signalCode !== undefined) process.exit(signalCode);
    signalCode = code;
    controller.abort(new Error(code === 143 ? 'SIGTERM' : 'SIGINT'));
    setTimeout(() => process.exit(code), GRACE_MS).unref();
  };
  process.on('SIGTERM', onSignal(143));
  process.on('SIGINT', onSignal(130));
  let code: number;
  try {
    code = await runPrint(argv, {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      stdinIsTTY: process.stdin.isTTY === true,
      cwd: process.cwd(),
      env: process.env,
      abortSignal: controller.signal,
    });
  } catch (e) {
    process.stderr.write(`gantry: internal error: ${(e as Error).stack ?? String(e)}\n`);
    code = 1;
  }
  process.exit(signalCode ?? code);
}
