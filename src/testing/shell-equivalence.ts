/**
 * Equivalence harness for changes that must not change any shell-analysis decision
 * (docs/analysis-budget.md, "Where the time of a large command goes").
 *
 * `tsx src/testing/shell-equivalence.ts snapshot <out.jsonl> [repo-root]` analyses every command of
 * the tldr pages, the real agent Bash calls, NL2Bash and every generated worst-case shape at
 * 1/4/16/64 KiB with the `analyzeCommand` of `repo-root` (default: this checkout), and writes one
 * line per command: `{set, index, sha256 of JSON.stringify(analysis)}`. The resolver is an empty
 * in-memory map and the deadline 120 s, so the analysis depends on the code only, not on the
 * filesystem or the machine's load.
 *
 * `tsx src/testing/shell-equivalence.ts compare <a.jsonl> <b.jsonl>` prints the number of commands
 * compared and every one whose analysis differs; exit code 1 when any differs or the sets differ.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bashCommandsOfToolCalls } from './real-commands.js';

const here = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const shared = process.env.GANTRY_SHARED_DIR ?? path.resolve(here, '../shared');

interface Row {
  set: string;
  index: number;
  sha: string;
}

function lines(file: string): string[] {
  return readFileSync(path.join(shared, file), 'utf8').split('\n');
}

function corpora(worst: readonly { name: string; build(n: number): string }[], sizes: readonly number[]) {
  const sets: [string, string[]][] = [];
  const tldr: string[] = [];
  for (const l of lines('data/real/tldr-commands.jsonl')) if (l) tldr.push(JSON.parse(l).command as string);
  sets.push(['tldr', tldr]);
  const agent = bashCommandsOfToolCalls(lines('data/real/agent-tool-calls.jsonl'));
  sets.push(['agent', agent]);
  sets.push(['nl2bash', lines('data/real/nl2bash-commands.txt').filter((l) => l.trim() !== '')]);
  const shapes: string[] = [];
  for (const g of worst) for (const n of sizes) shapes.push(g.build(n));
  sets.push(['worst', shapes]);
  return sets;
}

async function snapshot(out: string, root: string): Promise<void> {
  const load = (rel: string) => import(pathToFileURL(path.join(root, rel)).href);
  const { analyzeCommand } = await load('src/shell/analyze.ts');
  const { initShellParser } = await load('src/shell/parser.ts');
  const { mapPathResolver } = await load('src/core/paths.ts');
  const { WORST_CASE_GENERATORS, WORST_CASE_SIZES } = await load('src/testing/worst-case-commands.ts');
  await initShellParser();
  const opts = {
    cwd: '/home/user/project',
    home: '/home/user',
    resolver: mapPathResolver({}),
    deadlineMs: 120_000,
  };
  const rows: string[] = [];
  for (const [set, commands] of corpora(WORST_CASE_GENERATORS, WORST_CASE_SIZES)) {
    commands.forEach((command, index) => {
      const json = JSON.stringify(analyzeCommand(command, opts));
      const sha = createHash('sha256').update(json).digest('hex');
      rows.push(JSON.stringify({ set, index, sha } satisfies Row));
    });
  }
  writeFileSync(out, `${rows.join('\n')}\n`);
  console.log(`${rows.length} analyses written to ${out}`);
}

function compare(a: string, b: string): number {
  const read = (f: string): Row[] =>
    readFileSync(f, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Row);
  const ra = read(a);
  const rb = read(b);
  if (ra.length !== rb.length) {
    console.log(`different sets: ${ra.length} vs ${rb.length} analyses`);
    return 1;
  }
  let diff = 0;
  ra.forEach((r, i) => {
    const o = rb[i] as Row;
    if (r.set !== o.set || r.index !== o.index || r.sha !== o.sha) {
      diff++;
      console.log(`differs: ${r.set} #${r.index}`);
    }
  });
  console.log(`${ra.length} analyses compared, ${diff} differ`);
  return diff === 0 ? 0 : 1;
}

const [mode, x, y] = process.argv.slice(2);
if (mode === 'snapshot' && x) await snapshot(x, path.resolve(y ?? here));
else if (mode === 'compare' && x && y) process.exitCode = compare(x, y);
else {
  console.error('usage: shell-equivalence.ts snapshot <out> [root] | compare <a> <b>');
  process.exitCode = 2;
}
