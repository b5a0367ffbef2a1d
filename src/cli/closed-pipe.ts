/**
 * `gantry replay … | head`: a closed pipe ends the output quietly (exit 0), like other Unix tools.
 * Kept apart from main.ts so the start-up path of `gantry check` (cli-entry.ts) can install it
 * without loading the command-line parser.
 */
export function exitQuietlyOnClosedPipe(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}
