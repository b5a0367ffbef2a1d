/**
 * Worktree names: slash-separated segments of letters, digits, `.`, `_` and `-`, at most 64
 * characters in all (the Claude Code tools reference, EnterWorktree). Segments that git refuses
 * in a branch name or that would leave the worktrees folder (`.`, `..`, a leading dot, a trailing
 * `.lock`) are refused too.
 */
import { randomBytes } from 'node:crypto';

export const WORKTREE_NAME_MAX_CHARS = 64;
const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** Undefined when `name` is acceptable, else what is wrong with it. */
export function worktreeNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'name is empty.';
  if (name.length > WORKTREE_NAME_MAX_CHARS)
    return `name has ${name.length} characters; at most ${WORKTREE_NAME_MAX_CHARS} are allowed.`;
  for (const segment of name.split('/')) {
    if (!SEGMENT.test(segment))
      return `name segment "${segment}" may hold only letters, digits, ".", "_" and "-" (segments are separated by "/").`;
    if (segment.startsWith('.')) return `name segment "${segment}" may not start with ".".`;
    if (segment.endsWith('.lock') || segment.includes('..'))
      return `name segment "${segment}" is not a valid git branch name part.`;
  }
  return undefined;
}

/** A fresh name when the call gives none: `wt-` + 6 hex digits. */
export function randomWorktreeName(): string {
  return `wt-${randomBytes(3).toString('hex')}`;
}

/** The branch a named worktree gets. */
export function worktreeBranch(name: string): string {
  return `gantry/worktree-${name}`;
}
