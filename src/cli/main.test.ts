import { describe, expect, it } from 'vitest';
import { isAgentInvocation, SUBCOMMANDS } from './main.js';
import { buildProgram } from './program.js';

describe('isAgentInvocation', () => {
  it("SUBCOMMANDS (what an agent run checks without loading commander) are exactly the program's", () => {
    expect([...SUBCOMMANDS].sort()).toEqual(
      buildProgram()
        .commands.map((c) => c.name())
        .sort(),
    );
  });

  it.each(buildProgram().commands.map((c) => [c.name()]))('the sub-command %s is not the agent', (name) => {
    expect(isAgentInvocation([name, '--json'])).toBe(false);
  });

  it.each([
    ['-p with a prompt runs the agent', ['-p', 'hello'], true],
    [
      'the SDK starts the agent with stream-json flags',
      ['--output-format', 'stream-json', '--verbose'],
      true,
    ],
    ['no arguments is the help', [], false],
    ['--help alone is the help', ['--help'], false],
    ['--version alone is the version', ['--version'], false],
    ['help is the help command', ['help', 'check'], false],
  ])('%s', (_why, args, agent) => {
    expect(isAgentInvocation(args)).toBe(agent);
  });
});
