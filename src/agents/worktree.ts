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
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ToolExecutionError } from '../core/index.js';

const run = promisify(execFile);

export interface AgentWorktree {
  path: string;
  branch: string;
  repoRoot: string;
  /** The commit it started from. */
  base: string;
  note?: string;
}

const GIT_ENV = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' };

async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-c', 'core.fsmonitor=false', ...args], {
    cwd,
    env: GIT_ENV,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout.trim();
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
export async function createAgentWorktree(cwd: string, name: string): Promise<AgentWorktree> {
  let repoRoot: string;
  try {
    repoRoot = await git(cwd, ['rev-parse', '--show-toplevel']);
  } catch {
    throw new ToolExecutionError(
      `isolation "worktree" needs a git repository, and ${cwd} is not inside one. Run the agent without isolation, or initialise a repository first.`,
    );
  }
  await git(repoRoot, ['worktree', 'prune']).catch(() => undefined);
  let base: string;
  try {
    base = await git(repoRoot, ['rev-parse', 'HEAD']);
  } catch {
    throw new ToolExecutionError('isolation "worktree" needs at least one commit in the repository.');
  }
  const slug = worktreeSlug(name);
  let dir = path.join(repoRoot, '.gantry', 'worktrees', slug);
  let branch = `gantry/agent-${slug}`;
  for (let i = 2; ; i++) {
    const exists = await git(repoRoot, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]).then(
      () => true,
      () => false,
    );
    if (!exists) break;
    dir = path.join(repoRoot, '.gantry', 'worktrees', `${slug}-${i}`);
    branch = `gantry/agent-${slug}-${i}`;
  }
  try {
    await git(repoRoot, ['worktree', 'add', '-b', branch, dir, base]);
  } catch (error) {
    throw new ToolExecutionError(
      `git worktree add failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
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
export async function finishAgentWorktree(worktree: AgentWorktree): Promise<{ kept: boolean }> {
  const top = await git(worktree.path, ['rev-parse', '--show-toplevel']).catch(() => worktree.path);
  const status = await git(top, ['status', '--porcelain']).catch(() => 'unknown');
  const head = await git(top, ['rev-parse', 'HEAD']).catch(() => worktree.base);
  if (status === '' && head === worktree.base) {
    await git(worktree.repoRoot, ['worktree', 'remove', '--force', top]);
    await git(worktree.repoRoot, ['branch', '-D', worktree.branch]).catch(() => undefined);
    return { kept: false };
  }
  return { kept: true };
}
