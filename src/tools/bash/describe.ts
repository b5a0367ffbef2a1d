/**
 * What a Bash call would do, for the permission engine: the shell analysis of `command`
 * (sub-commands for rule matching, effects, findings; docs/tool-traits.md "Describers"). The
 * analysis itself is injected (`DescribeCommand`), so this module stays light: the guard loads the
 * shell parser only when a Bash call arrives, and the Bash tool passes its shell port.
 *
 * A `command` that is missing or not a string is described as an ask-level finding, never thrown.
 */
import type { DescribeWorld, ToolDescriberEntry } from '../../core/call-describer.js';
import type { CallDescription } from '../../core/permission-types.js';

/** The shell analysis of one command line in a world (`src/shell`'s `describeBashCommand`). */
export type DescribeCommand = (
  command: string,
  world: DescribeWorld,
) => CallDescription | Promise<CallDescription>;

/** Describes a shell tool's call (Bash, and Monitor's `command`) with `describeCommand`. */
export function describeShellInput(
  toolName: string,
  input: Readonly<Record<string, unknown>>,
  world: DescribeWorld,
  describeCommand: DescribeCommand,
): CallDescription | Promise<CallDescription> {
  const command = Object.hasOwn(input, 'command') ? input.command : undefined;
  if (typeof command !== 'string')
    return {
      ruleContents: [],
      effects: [],
      findings: [
        { id: 'INVALID_INPUT', message: `${toolName} input has no string \`command\``, behavior: 'ask' },
      ],
      readOnly: false,
      summary: `${toolName} (invalid input)`,
    };
  return describeCommand(command, world);
}

/** The Bash describer over an injected shell analysis. */
export function bashDescriber(describeCommand: DescribeCommand) {
  return {
    name: 'Bash',
    describe: (input, world) => describeShellInput('Bash', input, world, describeCommand),
    toAutoClassifierInput: (input) => (typeof input.command === 'string' ? input.command : ''),
  } satisfies ToolDescriberEntry;
}
