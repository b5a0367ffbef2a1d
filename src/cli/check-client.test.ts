/**
 * `localCheckHint` (check-client.ts): which in-process checks bin/gantry.js may run without the
 * grammar's V8 flag. Only a plain check of one command line the literal gate admits; everything
 * else keeps the flag (a wrong "no" would only make a grammar compile slower, never change an answer).
 */
import { describe, expect, it } from 'vitest';
import { parseCheckArgs } from './check-args.js';
import { localCheckHint } from './check-client.js';

describe('localCheckHint', () => {
  it.each([
    [['--', 'git status'], false, 'one literal command line'],
    [['git', 'status'], false, 'the words after check, joined with spaces, are the same literal line'],
    [['--mode', 'plan', '--json', '--', 'ls -la src'], false, 'options do not change the command line'],
    [['--', 'git status | head'], true, 'a pipeline needs the grammar'],
    [['--', 'echo "$HOME"'], true, 'quotes and expansions need the grammar'],
    [['--', 'git  status'], true, 'two spaces: the gate refuses it'],
    [['--', 'export A'], true, 'a declaration command is parsed by the grammar'],
    [['--tool', 'Bash', '--input', '{"command":"ls"}'], true, '--tool: the input is read later'],
    [['--tool', 'Read', '--input', '{}'], true, '--tool for another tool keeps the flag (unchanged)'],
    [['--help'], true, 'help goes to the full command line'],
    [['--bogus', '--', 'ls'], true, 'a malformed invocation goes to the full command line'],
    [[], true, 'nothing to check: an error message, no decision'],
    [['--', 'constructor'], false, 'a prototype name is a plain literal word'],
  ])('%j → mayParseShell %s (%s)', (args, mayParseShell, _reason) => {
    expect(localCheckHint(parseCheckArgs(args))).toEqual({ mayParseShell });
  });
});
