/**
 * The JavaScript fallback's directory walk, built to list the same files ripgrep would (docs/dependencies.md "ripgrep (Glob and Grep)"):
 *
 * - depth-first, directory entries sorted by name bytes (= ripgrep's `--sort=path` order);
 * - hidden files and directories included (ripgrep `--hidden`);
 * - symbolic links skipped, as ripgrep does without `--follow` (so a link inside the tree never makes
 *   a search read outside it);
 * - directories named in `excludeDirs` (VCS directories) never entered;
 * - when `respectIgnore`: `.rgignore`, `.ignore` (anywhere) and, inside a git repository (a `.git`
 *   entry in the root or a parent), `.gitignore` files and `.git/info/exclude`, including those of
 *   the root's parents up to the repository root — deeper files and `.rgignore` > `.ignore` >
 *   `.gitignore` take precedence, `!` re-includes. The user's global git excludes file is not read.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { AbortError } from '../../core/index.js';
import type { OverrideGlobs } from './override-globs.js';
import { compareUtf8 } from './path-order.js';

export interface WalkOptions {
  /** Absolute directory to walk (names, the git root and parent ignore files are found from it). */
  root: string;
  /** Where `root` is read from (a verified descriptor path, see search-types.ts); default `root`. */
  ioRoot?: string;
  respectIgnore: boolean;
  /** Directory basenames never entered, at any depth (e.g. `.git`). */
  excludeDirs: readonly string[];
  signal: AbortSignal;
  /** ripgrep `--glob` list: decides before ignore rules (see override-globs.ts). */
  overrides?: OverrideGlobs;
  /** `--type` filter, consulted only when no glob decided. */
  typeFilter?: (relPath: string) => boolean;
}

interface IgnoreFrame {
  /** Absolute directory the rules belong to. */
  dir: string;
  /** Highest precedence first. */
  rules: Ignore[];
}

const IGNORE_FILES_ANYWHERE = ['.rgignore', '.ignore'] as const;

/** The enclosing git repository root of `dir` (a directory holding a `.git` entry), or undefined. */
export function findGitRoot(dir: string): string | undefined {
  let current = dir;
  for (;;) {
    if (existsSync(path.join(current, '.git'))) return current;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

function readRulesSync(file: string): Ignore | undefined {
  try {
    return ignore({ allowRelativePaths: true }).add(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

async function readRules(file: string): Promise<Ignore | undefined> {
  try {
    return ignore({ allowRelativePaths: true }).add(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** True when the ignore frames exclude `absPath` (a directory when `isDir`). Deepest frame decides first. */
function isIgnored(frames: readonly IgnoreFrame[], absPath: string, isDir: boolean): boolean {
  for (let i = frames.length - 1; i >= 0; i--) {
    const frame = frames[i] as IgnoreFrame;
    let rel = path.relative(frame.dir, absPath).split(path.sep).join('/');
    if (!rel || rel.startsWith('..')) continue;
    if (isDir) rel += '/';
    for (const rules of frame.rules) {
      const verdict = rules.test(rel);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
  }
  return false;
}

/** Frames of the root's parent directories (up to the git root), outermost first. */
function parentFrames(root: string, gitRoot: string | undefined): IgnoreFrame[] {
  if (!gitRoot || gitRoot === root) return [];
  const dirs: string[] = [];
  for (let d = path.dirname(root); ; d = path.dirname(d)) {
    dirs.unshift(d);
    if (d === gitRoot || path.dirname(d) === d) break;
  }
  const frames: IgnoreFrame[] = [];
  for (const dir of dirs) {
    const rules: Ignore[] = [];
    for (const name of [...IGNORE_FILES_ANYWHERE, '.gitignore']) {
      const r = readRulesSync(path.join(dir, name));
      if (r) rules.push(r);
    }
    if (dir === gitRoot) {
      const r = readRulesSync(path.join(dir, '.git', 'info', 'exclude'));
      if (r) rules.push(r);
    }
    if (rules.length) frames.push({ dir, rules });
  }
  return frames;
}

/**
 * Yields the relative paths (`/`-separated) of the files under `root`, in ripgrep's path order.
 * Rejects with AbortError when `signal` aborts. Unreadable directories are skipped silently
 * (as ripgrep `--no-messages`).
 */
export async function* walkFiles(options: WalkOptions): AsyncGenerator<string, void, void> {
  const { root, signal } = options;
  const excluded = new Set(options.excludeDirs);
  const gitRoot = options.respectIgnore ? findGitRoot(root) : undefined;

  /** Where a directory under the root is read from (through the verified root when given). */
  const ioRoot = options.ioRoot;
  const readPath = (dirAbs: string, relDir: string): string =>
    ioRoot === undefined ? dirAbs : relDir ? `${ioRoot}/${relDir}` : ioRoot;

  async function* walk(dirAbs: string, relDir: string, frames: IgnoreFrame[]): AsyncGenerator<string> {
    if (signal.aborted) throw new AbortError('The search was aborted.');
    const dirIo = readPath(dirAbs, relDir);
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dirIo, { withFileTypes: true });
    } catch {
      return;
    }
    let here = frames;
    if (options.respectIgnore) {
      const names = new Set(entries.map((e) => e.name));
      const rules: Ignore[] = [];
      for (const name of IGNORE_FILES_ANYWHERE) {
        if (!names.has(name)) continue;
        const r = await readRules(path.join(dirIo, name));
        if (r) rules.push(r);
      }
      if (gitRoot && names.has('.gitignore')) {
        const r = await readRules(path.join(dirIo, '.gitignore'));
        if (r) rules.push(r);
      }
      if (gitRoot === dirAbs) {
        const r = await readRules(path.join(dirIo, '.git', 'info', 'exclude'));
        if (r) rules.push(r);
      }
      if (rules.length) here = [...frames, { dir: dirAbs, rules }];
    }
    entries.sort((a, b) => compareUtf8(a.name, b.name));
    for (const entry of entries) {
      if (entry.isSymbolicLink()) continue;
      const abs = path.join(dirAbs, entry.name);
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (excluded.has(entry.name)) continue;
        if (options.overrides && !options.overrides.dirAllowed(rel)) continue;
        if (options.respectIgnore && isIgnored(here, abs, true)) continue;
        yield* walk(abs, rel, here);
      } else if (entry.isFile()) {
        const verdict = options.overrides?.fileVerdict(rel) ?? 'none';
        if (verdict === 'exclude') continue;
        if (verdict === 'none') {
          if (options.respectIgnore && isIgnored(here, abs, false)) continue;
          if (options.typeFilter && !options.typeFilter(rel)) continue;
        }
        yield rel;
      }
    }
  }

  yield* walk(root, '', parentFrames(root, gitRoot));
}
