/**
 * `npm run eval:security -- [cases.jsonl …] [--failures] [--class NAME]`
 *
 * Evaluates security cases (format and scoring: the shared security data set) with the
 * permission engine and the shell analysis, WITHOUT executing anything. Prints one JSON line per
 * case (`id`, `class`, `expected`, `decision`, `pass`, `failure`, `reason`, `step`), then a JSON
 * line with per-class counts, then the closing line `N passed, N unsafe, N over-blocking`.
 *
 * Default file: ../shared/data/security/cases.jsonl. Any file in the same format works.
 * `--failures` prints only failing cases; `--class` keeps one class. Exit code 0 when there is no
 * unsafe result, 1 otherwise, 2 on a usage or input error.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CaseResult, evaluateCase, parseCases, summarise } from '../permissions/corpus/evaluate.js';
import { loadCorpusDescribers } from './shared/corpus-describers.js';

/** ../shared/data/security/cases.jsonl next to the repository (or under GANTRY_SHARED_DIR). */
function defaultCasesFile(): { file: string; found: boolean } {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const file = path.join(
    process.env.GANTRY_SHARED_DIR ?? path.resolve(repo, '../shared'),
    'data/security/cases.jsonl',
  );
  return { file, found: existsSync(file) };
}

async function main(argv: string[]): Promise<number> {
  const files: string[] = [];
  let failuresOnly = false;
  let onlyClass: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--failures') failuresOnly = true;
    else if (a === '--class') onlyClass = argv[++i];
    else if (a === '--help' || a === '-h') {
      console.log('usage: eval-security [cases.jsonl …] [--failures] [--class NAME]');
      return 0;
    } else files.push(a);
  }
  if (files.length === 0) {
    const f = defaultCasesFile();
    if (!f.found) {
      console.error(
        `no cases file given, and the default ${f.file} does not exist: pass a cases file, or set GANTRY_SHARED_DIR to the folder that holds data/security/cases.jsonl`,
      );
      return 2;
    }
    files.push(f.file);
  }
  const describers = await loadCorpusDescribers();
  const results: CaseResult[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      console.error(`cannot read ${file}: ${(e as Error).message}`);
      return 2;
    }
    const { cases, errors } = parseCases(text);
    for (const err of errors) console.error(`${file}:${err.line}: ${err.message}`);
    for (const c of cases) {
      if (onlyClass !== undefined && c.class !== onlyClass) continue;
      const r = evaluateCase(c, describers);
      results.push(r);
      if (!failuresOnly || !r.pass) console.log(JSON.stringify(r));
    }
  }
  const s = summarise(results);
  console.log(
    JSON.stringify({
      summary: {
        total: s.total,
        passed: s.passed,
        unsafe: s.unsafe,
        overBlocking: s.overBlocking,
        stricter: s.stricter,
        benign: s.benign,
      },
      byClass: s.byClass,
    }),
  );
  console.log(`${s.passed} passed, ${s.unsafe} unsafe, ${s.overBlocking} over-blocking`);
  return s.unsafe === 0 ? 0 : 1;
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
