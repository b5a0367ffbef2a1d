/**
 * `npm run bench [filter]`: runs every `bench/*.bench.ts` (or those whose name contains `filter`)
 * and prints each report. A bench module's default export is `() => Promise<BenchReport>`.
 * Benchmarks compare against the baseline their issue names, in the same run, and report ratios.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface BenchReport {
  name: string;
  /** Rows of figures: label → value with unit in the label (e.g. `overhead µs/call`). */
  figures: Record<string, number | string>;
  /** Target checks: label → whether the target holds. */
  targets?: Record<string, boolean>;
  notes?: string[];
}

const dir = path.dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? '';
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
  .sort();
for (const f of files) {
  const mod = (await import(pathToFileURL(path.join(dir, f)).href)) as {
    default: () => Promise<BenchReport>;
  };
  const r = await mod.default();
  console.log(`\n## ${r.name} (${f})`);
  for (const [k, v] of Object.entries(r.figures))
    console.log(`  ${k}: ${typeof v === 'number' ? +v.toFixed(3) : v}`);
  for (const [k, ok] of Object.entries(r.targets ?? {}))
    console.log(`  target ${k}: ${ok ? 'MET' : 'MISSED'}`);
  for (const n of r.notes ?? []) console.log(`  note: ${n}`);
}
