/**
 * Side-by-side CPU time of two checkouts' `analyzeCommand` on the worst-case shapes
 * (docs/analysis-budget.md, "Gantry's own work after the parse").
 *
 * `tsx src/testing/shell-side-by-side.ts <old-root> [new-root]` loads both checkouts' shell
 * modules (each with its own web-tree-sitter from its own node_modules) in one process and, per
 * shape, alternates them for ROUNDS rounds of REPS runs (the order flips each round). It prints the
 * fastest CPU time of each in ms and the ratio new ÷ old, with the load average before and after.
 * Environment: SHAPES (comma-separated names; default all), SIZE (characters; default 65000),
 * ROUNDS (default 6), REPS (default 4).
 */
import { loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

type Analyse = (command: string, opts: object) => unknown;

const here = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

async function load(root: string): Promise<Analyse> {
  const from = (rel: string) => import(pathToFileURL(path.join(root, rel)).href);
  const { analyzeCommand } = (await from('src/shell/analyze.ts')) as { analyzeCommand: Analyse };
  const { initShellParser } = (await from('src/shell/parser.ts')) as { initShellParser: () => Promise<void> };
  await initShellParser();
  return analyzeCommand;
}

const [oldRoot, newRoot = here] = process.argv.slice(2);
if (!oldRoot) {
  console.error('usage: shell-side-by-side.ts <old-root> [new-root]');
  process.exit(2);
}
const impls = [await load(path.resolve(oldRoot)), await load(path.resolve(newRoot))];
const { WORST_CASE_GENERATORS } = await import('./worst-case-commands.js');
const names = process.env.SHAPES ? process.env.SHAPES.split(',') : WORST_CASE_GENERATORS.map((g) => g.name);
const rounds = Number(process.env.ROUNDS ?? 6);
const reps = Number(process.env.REPS ?? 4);
const size = Number(process.env.SIZE ?? 65000);
const opts = { cwd: here, home: '/home/user', deadlineMs: 120_000 };
const load3 = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(`load before ${load3()}`);
for (const name of names) {
  const generator = WORST_CASE_GENERATORS.find((g) => g.name === name);
  if (!generator) throw new Error(`no worst-case shape named ${name}`);
  const command = generator.build(size);
  const best = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  for (const analyse of impls) analyse(command, opts);
  for (let r = 0; r < rounds; r++)
    for (let k = 0; k < 2; k++) {
      const which = (k + r) % 2;
      const analyse = impls[which] as Analyse;
      for (let i = 0; i < reps; i++) {
        const c0 = process.cpuUsage();
        analyse(command, opts);
        const u = process.cpuUsage(c0);
        best[which] = Math.min(best[which] as number, (u.user + u.system) / 1000);
      }
    }
  const [a, b] = best as [number, number];
  console.log(
    `${name.padEnd(26)} ${a.toFixed(1).padStart(7)} ${b.toFixed(1).padStart(7)}  ratio ${(b / a).toFixed(2)}`,
  );
}
console.log(`load after ${load3()}`);
