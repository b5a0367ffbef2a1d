/**
 * The process side of interactive `gantry`: the real terminal, Ctrl-C (SIGINT while no prompt
 * owns the keyboard) and the exit code. The process exits explicitly once the session closed, so
 * a lingering timer or socket cannot keep it alive.
 */
import { runInteractive } from './run-interactive.js';

export async function runInteractiveCli(argv: readonly string[]): Promise<never> {
  let code: number;
  try {
    code = await runInteractive(argv, {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      cwd: process.cwd(),
      env: process.env,
      color: process.stdout.hasColors?.() === true && process.env.NO_COLOR === undefined,
      onInterrupt: (handler) => {
        process.on('SIGINT', handler);
        return () => process.off('SIGINT', handler);
      },
    });
  } catch (e) {
    process.stderr.write(`gantry: internal error: ${(e as Error).stack ?? String(e)}\n`);
    code = 1;
  }
  process.exit(code);
}
