/**
 * Test support for the LSP tool: the language servers installed as dev dependencies
 * (`typescript-language-server` with the `typescript59` alias of TypeScript 5.9, whose package
 * ships `tsserver.js`; `bash-language-server`) as `lspServers` entries, and a small TypeScript
 * project to ask about. Tests only.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from './shared-data.js';

export const TS_LANGUAGE_SERVER = path.join(REPO_ROOT, 'node_modules/.bin/typescript-language-server');
export const BASH_LANGUAGE_SERVER = path.join(REPO_ROOT, 'node_modules/.bin/bash-language-server');
export const TSSERVER_JS = path.join(REPO_ROOT, 'node_modules/typescript59/lib/tsserver.js');

/**
 * The `lspServers.typescript` entry. `useSyntaxServer: never`: every answer comes from the full
 * project (the separate syntax server answers from one file while the project loads). A long
 * `diagnosticsTimeoutMs`: the tests only wait for diagnostics that do come (an error appearing or
 * going away), and a loaded test machine can take seconds to check a file.
 */
export function typescriptServerEntry(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    command: TS_LANGUAGE_SERVER,
    args: ['--stdio'],
    extensionToLanguage: { '.ts': 'typescript', '.tsx': 'typescriptreact' },
    initializationOptions: { tsserver: { path: TSSERVER_JS, useSyntaxServer: 'never' } },
    diagnosticsTimeoutMs: 60_000,
    ...extra,
  };
}

/** The `lspServers.bash` entry. */
export function bashServerEntry(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    command: BASH_LANGUAGE_SERVER,
    args: ['start'],
    extensionToLanguage: { '.sh': 'shellscript', '.bash': 'shellscript' },
    ...extra,
  };
}

/**
 * `src/math.ts` (an interface, a class implementing it, a function) and `src/main.ts` (calls into
 * it), with a strict tsconfig. Positions used by the tests are 1-based:
 * - math.ts 2:3 `area` of Shape; 4:14 `Square`; 6:3 `area` of Square; 10:17 `add`;
 * - main.ts 2:17 `total`; 3:10 `add(1, 2)`; 5:17 `report`; 6:17 `total()`.
 */
export async function writeTypescriptProject(root: string): Promise<{ math: string; main: string }> {
  await mkdir(path.join(root, 'src'), { recursive: true });
  const math = path.join(root, 'src', 'math.ts');
  const main = path.join(root, 'src', 'main.ts');
  await writeFile(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, module: 'commonjs', target: 'es2020', types: [] } }),
  );
  await writeFile(
    math,
    [
      'export interface Shape {',
      '  area(): number;',
      '}',
      'export class Square implements Shape {',
      '  constructor(private readonly side: number) {}',
      '  area(): number {',
      '    return this.side * this.side;',
      '  }',
      '}',
      'export function add(a: number, b: number): number {',
      '  return a + b;',
      '}',
      '',
    ].join('\n'),
  );
  await writeFile(
    main,
    [
      "import { add, Square } from './math';",
      'export function total(): number {',
      '  return add(1, 2) + new Square(3).area();',
      '}',
      'export function report(): string {',
      '  return String(total());',
      '}',
      '',
    ].join('\n'),
  );
  return { math, main };
}
