/**
 * The git side of worktrees, shared by the EnterWorktree / ExitWorktree tools and the Agent tool's
 * `isolation: "worktree"`: everything goes through the git CLI (`git worktree add|remove|prune`,
 * `git status --porcelain`, `git rev-list`), run without optional locks or terminal prompts.
 *
 * Location: Gantry keeps the worktrees it makes in `<repository root>/.gantry/worktrees/` (its
 * counterpart of Claude Code's `.claude/worktrees/`; the permission engine does not protect that
 * folder, see core/protected-paths.ts). Errors are `ToolExecutionError`s that say what to do.
 */
import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ToolExecutionError } from '../../core/index.js';

const run = promisify(execFile);

/** The worktrees folder, relative to the repository root. */
export const WORKTREES_FOLDER = path.join('.gantry', 'worktrees');

const GIT_ENV = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' };

/** Runs `git <args>` in `cwd`; resolves with trimmed stdout, rejects on a non-zero exit. */
export async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-c', 'core.fsmonitor=false', ...args], {
    cwd,
    env: GIT_ENV,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout.trim();
}

/** The error text of a failed git call (its stderr when it has one). */
export function gitError(error: unknown): string {
  const stderr = (error as { stderr?: unknown } | null)?.stderr;
  if (typeof stderr === 'string' && stderr.trim()) return stderr.trim();
  return error instanceof Error ? error.message : String(error);
}

/** The top of the checkout `cwd` is in, or undefined outside a git repository. */
export async function checkoutRoot(cwd: string): Promise<string | undefined> {
  return git(cwd, ['rev-parse', '--show-toplevel']).catch(() => undefined);
}

/**
 * The main repository's root for `cwd` (also when `cwd` is inside a linked worktree: the directory
 * holding the common `.git`), or undefined outside a git repository.
 */
export async function repositoryRoot(cwd: string): Promise<string | undefined> {
  const common = await git(cwd, ['rev-parse', '--path-format=absolute', '--git-common-dir']).catch(
    () => undefined,
  );
  if (!common) return undefined;
  return path.basename(common) === '.git' ? path.dirname(common) : checkoutRoot(cwd);
}

/** `<repoRoot>/.gantry/worktrees`. */
export function worktreesFolder(repoRoot: string): string {
  return path.join(repoRoot, WORKTREES_FOLDER);
}

/** The commit `HEAD` points at; a clear error in a repository without commits. */
export async function headCommit(cwd: string, what: string): Promise<string> {
  try {
    return await git(cwd, ['rev-parse', 'HEAD']);
  } catch {
    throw new ToolExecutionError(`${what} needs at least one commit in the repository.`);
  }
}

/** True when branch `refs/heads/<branch>` exists. */
export async function branchExists(repoRoot: string, branch: string): Promise<boolean> {
  return git(repoRoot, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]).then(
    () => true,
    () => false,
  );
}

/** Forgets worktrees whose directory is gone (left by a crash). Never throws. */
export async function pruneWorktrees(repoRoot: string): Promise<void> {
  await git(repoRoot, ['worktree', 'prune']).catch(() => undefined);
}

/** `git worktree add -b <branch> <dir> <base>`; a ToolExecutionError with git's message on failure. */
export async function addWorktree(
  repoRoot: string,
  dir: string,
  branch: string,
  base: string,
): Promise<void> {
  try {
    await git(repoRoot, ['worktree', 'add', '-b', branch, dir, base]);
  } catch (error) {
    throw new ToolExecutionError(`git worktree add failed: ${gitError(error)}`);
  }
}

/** One entry of `git worktree list --porcelain`. */
export interface ListedWorktree {
  /** Absolute path (as git records it). */
  path: string;
  /** Short branch name, when one is checked out. */
  branch?: string;
  head?: string;
}

/** The repository's worktrees (the main checkout first). */
export async function listWorktrees(repoRoot: string): Promise<ListedWorktree[]> {
  const out = await git(repoRoot, ['worktree', 'list', '--porcelain']);
  const list: ListedWorktree[] = [];
  let current: ListedWorktree | undefined;
  for (const line of out.split('\n')) {
    if (line.startsWith('worktree ')) {
      current = { path: line.slice('worktree '.length) };
      list.push(current);
    } else if (current && line.startsWith('HEAD ')) current.head = line.slice(5);
    else if (current && line.startsWith('branch '))
      current.branch = line.slice(7).replace(/^refs\/heads\//, '');
  }
  return list;
}

/** The real path of `p` (symlinks resolved), or `p` itself when it does not exist. */
export function realPath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** What a worktree holds that is not in its starting commit. */
export interface WorktreeChanges {
  /** Entries of `git status --porcelain` (changed, staged and untracked files). */
  files: number;
  /** Commits on `HEAD` past `base`. */
  commits: number;
}

/** Counts the changes of the checkout at `dir` since `base`. Throws ToolExecutionError when git cannot tell. */
export async function worktreeChanges(dir: string, base: string): Promise<WorktreeChanges> {
  try {
    const status = await git(dir, ['status', '--porcelain']);
    const commits = await git(dir, ['rev-list', '--count', `${base}..HEAD`]);
    return { files: status ? status.split('\n').length : 0, commits: Number(commits) || 0 };
  } catch (error) {
    throw new ToolExecutionError(`Could not tell whether ${dir} has changes: ${gitError(error)}`);
  }
}

/** Removes the worktree at `dir` (also with changes) and, when given, deletes its branch. */
export async function removeWorktree(repoRoot: string, dir: string, branch?: string): Promise<void> {
  try {
    await git(repoRoot, ['worktree', 'remove', '--force', dir]);
  } catch (error) {
    throw new ToolExecutionError(`git worktree remove failed: ${gitError(error)}`);
  }
  if (branch) await git(repoRoot, ['branch', '-D', branch]).catch(() => undefined);
}
