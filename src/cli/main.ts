/**
 * The `gantry` command. Sub-commands are registered here; each lives in its own file under cli/.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('gantry')
    .description(
      'The tool layer of a coding agent: decide, run and report tool calls (Claude Code compatible).',
    )
    .version(pkg.version, '-V, --version');
  return program;
}

export async function main(argv: string[]): Promise<void> {
  await buildProgram().parseAsync(argv);
}
