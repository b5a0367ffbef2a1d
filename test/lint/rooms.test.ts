/**
 * The room rules of `.dependency-cruiser.cjs` (run by `npm run lint`) reject what docs/architecture.md
 * forbids and accept what it allows. Each row plants one import in a scratch tree laid out like
 * `src/`, runs dependency-cruiser with the repository's config on it, and checks which rule fired.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DEPCRUISE = path.join(REPO, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

/** [importing file, imported file, rule expected to fire (null = allowed), why]. */
const ROWS: Array<[string, string, string | null, string]> = [
  ['src/core/a.ts', 'src/shell/b.ts', 'room-core-imports-down-only', 'core is the bottom room'],
  ['src/mcp/a.ts', 'src/model/b.ts', 'room-mcp-imports-down-only', 'model sits above mcp'],
  ['src/loop/a.ts', 'src/agents/b.ts', 'room-loop-imports-down-only', 'the loop never imports agents'],
  ['src/runtime/a.ts', 'src/cli/b.ts', 'room-runtime-imports-down-only', 'cli is the top room'],
  ['src/shell/a.ts', 'src/permissions/b.ts', 'room-shell-imports-down-only', 'permissions sit above shell'],
  ['src/tools/read/a.ts', 'src/permissions/b.ts', 'tools-never-import-permissions', 'tools describe'],
  ['src/tools/read/a.ts', 'src/tools/bash/b.ts', 'tool-folders-independent', 'tool → tool'],
  ['src/tools/tasks/a.ts', 'src/tools/bash/b.ts', 'tool-folders-independent', 'kernel → tool'],
  ['src/tools/read/a.ts', 'src/tools/index.ts', 'tool-folders-not-registry', 'registry is on top'],
  ['src/runtime/a.ts', 'src/testing/b.ts', 'testing-only-from-tests', 'src/testing is for tests only'],
  ['src/shell/a.ts', 'src/shell/test-support.ts', 'testing-only-from-tests', 'test-support is not shipped'],
  ['src/index.ts', 'src/cli/b.ts', 'library-entry-not-cli', 'the package entry never loads the CLI'],
  ['src/cli/a.ts', 'src/agents/b.ts', null, 'cli may import every room'],
  ['src/agents/a.ts', 'src/loop/b.ts', null, 'agents drive the loop'],
  ['src/mcp/a.ts', 'src/runtime/b.ts', null, 'mcp sits above runtime'],
  ['src/model/a.ts', 'src/mcp/b.ts', null, 'model sits above mcp'],
  ['src/tools/read/a.ts', 'src/tools/file-io/b.ts', null, 'file-io is a shared kernel'],
  ['src/tools/bash/a.ts', 'src/tools/tasks/b.ts', null, 'tasks is a shared kernel'],
  ['src/tools/glob/a.ts', 'src/tools/ripgrep/b.ts', null, 'ripgrep is a shared kernel'],
  ['src/tools/read/a.ts', 'src/tools/read/b.ts', null, 'inside one tool folder'],
  ['src/tools/index.ts', 'src/tools/bash/b.ts', null, 'the registry lists the tools'],
  ['src/core/a.test.ts', 'src/cli/b.ts', null, 'tests may import any room'],
  ['src/runtime/a.test.ts', 'src/testing/b.ts', null, 'tests use src/testing'],
];

let root: string;
/** Violated rule names per importing file, from one dependency-cruiser run over every row at once. */
const fired = new Map<string, string[]>();

function write(rel: string, text: string): void {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function importPath(from: string, to: string): string {
  const rel = path.relative(path.dirname(from), to).replace(/\.ts$/, '.js');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** Row `i`'s files, made unique per row (`a.ts` → `a3.ts`) except fixed names such as `index.ts`. */
function rowFiles(i: number): [string, string] {
  const row = ROWS[i] as (typeof ROWS)[number];
  const unique = (f: string) => f.replace(/\/(a|b)(\.test)?\.ts$/, `/$1${i}$2.ts`);
  return [unique(row[0]), unique(row[1])];
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'gantry-rooms-'));
  write(
    'tsconfig.json',
    JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', rootDir: '.' } }),
  );
  write('package.json', JSON.stringify({ name: 'rooms-fixture', type: 'module' }));
  ROWS.forEach((_, i) => {
    const [from, to] = rowFiles(i);
    write(to, 'export const b = 1;\n');
    write(from, `import { b } from '${importPath(from, to)}';\nexport const a = b;\n`);
  });
  const result = await run(
    process.execPath,
    [DEPCRUISE, 'src', '--config', path.join(REPO, '.dependency-cruiser.cjs'), '--output-type', 'json'],
    { cwd: root, maxBuffer: 16 * 1024 * 1024 },
  ).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
  const report = JSON.parse(result.stdout) as {
    summary: { violations: Array<{ from: string; rule: { name: string } }> };
  };
  for (const v of report.summary.violations) fired.set(v.from, [...(fired.get(v.from) ?? []), v.rule.name]);
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('room rules (npm run lint)', () => {
  it.each(ROWS.map((row, i) => [...row, i] as const))('%s → %s: %s (%s)', (_from, _to, rule, _why, i) => {
    const [from] = rowFiles(i);
    expect(fired.get(from) ?? []).toEqual(rule === null ? [] : [rule]);
  });

  it('the repository itself has no violation', async () => {
    const r = await run(process.execPath, [DEPCRUISE, 'src', '--output-type', 'err'], { cwd: REPO });
    expect(r.stdout).toContain('no dependency violations found');
  });
});
