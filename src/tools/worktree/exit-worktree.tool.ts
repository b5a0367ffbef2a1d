/**
 * `ExitWorktree {action: "keep"|"remove", discard_changes?}`: moves the session back to the
 * directory it worked in before EnterWorktree (Claude Code documentation, "Tools reference":
 * ExitWorktree). Behind the `WORKTREE` feature flag. No prompt.
 *
 * - `keep`: the worktree and its branch stay on disk.
 * - `remove`: a worktree with changed or untracked files, or commits past its start, is removed
 *   only with `discard_changes: true` (else the call fails and lists what would be lost). A
 *   worktree made with git is removed with `git worktree remove --force` and its branch deleted; one
 *   a WorktreeCreate hook made is left to the WorktreeRemove hook. A worktree entered by path is
 *   removed only when it lies in the worktrees folder (Gantry made it); others are never removed.
 * The WorktreeRemove hooks run after a removal (input `worktree_path`). Output `{action,
 * originalCwd, worktreePath, worktreeBranch?, discardedFiles?, discardedCommits?, message}`.
 */
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import {
  buildTool,
  isPathInside,
  ToolExecutionError,
  type ToolUseContext,
  type WorktreeInfo,
} from '../../core/index.js';
import { gantryTraits } from '../../core/tool-traits.js';
import { exitWorktreeDescriber } from './describe.js';
import { notifyWorktreeRemoved } from './hook-worktree.js';
import { removeWorktree, type WorktreeChanges, worktreeChanges, worktreesFolder } from './git-worktree.js';

const ExitWorktreeInput = z.strictObject({
  action: z
    .enum(['keep', 'remove'])
    .describe('"keep" leaves the worktree and its branch on disk; "remove" deletes them.'),
  discard_changes: z
    .boolean()
    .describe(
      'Required as true to remove a worktree that has uncommitted changes or commits of its own (they are lost).',
    )
    .optional(),
});
export type ExitWorktreeInput = z.infer<typeof ExitWorktreeInput>;

export interface ExitWorktreeOutput {
  action: 'keep' | 'remove';
  originalCwd: string;
  worktreePath: string;
  worktreeBranch?: string;
  discardedFiles?: number;
  discardedCommits?: number;
  message: string;
}

function removable(info: WorktreeInfo): string | undefined {
  if (info.origin === 'git' || info.origin === 'hook') return undefined;
  if (info.repoRoot && isPathInside(info.path, worktreesFolder(info.repoRoot))) return undefined;
  return `${info.path} was not made by Gantry, so ExitWorktree does not remove it. Use action "keep".`;
}

async function changesOf(info: WorktreeInfo): Promise<WorktreeChanges | undefined> {
  if (!info.base) return info.origin === 'hook' ? undefined : { files: 0, commits: 0 };
  return worktreeChanges(info.path, info.base).catch((error: unknown) => {
    if (info.origin === 'hook') return undefined;
    throw error;
  });
}

export const ExitWorktreeTool = buildTool({
  name: 'ExitWorktree',
  aliases: gantryTraits('ExitWorktree').aliases,
  description:
    'Leave the worktree EnterWorktree moved you into and go back to the directory you worked in before. ' +
    'action "keep" leaves the worktree and its branch on disk (for a later merge or review); "remove" ' +
    'deletes them, which needs discard_changes: true when the worktree holds uncommitted work or commits.',
  inputSchema: ExitWorktreeInput,
  shouldDefer: true,
  maxResultSizeChars: 5_000,
  searchHint: 'leave git worktree return remove',
  isReadOnly: exitWorktreeDescriber.isReadOnly,
  isConcurrencySafe: () => false,
  userFacingName: () => 'Exit Worktree',
  toAutoClassifierInput: exitWorktreeDescriber.toAutoClassifierInput,
  async describeCall(input: ExitWorktreeInput, context: ToolUseContext) {
    return exitWorktreeDescriber.describe(input, describeWorldOf(context));
  },
  async validateInput(input: ExitWorktreeInput, context: ToolUseContext) {
    const info = context.getAppState().worktree;
    if (!info)
      return {
        ok: false as const,
        message: 'The session is not in a worktree entered with EnterWorktree; there is nothing to exit.',
      };
    if (input.action === 'remove') {
      const problem = removable(info);
      if (problem) return { ok: false as const, field: 'action', message: problem };
    }
    return { ok: true as const };
  },
  async checkPermissions() {
    return {
      behavior: 'allow' as const,
      reason: 'it only leaves (or removes) the worktree this session entered.',
    };
  },

  async *call(input: ExitWorktreeInput, context: ToolUseContext) {
    const move = context.services.workingDirectory;
    const info = context.getAppState().worktree;
    if (!move || !info) throw new ToolExecutionError('The session is not in a worktree.');
    let discarded: WorktreeChanges | undefined;
    if (input.action === 'remove') {
      const problem = removable(info);
      if (problem) throw new ToolExecutionError(problem);
      const changes = await changesOf(info);
      const lost = changes ? changes.files + changes.commits : 0;
      if (lost > 0 && input.discard_changes !== true)
        throw new ToolExecutionError(
          `${info.path} has ${changes!.files} changed or untracked file(s) and ${changes!.commits} commit(s) of its own. ` +
            'Removing it loses them: call ExitWorktree with discard_changes: true to remove it anyway, or action "keep".',
        );
      if (lost > 0) discarded = changes;
    }
    // Leave first: the directory the session stands in is about to go.
    move.change(
      context,
      info.originalCwd,
      info.addedDirectory ? { removeDirectory: info.addedDirectory } : {},
    );
    context.setAppState((prev) => {
      const next = { ...prev };
      delete next.worktree;
      return next;
    });
    let hookNote = '';
    if (input.action === 'remove') {
      if (info.origin !== 'hook' && info.repoRoot)
        await removeWorktree(info.repoRoot, info.path, info.branch);
      const problems = await notifyWorktreeRemoved(
        context.services.hooks,
        info.path,
        context.abortController.signal,
      );
      if (problems.length) hookNote = ` A WorktreeRemove hook reported: ${problems.join('; ')}`;
    }
    const data: ExitWorktreeOutput = {
      action: input.action,
      originalCwd: info.originalCwd,
      worktreePath: info.path,
      ...(info.branch ? { worktreeBranch: info.branch } : {}),
      ...(discarded ? { discardedFiles: discarded.files, discardedCommits: discarded.commits } : {}),
      message:
        input.action === 'keep'
          ? `Back in ${info.originalCwd}. The worktree ${info.path}${info.branch ? ` (branch ${info.branch})` : ''} is kept.`
          : `Back in ${info.originalCwd}. The worktree ${info.path}${info.origin === 'hook' ? ' was handed to the WorktreeRemove hook' : info.branch ? ` and its branch ${info.branch} were removed` : ' was removed'}` +
            `${discarded ? `, discarding ${discarded.files} file change(s) and ${discarded.commits} commit(s)` : ''}.${hookNote}`,
    };
    return { data };
  },
  mapToolResultToContent: (output: ExitWorktreeOutput) => output.message,
});
