/**
 * Real input through the whole analysis: every command of the tldr pages,
 * NL2Bash and the Bash calls of real agent sessions gets an analysis — no exception, no hang — and
 * every analysis keeps the facade's invariants. (Split/check behaviour and the `bash -n` comparison
 * are in real-input.test.ts.)
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { isMutatingEffect } from '../core/effects.js';
import { mapPathResolver } from '../core/paths.js';
import { sharedFile } from '../testing/shared-data.js';
import { analyzeCommand } from './analyze.js';
import { initShellParser } from './parser.js';
import type { CommandAnalysis } from './types.js';

const tldr = sharedFile('data/real/tldr-commands.jsonl');
const nl2bash = sharedFile('data/real/nl2bash-commands.txt');
const agent = sharedFile('data/real/agent-tool-calls.jsonl');

const opts = { cwd: '/home/user/project', home: '/home/user', resolver: mapPathResolver({}) };

function commandsOf(name: 'tldr' | 'nl2bash' | 'agent'): string[] {
  if (name === 'tldr' && tldr)
    return readFileSync(tldr, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { command: string }).command);
  if (name === 'nl2bash' && nl2bash)
    return readFileSync(nl2bash, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
  const out: string[] = [];
  if (name === 'agent' && agent)
    for (const line of readFileSync(agent, 'utf8').split('\n')) {
      if (!line) continue;
      const row = JSON.parse(line) as { tool: string; input?: { command?: unknown } };
      if (['Bash', 'bash', 'execute_bash'].includes(row.tool) && typeof row.input?.command === 'string')
        out.push(row.input.command);
    }
  return out;
}

/** The invariants every analysis keeps; returns the first broken one, or undefined. */
function broken(a: CommandAnalysis): string | undefined {
  const n = a.subcommands.length;
  if (a.effects.some((e) => e.subcommand === undefined || e.subcommand < 0 || e.subcommand >= n))
    return 'an effect points outside the sub-commands';
  if (a.findings.some((f) => f.subcommand !== undefined && (f.subcommand < 0 || f.subcommand >= n)))
    return 'a finding points outside the sub-commands';
  if (a.readOnly) {
    if (!a.parseOk) return 'read-only without a full parse';
    if (a.findings.length) return 'read-only with findings';
    if (!a.subcommands.every((s) => s.readOnly)) return 'read-only with a non-read-only sub-command';
    if (a.effects.some((e) => isMutatingEffect(e) || e.certainty === 'unknown' || e.kind === 'network'))
      return 'read-only with a write, delete, network or unknown effect';
  }
  if (a.subcommands.some((s) => s.readOnly && s.readOnlyReason === '')) return 'a verdict without a reason';
  return undefined;
}

beforeAll(async () => {
  await initShellParser();
});

describe.each([
  ['tldr', tldr],
  ['nl2bash', nl2bash],
  ['agent', agent],
] as const)('analyzeCommand over %s', (name, file) => {
  it.skipIf(!file)('analyses every command and keeps the invariants', () => {
    const commands = commandsOf(name);
    expect(commands.length).toBeGreaterThan(1000);
    const failures: string[] = [];
    for (const c of commands) {
      let problem: string | undefined;
      try {
        problem = broken(analyzeCommand(c, opts));
      } catch (error) {
        problem = `threw ${error instanceof Error ? error.message : String(error)}`;
      }
      if (problem) failures.push(`${problem}: ${JSON.stringify(c).slice(0, 120)}`);
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });
});
