/**
 * The literal gate in a process that never loaded the grammar (this file never calls
 * `initShellParser()` first): literal lines are analysed without it, the grammar stays unloaded,
 * and the results equal those of the full parser once it is loaded.
 */
import { describe, expect, it } from 'vitest';
import { analyzeCommandAsync } from './analyze.js';
import { describeBashCommand } from './index.js';
import { setLiteralGate } from './literal-command.js';
import { isShellParserReady } from './parser.js';

const world = { cwd: '/nonexistent-gantry-literal/project', home: '/nonexistent-gantry-literal/home' };
const LITERAL = [
  'git status',
  'ls -la src',
  'rm -rf /',
  'sh -c ls',
  'eval ls -la',
  'xargs rm',
  'git log -3',
  'curl http://x',
];

describe('a cold process', () => {
  it('analyses literal lines without loading the grammar, then a non-literal line loads it; results match the full parser', async () => {
    const cold = [];
    for (const line of LITERAL) cold.push(await analyzeCommandAsync(line, world));
    const described = [];
    for (const line of LITERAL) described.push(await describeBashCommand(line, world));
    expect(isShellParserReady()).toBe(false);
    const piped = await analyzeCommandAsync('git status | head', world);
    expect(isShellParserReady()).toBe(true);
    expect(piped.subcommands.map((s) => s.program)).toEqual(['git', 'head']);
    const was = setLiteralGate(false);
    try {
      for (const [i, line] of LITERAL.entries()) {
        expect(cold[i], line).toEqual(await analyzeCommandAsync(line, world));
        expect(described[i], line).toEqual(await describeBashCommand(line, world));
      }
    } finally {
      setLiteralGate(was);
    }
  });
});
