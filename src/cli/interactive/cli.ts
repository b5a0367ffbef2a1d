/**
 * The process side of interactive `gantry`: the real terminal, Ctrl-C (SIGINT while no prompt
 * owns the keyboard) and the exit code. Once the session closed the process exits as its event
 * loop drains, and at the latest a second later, so a lingering timer or socket cannot keep it
 * alive.
 */
import { runInteractive } from './run-interactive.js';

export async function runInteractiveCli(argv: readonly string[]): Promise<void> {
  let code: number;
  // One SIGINT listener for the whole life of the process, routed to the session's current
  // handler. Without it, a Ctrl-C that lands while no handler is registered (between a prompt
  // closing and the next one taking the keyboard, or during the final clean-up) would take Node's
  // default action and kill the process by signal, skipping the clean-up and the exit code.
  let current: (() => void) | undefined;
  process.on('SIGINT', () => current?.());
  try {
    code = await runInteractive(argv, {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      cwd: process.cwd(),
      env: process.env,
      color: process.stdout.hasColors?.() === true && process.env.NO_COLOR === undefined,
      onInterrupt: (handler) => {
        current = handler;
        return () => {
          if (current === handler) current = undefined;
        };
      },
    });
  } catch (e) {
    process.stderr.write(`gantry: internal error: ${(e as Error).stack ?? String(e)}\n`);
    code = 1;
  }
  // Exit by letting the event loop drain rather than calling process.exit() at once: exiting while
  // the terminal handle is still being reset crashed the process (SIGSEGV) instead of exiting with
  // its code. A handle that would keep the process alive is cut off after a second.
  process.exitCode = code;
  if (process.stdin.isTTY) process.stdin.setRawMode(false);
  process.stdin.pause();
  process.stdin.unref?.();
  setTimeout(() => process.exit(code), 1000).unref();
}
