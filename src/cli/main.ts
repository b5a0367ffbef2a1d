/**
 * The `gantry` command: an agent run (`gantry -p …`, the Agent SDK's headless flags, or interactive
 * `gantry` on a terminal) or a sub-command (program.ts, with commander). The agent's faces and the
 * sub-commands are imported only when they run, so an agent run never loads the command-line
 * parser of the sub-commands and `gantry hook` loads as little as possible.
 */
import { exitQuietlyOnClosedPipe } from './closed-pipe.js';

/**
 * The sub-commands' names (program.ts `buildProgram`; main.test.ts keeps them equal, and
 * bin-subcommands.test.ts keeps bin/gantry.js's copy equal).
 */
export const SUBCOMMANDS: readonly string[] = [
  'check',
  'hook',
  'replay',
  'mcp',
  'serve',
  'fleet',
  'log',
  'doctor',
  'teammate',
  'install',
  'uninstall',
];

/**
 * True when the command line is the agent's (`gantry -p …`, or the Agent SDK's
 * `gantry --output-format stream-json …`) rather than a sub-command or a bare `--help`/`--version`.
 */
export function isAgentInvocation(args: readonly string[]): boolean {
  const first = args[0];
  if (first === undefined) return false;
  if (first === 'help' || SUBCOMMANDS.includes(first)) return false;
  if (args.length === 1 && ['-h', '--help', '-V', '--version'].includes(first)) return false;
  return true;
}

/**
 * True when the agent command line should start the interactive session: both stdin and stdout
 * are terminals, and nothing asks for headless mode (`-p`/`--print`, `--output-format`,
 * `--input-format`). A bare `gantry` on a terminal is interactive too.
 */
export function isInteractiveInvocation(args: readonly string[], terminal: boolean): boolean {
  if (!terminal) return false;
  if (args.length > 0 && !isAgentInvocation(args)) return false;
  return !args.some(
    (a) => a === '-p' || a === '--print' || a.startsWith('--output-format') || a.startsWith('--input-format'),
  );
}

export async function main(argv: string[]): Promise<void> {
  exitQuietlyOnClosedPipe();
  if (isInteractiveInvocation(argv.slice(2), process.stdin.isTTY === true && process.stdout.isTTY === true)) {
    const { runInteractiveCli } = await import('./interactive/cli.js');
    await runInteractiveCli(argv.slice(2));
    return;
  }
  if (isAgentInvocation(argv.slice(2))) {
    const { runPrintCli } = await import('./print/cli.js');
    await runPrintCli(argv.slice(2));
  }
  const { runProgram } = await import('./program.js');
  await runProgram(argv);
}
