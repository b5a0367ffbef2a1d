/**
 * The start-up parser of `gantry check` (check-args.ts) agrees with the commander definition in
 * main.ts: whatever it accepts, commander parses to the same words and options; whatever it hands
 * back (undefined), commander handles itself.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseCheckArgs } from './check-args.js';
import { buildProgram } from './program.js';

/** Commander's parse of `gantry check <args>`: the action's words and options, or the error it raised. */
async function commanderParse(
  args: string[],
): Promise<{ words: string[]; options: object } | { error: string }> {
  const program = buildProgram();
  let captured: { words: string[]; options: object } | undefined;
  for (const c of [program, ...program.commands] as Command[]) {
    c.exitOverride();
    c.configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  }
  const check = program.commands.find((c) => c.name() === 'check') as Command;
  check.action((words: string[], options: object) => {
    captured = { words, options: { ...options } };
  });
  try {
    await program.parseAsync(['node', 'gantry', 'check', ...args]);
  } catch (e) {
    return { error: (e as Error).message };
  }
  return captured ?? { error: 'no action' };
}

/** [args after `check`, why]: the start-up parser takes these, exactly as commander does. */
const ACCEPTED: Array<[string[], string]> = [
  [['--', 'git status'], 'the usual form'],
  [['--json', '--', 'git', 'status'], 'a flag, then words'],
  [['git', 'status'], 'words without --'],
  [['ls', '--json'], 'a flag after the words'],
  [['--settings', 'a.json', '--settings=b.json', '--', 'ls'], 'a repeatable option, both spellings'],
  [['--add-dir', '/x', '--add-dir', '/y', '--cwd', '/p', '--mode', 'plan', '--', 'ls'], 'every value option'],
  [['--tool', 'Read', '--input', '{"file_path":"/a"}'], 'a tool call'],
  [['--hooks', '--trust', '--', 'ls'], 'the other flags'],
  [['--', 'echo', '--help'], '--help after -- is a word of the command'],
  [['--', 'rm', '-rf', '/'], 'options after -- are words'],
  [['--mode', '', '--', 'ls'], 'an empty value (the check reports it)'],
  [[], 'nothing (the check reports the usage error)'],
];

/** [args, why]: left to commander. */
const DEFERRED: Array<[string[], string]> = [
  [['--help'], 'help text'],
  [['-h'], 'help text, short'],
  [['--bogus', '--', 'ls'], 'an unknown option'],
  [['ls', '-la'], 'an option of the command without --'],
  [['--mode'], 'a missing value'],
  [['--json=yes', '--', 'ls'], 'a value on a flag'],
  [['--cwd', '-x', '--', 'ls'], 'a value that looks like an option'],
];

describe('parseCheckArgs', () => {
  it.each(ACCEPTED)('%j is parsed as commander parses it (%s)', async (args) => {
    const fast = parseCheckArgs(args);
    expect(fast).toBeDefined();
    expect(await commanderParse(args)).toEqual({ words: fast?.words, options: fast?.options });
  });

  it.each(DEFERRED)('%j is left to commander (%s)', (args) => {
    expect(parseCheckArgs(args)).toBeUndefined();
  });
});
