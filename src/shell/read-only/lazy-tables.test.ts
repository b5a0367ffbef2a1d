/**
 * The option tables of read-only validation and effects are built on a program's first lookup
 * (byTable, scanner, compiledLazily: docs/startup.md). The answers must not depend on when a table
 * was built: two fresh instances of the shell room analyse the same lines, one with every table
 * built at first use in line order (lazy), the other with every table built before its first line
 * (eager: every program of READ_ONLY_VALIDATORS and of the effect handlers looked up once first,
 * in reverse order) and the lines in reverse order. Lines: probes of every program in the tables and the shared
 * command corpora (tldr pages, real agent sessions). Analyses and call descriptions must be equal.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { sharedFile } from '../../testing/shared-data.js';

const world = { cwd: '/nonexistent-gantry-lazy/project', home: '/nonexistent-gantry-lazy/home' };
const tldr = sharedFile('data/real/tldr-commands.jsonl');
const agent = sharedFile('data/real/agent-tool-calls.jsonl');

function corpusCommands(): string[] {
  const out: string[] = [];
  if (tldr)
    for (const l of readFileSync(tldr, 'utf8').split('\n'))
      if (l) out.push((JSON.parse(l) as { command: string }).command);
  if (agent)
    for (const l of readFileSync(agent, 'utf8').split('\n')) {
      if (!l) continue;
      const row = JSON.parse(l) as { tool: string; input?: { command?: unknown } };
      if (row.tool === 'Bash' && typeof row.input?.command === 'string') out.push(row.input.command);
    }
  return out;
}

/** A fresh instance of the shell room (no table built yet), its parser ready. */
async function freshShellRoom() {
  vi.resetModules();
  const parser = await import('../parser.js');
  await parser.initShellParser();
  const analyze = await import('../analyze.js');
  const index = await import('../index.js');
  const readOnly = await import('./index.js');
  const effects = await import('../effects/index.js');
  return {
    run: (line: string) => {
      const a = analyze.analyzeCommand(line, world);
      return { analysis: a, description: index.describeAnalysis(a) };
    },
    programs: [...Object.keys(readOnly.READ_ONLY_VALIDATORS), ...effects.effectHandlerPrograms()],
  };
}

/** Arguments that reach each kind of table entry: none, flags, values, unknown options, operands. */
const PROBES = ['', ' --help', ' -x y', ' -o out.txt a b', ' --output=f --verbose -- a', ' -n 5 -- -z'];

describe('lazily built option tables', () => {
  it('give every program the same answers as tables built before the first lookup', async () => {
    const lazy = await freshShellRoom();
    const programs = [...new Set(lazy.programs)].sort();
    expect(programs.length).toBeGreaterThan(150);
    const lines = [...programs.flatMap((p) => PROBES.map((a) => `${p}${a}`)), ...new Set(corpusCommands())];
    const lazyAnswers = lines.map((l) => lazy.run(l));

    const eager = await freshShellRoom();
    for (const p of [...programs].reverse()) eager.run(p);
    const eagerAnswers = new Map<string, unknown>();
    for (let i = lines.length - 1; i >= 0; i--) {
      const l = lines[i] as string;
      eagerAnswers.set(l, eager.run(l));
    }
    for (const [i, l] of lines.entries()) expect(eagerAnswers.get(l), l).toEqual(lazyAnswers[i]);
  });
});
