/**
 * Memory files: the instructions a user and a project leave for the agent, read once at session
 * start (docs/loop.md, "Memory files").
 *
 * Where they are read from, in this order (general first, so the more specific file comes later
 * and wins where they disagree):
 *   1. user:    `~/.gantry/GANTRY.md`, then `~/.claude/CLAUDE.md` (read only; Gantry never writes there)
 *   2. project: for each directory from the repository root down to the working directory
 *               (only the working directory when it is not in a repository):
 *               `CLAUDE.md`, `.claude/CLAUDE.md`, `AGENTS.md`, `.gantry/GANTRY.md`
 *   3. local:   `CLAUDE.local.md` in the same directories (personal, usually git-ignored)
 *
 * `@path` imports (Claude Code's memory import syntax, Claude Code documentation "Manage Claude's
 * memory"): a token `@some/file.md` outside code spans and fenced blocks pulls that file in right
 * after the importing one. Relative paths resolve against the importing file's directory, `~/`
 * against the home directory. At most `MAX_IMPORT_DEPTH` levels; a file already included (by real
 * path) is not included again, so cycles end. Missing or unreadable imports are skipped.
 *
 * Bounds: a file is cut at `MAX_MEMORY_FILE_CHARS`, the whole memory at `MAX_MEMORY_TOTAL_CHARS`;
 * files that look binary (a NUL byte) are skipped.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

export const MAX_IMPORT_DEPTH = 5;
export const MAX_MEMORY_FILE_CHARS = 40_000;
export const MAX_MEMORY_TOTAL_CHARS = 120_000;

export type MemoryScope = 'user' | 'project' | 'local' | 'import';

export interface MemoryFile {
  path: string;
  scope: MemoryScope;
  content: string;
  /** The file that imported this one. */
  importedFrom?: string;
  truncated: boolean;
}

export interface LoadMemoryOptions {
  cwd: string;
  /** Repository root (the walk starts here); undefined = only `cwd`. */
  projectRoot?: string;
  home: string;
}

const PROJECT_NAMES = [
  'CLAUDE.md',
  path.join('.claude', 'CLAUDE.md'),
  'AGENTS.md',
  path.join('.gantry', 'GANTRY.md'),
];
const LOCAL_NAMES = ['CLAUDE.local.md'];

/** Directories from `root` down to `cwd` (both included); just `cwd` when `cwd` is not under `root`. */
export function directoriesDown(root: string | undefined, cwd: string): string[] {
  const target = path.resolve(cwd);
  if (!root) return [target];
  const base = path.resolve(root);
  const rel = path.relative(base, target);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return [target];
  const out = [base];
  let current = base;
  for (const part of rel.split(path.sep).filter(Boolean)) {
    current = path.join(current, part);
    out.push(current);
  }
  return out;
}

function readText(file: string): string | undefined {
  try {
    if (!statSync(file).isFile()) return undefined;
    const text = readFileSync(file, 'utf8');
    return text.includes('\u0000') ? undefined : text;
  } catch {
    return undefined;
  }
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** The `@path` import targets of a memory text, outside fenced blocks and inline code. */
export function importTargets(text: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const withoutCode = line.replace(/`[^`]*`/g, ' ');
    for (const m of withoutCode.matchAll(/(?:^|\s)@((?:~\/|\.{1,2}\/|\/)?[\w.\-/]*[\w\-/][\w.\-/]*)/g)) {
      const target = m[1] as string;
      // An e-mail-like or bare-word mention (`@team`) is not an import: require a path shape.
      if (!target.includes('/') && !target.includes('.')) continue;
      out.push(target);
    }
  }
  return out;
}

function resolveImport(target: string, fromFile: string, home: string): string {
  if (target.startsWith('~/')) return path.join(home, target.slice(2));
  if (path.isAbsolute(target)) return target;
  return path.resolve(path.dirname(fromFile), target);
}

/** Reads every memory file for a session (see the module comment). */
export function loadMemoryFiles(options: LoadMemoryOptions): MemoryFile[] {
  const files: MemoryFile[] = [];
  const seen = new Set<string>();
  let total = 0;

  const add = (file: string, scope: MemoryScope, depth: number, importedFrom?: string): void => {
    if (total >= MAX_MEMORY_TOTAL_CHARS) return;
    const real = realPath(file);
    if (seen.has(real)) return;
    const text = readText(file);
    if (text === undefined) return;
    seen.add(real);
    const room = Math.min(MAX_MEMORY_FILE_CHARS, MAX_MEMORY_TOTAL_CHARS - total);
    const truncated = text.length > room;
    const content = truncated ? text.slice(0, room) : text;
    total += content.length;
    files.push({ path: file, scope, content, truncated, ...(importedFrom ? { importedFrom } : {}) });
    if (depth >= MAX_IMPORT_DEPTH) return;
    for (const target of importTargets(content)) {
      add(resolveImport(target, file, options.home), 'import', depth + 1, file);
    }
  };

  add(path.join(options.home, '.gantry', 'GANTRY.md'), 'user', 0);
  add(path.join(options.home, '.claude', 'CLAUDE.md'), 'user', 0);
  const dirs = directoriesDown(options.projectRoot, options.cwd);
  for (const dir of dirs) for (const name of PROJECT_NAMES) add(path.join(dir, name), 'project', 0);
  for (const dir of dirs) for (const name of LOCAL_NAMES) add(path.join(dir, name), 'local', 0);
  return files;
}

const SCOPE_LABEL: Record<MemoryScope, string> = {
  user: "the user's own instructions, for every project",
  project: 'project instructions, checked into the repository',
  local: "the user's private instructions for this project",
  import: 'imported',
};

/** The `# Memory` section of the system prompt; empty when there are no files. */
export function memorySection(files: readonly MemoryFile[]): string {
  if (files.length === 0) return '';
  const parts = [
    '# Memory',
    'The files below hold instructions from the user and the project. Follow them: where they conflict with the defaults above, they win (the security section still applies).',
  ];
  for (const f of files) {
    const label = f.importedFrom ? `${SCOPE_LABEL.import} by ${f.importedFrom}` : SCOPE_LABEL[f.scope];
    parts.push(
      `## ${f.path} (${label})\n${f.content.trimEnd()}${f.truncated ? '\n… (cut: the file is longer than the memory limit)' : ''}`,
    );
  }
  return parts.join('\n\n');
}
