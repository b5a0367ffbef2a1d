/**
 * Worktree isolation for a sub-agent (`isolation: "worktree"`), through the git CLI:
 *
 * - `git worktree add -b gantry/agent-<name> .gantry/worktrees/<name> HEAD` in the repository of
 *   the parent's working directory; the child works there. Uncommitted changes of the parent's
 *   checkout are not carried over (the note says so).
 * - On completion: a worktree without changes (clean status, no commits past its start) is
 *   removed with its branch; a dirty one is kept and reported.
 * - Not a git repository → a clear error. Worktrees left by a crash (their directory is gone or
 *   unregistered) are pruned at the next start (`git worktree prune`).
 * - With the session's hooks given: a `WorktreeCreate` hook makes the worktree instead of git, and
 *   `WorktreeRemove` hooks are told when one is removed (tools/worktree/hook-worktree.ts, shared with
 *   EnterWorktree / ExitWorktree).
 */
import path from 'node:path';
import { ToolExecutionError, type ToolHookRunner } from '../core/index.js';
import {
  addWorktree,
  branchExists,
  git,
  headCommit,
  pruneWorktrees,
  removeWorktree,
  worktreeChanges,
  worktreesFolder,
} from '../tools/worktree/git-worktree.js';
import {
  createWorktreeByHook,
  hookMakesWorktrees,
  notifyWorktreeRemoved,
} from '../tools/worktree/hook-worktree.js';

export interface AgentWorktree {
  path: string;
  branch: string;
  repoRoot: string;
  /** The commit it started from (empty for a worktree a hook made outside git). */
  base: string;
  note?: string;
  /** A WorktreeCreate hook made it (its WorktreeRemove hooks remove it). */
  byHook?: boolean;
}

/** The session's hooks and the call's signal, when the caller has them. */
export interface WorktreeHooks {
  hooks: ToolHookRunner | undefined;
  signal: AbortSignal;
}

/** A name safe for a directory and a branch. */
export function worktreeSlug(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 60);
  return slug || 'agent';
}

/** Creates the worktree (see the module comment). Throws ToolExecutionError with the reason. */
export async function createAgentWorktree(
  cwd: string,
  name: string,
  withHooks?: WorktreeHooks,
): Promise<AgentWorktree> {
  if (withHooks && hookMakesWorktrees(withHooks.hooks)) {
    const made = await createWorktreeByHook(withHooks.hooks, worktreeSlug(name), withHooks.signal);
    const base = await git(made, ['rev-parse', 'HEAD']).catch(() => '');
    return {
      path: made,
      branch: '(none: made by a WorktreeCreate hook)',
      repoRoot: made,
      base,
      byHook: true,
    };
  }
  let repoRoot: string;
  try {
    repoRoot = await git(cwd, ['rev-parse', '--show-toplevel']);
  } catch {
    throw new ToolExecutionError(
      `isolation "worktree" needs a git repository, and ${cwd} is not inside one. Run the agent without isolation, or initialise a repository first.`,
    );
  }
  await pruneWorktrees(repoRoot);
  const base = await headCommit(repoRoot, 'isolation "worktree"');
  const slug = worktreeSlug(name);
  let dir = path.join(worktreesFolder(repoRoot), slug);
  let branch = `gantry/agent-${slug}`;
  for (let i = 2; await branchExists(repoRoot, branch); i++) {
    dir = path.join(worktreesFolder(repoRoot), `${slug}-${i}`);
    branch = `gantry/agent-${slug}-${i}`;
  }
  await addWorktree(repoRoot, dir, branch, base);
  const dirty = await git(repoRoot, ['status', '--porcelain']).catch(() => '');
  const rel = path.relative(repoRoot, cwd);
  const childCwd = rel && !rel.startsWith('..') ? path.join(dir, rel) : dir;
  return {
    path: childCwd === dir ? dir : childCwd,
    branch,
    repoRoot,
    base,
    ...(dirty
      ? {
          note: 'The parent checkout has uncommitted changes; they are not in the worktree (it starts from the last commit).',
        }
      : {}),
  };
}

/** Removes a worktree without changes; keeps a changed one. */
export async function finishAgentWorktree(
  worktree: AgentWorktree,
  withHooks?: WorktreeHooks,
): Promise<{ kept: boolean }> {
  const top = await git(worktree.path, ['rev-parse', '--show-toplevel']).catch(() => worktree.path);
  // A hook's worktree outside git counts as changed (nothing can tell), so it is kept.
  const changes = worktree.base
    ? await worktreeChanges(top, worktree.base).catch(() => undefined)
    : undefined;
  if (changes && changes.files === 0 && changes.commits === 0) {
    if (!worktree.byHook) await removeWorktree(worktree.repoRoot, top, worktree.branch);
    if (withHooks)
      await notifyWorktreeRemoved(withHooks.hooks, worktree.byHook ? worktree.path : top, withHooks.signal);
    return { kept: false };
  }
  return { kept: true };
}
