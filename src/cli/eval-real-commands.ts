/**
 * `npm run eval:real-commands -- [file.jsonl] [--all]`
 *
 * Over-blocking on real agent commands: each row of the sample of real Bash calls that Claude Code
 * was run on (`../shared/peers/real-sample-cc-2.1.332.jsonl`, or GANTRY_SHARED_DIR; format: one
 * JSON object per line with `id`, `command_run` or `command`, `cwd_run`, and Claude Code's
 * `outcome` executed/asked/error) is decided by the guard `gantry check` uses, in default mode with
 * no rules, in the row's mapped working directory (the project root) and the mapped home
 * `/home/user`. Nothing is executed.
 *
 * Prints one JSON line per row where Gantry asks or denies a command Claude Code ran (every row
 * with `--all`), then a summary line: counts by (Claude Code outcome, Gantry decision) and the
 * check ids behind Gantry's asks of commands Claude Code ran. Exit code 0, or 2 on an input error.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGuard } from './shared/guard.js';

/** The home directory the sample's paths were mapped to. */
const SAMPLE_HOME = '/home/user';

interface SampleRow {
  id: string;
  command: string;
  command_run?: string;
  cwd_run: string;
  outcome: 'executed' | 'asked' | 'error';
}

function defaultFile(): string | undefined {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const f = path.join(
    process.env.GANTRY_SHARED_DIR ?? path.resolve(repo, '../shared'),
    'peers/real-sample-cc-2.1.332.jsonl',
  );
  return existsSync(f) ? f : undefined;
}

async function main(argv: string[]): Promise<number> {
  const all = argv.includes('--all');
  const file = argv.find((a) => !a.startsWith('--')) ?? defaultFile();
  if (!file) {
    console.error('no sample file given and ../shared/peers/real-sample-cc-2.1.332.jsonl not found');
    return 2;
  }
  let rows: SampleRow[];
  try {
    rows = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as SampleRow);
  } catch (e) {
    console.error(`cannot read ${file}: ${(e as Error).message}`);
    return 2;
  }
  // No user, project or managed settings: Claude Code ran the sample in default mode with no rules.
  const counts: Record<string, number> = {};
  const reasons: Record<string, number> = {};
  {
    for (const row of rows) {
      const command = row.command_run ?? row.command;
      const guard = createGuard({
        cwd: row.cwd_run,
        home: SAMPLE_HOME,
        managedFiles: [],
        settingSources: [],
        mode: 'default',
      });
      const r = await guard.check('Bash', { command }, { cwd: row.cwd_run });
      const d = r.detailed.decision;
      const key = `${row.outcome}->${d.behavior}`;
      counts[key] = (counts[key] ?? 0) + 1;
      const ranButGated = row.outcome === 'executed' && d.behavior !== 'allow';
      if (ranButGated) {
        const why = d.reason.checkId ?? d.reason.type;
        reasons[why] = (reasons[why] ?? 0) + 1;
      }
      if (all || ranButGated)
        console.log(
          JSON.stringify({
            id: row.id,
            command,
            cwd: row.cwd_run,
            claudeCode: row.outcome,
            gantry: d.behavior,
            step: r.detailed.step,
            why: d.reason.checkId ?? d.reason.type,
            reason: d.reason.message,
          }),
        );
    }
  }
  const ran = rows.filter((r) => r.outcome === 'executed').length;
  const gated = Object.values(reasons).reduce((a, b) => a + b, 0);
  console.log(
    JSON.stringify({
      summary: { rows: rows.length, claudeCodeRan: ran, gantryGatedOfThose: gated, counts, reasons },
    }),
  );
  console.log(`${rows.length} commands; Claude Code ran ${ran}; Gantry asks or denies ${gated} of those`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exitCode = 2;
  },
);
