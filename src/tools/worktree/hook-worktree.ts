/**
 * Worktrees made and removed by hooks, shared by EnterWorktree / ExitWorktree and the Agent tool's
 * `isolation: "worktree"` (Claude Code documentation, "Hooks reference": WorktreeCreate,
 * WorktreeRemove). A `WorktreeCreate` hook replaces git: it gets `{name}`, creates the worktree
 * wherever it likes and prints its absolute path (or answers JSON `hookSpecificOutput.worktreePath`);
 * any failure of the hook fails the creation. `WorktreeRemove` hooks are told `{worktree_path}`
 * after a removal (for a worktree a hook made, they are the removal); their problems are reported,
 * never fatal.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { ToolExecutionError, type ToolHookRunner } from '../../core/index.js';
import { realPath } from './git-worktree.js';

/** True when the session has a WorktreeCreate hook (it then makes worktrees instead of git). */
export function hookMakesWorktrees(hooks: ToolHookRunner | undefined): hooks is ToolHookRunner {
  return hooks?.has?.('WorktreeCreate') === true;
}

/** Runs the WorktreeCreate hooks for `name`; resolves with the real path of the directory they made. */
export async function createWorktreeByHook(
  hooks: ToolHookRunner,
  name: string,
  signal: AbortSignal,
): Promise<string> {
  const outcome = await hooks.run('WorktreeCreate', { name }, { signal });
  if (outcome.blocked)
    throw new ToolExecutionError(`The WorktreeCreate hook failed: ${outcome.blocked.reason}`);
  if (outcome.errors.length)
    throw new ToolExecutionError(`The WorktreeCreate hook failed: ${outcome.errors.join('; ')}`);
  const printed = outcome.worktreePath ?? outcome.texts?.at(-1)?.split('\n').at(-1)?.trim();
  if (!printed || !path.isAbsolute(printed))
    throw new ToolExecutionError(
      'The WorktreeCreate hook did not print the absolute path of the worktree it created.',
    );
  if (!existsSync(printed) || !statSync(printed).isDirectory())
    throw new ToolExecutionError(`The WorktreeCreate hook printed ${printed}, which is not a directory.`);
  return realPath(printed);
}

/** Tells the WorktreeRemove hooks about `worktreePath`; resolves with their problems (empty when none). */
export async function notifyWorktreeRemoved(
  hooks: ToolHookRunner | undefined,
  worktreePath: string,
  signal: AbortSignal,
): Promise<string[]> {
  if (!hooks || hooks.has?.('WorktreeRemove') === false) return [];
  const outcome = await hooks.run('WorktreeRemove', { worktree_path: worktreePath }, { signal });
  return [...(outcome.blocked ? [outcome.blocked.reason] : []), ...outcome.errors];
}
