/**
 * Finds the search engine Glob and Grep run on (docs/dependencies.md "ripgrep (Glob and Grep)").
 *
 * Order: `$RG_PATH` → `@vscode/ripgrep`'s `rgPath` (when the file exists and is executable) → `rg` on
 * `PATH` → the JavaScript fallback (`js-search.ts`), so a machine without any rg still works.
 * A candidate that is set but unusable is skipped and named in `notes`, never silently trusted.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** Where a ripgrep binary came from. */
export type RipgrepSource = 'RG_PATH' | '@vscode/ripgrep' | 'PATH';

/** The engine a search runs on: a ripgrep binary, or the JavaScript fallback. */
export type SearchEngine =
  | { kind: 'ripgrep'; rgPath: string; source: RipgrepSource; notes: string[] }
  | { kind: 'javascript'; reason: string; notes: string[] };

/** How to pick the engine. `engine: 'javascript'` forces the fallback (tests, hosts without rg). */
export interface ResolveSearchEngineOptions {
  engine?: 'auto' | 'ripgrep' | 'javascript';
  /** Environment to read `RG_PATH` and `PATH` from (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** `@vscode/ripgrep`'s `rgPath` (injectable for tests); `null` = the package is not usable. */
  vscodeRgPath?: string | null;
}

/** True when `file` is a regular file this process may execute. */
export function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `rg` on `PATH`, or undefined. */
export function findOnPath(name: string, pathVariable: string | undefined): string | undefined {
  if (!pathVariable) return undefined;
  const exe = process.platform === 'win32' ? `${name}.exe` : name;
  for (const dir of pathVariable.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, exe);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

let vscodeRgPathCache: string | null | undefined;

/** `@vscode/ripgrep`'s `rgPath`, or null when the package (or its platform binary) is missing. Cached. */
export async function loadVscodeRgPath(): Promise<string | null> {
  if (vscodeRgPathCache !== undefined) return vscodeRgPathCache;
  try {
    // The module throws at import time when its platform package is not installed.
    const mod = (await import('@vscode/ripgrep')) as { rgPath?: string };
    vscodeRgPathCache = typeof mod.rgPath === 'string' ? mod.rgPath : null;
  } catch {
    vscodeRgPathCache = null;
  }
  return vscodeRgPathCache;
}

/**
 * Resolves the engine. Never throws: when nothing usable is found (or `engine: 'javascript'`), the
 * answer is the JavaScript fallback with its reason. With `engine: 'ripgrep'` a missing binary is an
 * error the caller reports (`kind: 'javascript'` is not acceptable there), so this returns the
 * fallback and the caller decides.
 */
export async function resolveSearchEngine(options: ResolveSearchEngineOptions = {}): Promise<SearchEngine> {
  const notes: string[] = [];
  if (options.engine === 'javascript') {
    return { kind: 'javascript', reason: 'forced by the engine option', notes };
  }
  const env = options.env ?? process.env;
  const fromEnv = env.RG_PATH;
  if (fromEnv) {
    if (isExecutableFile(fromEnv)) return { kind: 'ripgrep', rgPath: fromEnv, source: 'RG_PATH', notes };
    notes.push(`RG_PATH=${fromEnv} is not an executable file; ignored`);
  }
  const vscode = options.vscodeRgPath !== undefined ? options.vscodeRgPath : await loadVscodeRgPath();
  if (vscode) {
    if (isExecutableFile(vscode))
      return { kind: 'ripgrep', rgPath: vscode, source: '@vscode/ripgrep', notes };
    notes.push(`@vscode/ripgrep's rgPath ${vscode} is not an executable file; ignored`);
  } else {
    notes.push('@vscode/ripgrep is not installed for this platform');
  }
  const onPath = findOnPath('rg', env.PATH);
  if (onPath) return { kind: 'ripgrep', rgPath: onPath, source: 'PATH', notes };
  notes.push('no rg on PATH');
  return { kind: 'javascript', reason: 'no ripgrep binary found', notes };
}

/**
 * A lazily resolved, cached engine for one tool instance. With `engine: 'ripgrep'` and no binary,
 * the returned promise rejects (the caller asked for ripgrep explicitly).
 */
export function searchEngineProvider(options: ResolveSearchEngineOptions = {}): () => Promise<SearchEngine> {
  let cached: Promise<SearchEngine> | undefined;
  return () => {
    cached ??= resolveSearchEngine(options).then((engine) => {
      if (options.engine === 'ripgrep' && engine.kind !== 'ripgrep') {
        throw new Error(`ripgrep was required but not found (${engine.notes.join('; ')})`);
      }
      return engine;
    });
    return cached;
  };
}
