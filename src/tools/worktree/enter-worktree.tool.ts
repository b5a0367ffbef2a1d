/**
 * `EnterWorktree {name?} | {path?}`: moves the session into a git worktree (Claude Code
 * documentation, "Tools reference": EnterWorktree). Behind the `WORKTREE` feature flag.
 *
 * - `name` (or neither field: a generated name) → `git worktree add -b gantry/worktree-<name>
 *   <repo>/.gantry/worktrees/<name> HEAD` (git-worktree.ts, shared with the Agent tool's
 *   isolation). When the session has a `WorktreeCreate` hook, the hook makes the worktree instead
 *   and prints its absolute path (any failure of the hook fails the call).
 * - `path` → an existing worktree of the session's repository is entered as it is.
 * Then the session's working directory moves there (`services.workingDirectory`: Bash's cwd, the
 * read-file state, the hooks' cwd); ExitWorktree moves it back.
 *
 * Permissions: a name, or a path inside the worktrees folder, needs no prompt; any other path asks.
 * A worktree outside the project also becomes a working directory until ExitWorktree. Refused in
 * sub-agents (they get `isolation: "worktree"` instead) and while a worktree is already entered.
 * Output `{worktreePath, worktreeBranch?, message}`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
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
import { enterWorktreeDescriber } from './describe.js';
import {
  addWorktree,
  branchExists,
  git,
  headCommit,
  listWorktrees,
  pruneWorktrees,
  realPath,
  repositoryRoot,
  worktreesFolder,
} from './git-worktree.js';
import { createWorktreeByHook, hookMakesWorktrees } from './hook-worktree.js';
import { randomWorktreeName, worktreeBranch, worktreeNameProblem } from './names.js';

const EnterWorktreeInput = z.strictObject({
  name: z
    .string()
    .describe(
      'Name of a new worktree: "/"-separated segments of letters, digits, ".", "_" and "-", at most 64 characters. Omit both fields for a generated name.',
    )
    .optional(),
  path: z
    .string()
    .describe('Absolute path of an existing worktree of this repository to enter instead of creating one.')
    .optional(),
});
export type EnterWorktreeInput = z.infer<typeof EnterWorktreeInput>;

export interface EnterWorktreeOutput {
  worktreePath: string;
  worktreeBranch?: string;
  message: string;
}

async function repoOf(cwd: string): Promise<string> {
  const root = await repositoryRoot(cwd);
  if (!root)
    throw new ToolExecutionError(
      `EnterWorktree needs a git repository, and ${cwd} is not inside one. Initialise a repository first, or work without a worktree.`,
    );
  return realPath(root);
}

export const EnterWorktreeTool = buildTool({
  name: 'EnterWorktree',
  aliases: gantryTraits('EnterWorktree').aliases,
  description:
    'Move this session into a git worktree: a separate checkout of the repository on its own branch, so ' +
    'you can change files without touching the main checkout. Give a name to create one, or the path of an ' +
    'existing worktree to enter it. Afterwards your working directory is the worktree: Bash commands run ' +
    'there and files must be read again before you edit them. Call ExitWorktree to go back.',
  inputSchema: EnterWorktreeInput,
  shouldDefer: true,
  maxResultSizeChars: 5_000,
  searchHint: 'git worktree branch isolate checkout',
  isReadOnly: enterWorktreeDescriber.isReadOnly,
  isConcurrencySafe: () => false,
  userFacingName: () => 'Enter Worktree',
  toAutoClassifierInput: enterWorktreeDescriber.toAutoClassifierInput,
  async describeCall(input: EnterWorktreeInput, context: ToolUseContext) {
    return enterWorktreeDescriber.describe(input, describeWorldOf(context));
  },

  async validateInput(input: EnterWorktreeInput, context: ToolUseContext) {
    if (context.agentId)
      return {
        ok: false as const,
        message: 'EnterWorktree is not available to sub-agents (start the agent with isolation "worktree").',
      };
    const current = context.getAppState().worktree;
    if (current)
      return {
        ok: false as const,
        message: `The session is already in the worktree ${current.path}. Call ExitWorktree first.`,
      };
    if (input.name !== undefined && input.path !== undefined)
      return { ok: false as const, message: 'Give either name or path, not both.' };
    if (input.name !== undefined) {
      const problem = worktreeNameProblem(input.name);
      if (problem) return { ok: false as const, field: 'name', message: problem };
    }
    if (input.path !== undefined && !path.isAbsolute(input.path))
      return { ok: false as const, field: 'path', message: `path must be absolute, got ${input.path}.` };
    return { ok: true as const };
  },

  async checkPermissions(input: EnterWorktreeInput, context: ToolUseContext) {
    if (input.path === undefined)
      return {
        behavior: 'allow' as const,
        reason: 'a new worktree is created in the worktrees folder of the repository.',
      };
    const root = await repositoryRoot(context.getAppState().cwd);
    const folder = root ? worktreesFolder(realPath(root)) : undefined;
    if (folder && isPathInside(realPath(input.path), folder))
      return {
        behavior: 'allow' as const,
        reason: `${input.path} is inside the worktrees folder ${folder}.`,
      };
    return {
      behavior: 'ask' as const,
      reason: `${input.path} is outside the worktrees folder${folder ? ` ${folder}` : ''}; the session would work there.`,
    };
  },

  async *call(input: EnterWorktreeInput, context: ToolUseContext) {
    const move = context.services.workingDirectory;
    if (!move) throw new ToolExecutionError('This host cannot move the session to another directory.');
    const state = context.getAppState();
    const repoRoot = await repoOf(state.cwd);
    let info: WorktreeInfo;
    let note = '';
    if (input.path !== undefined) {
      const wanted = realPath(input.path);
      const listed = (await listWorktrees(repoRoot)).find((w) => realPath(w.path) === wanted);
      if (!listed)
        throw new ToolExecutionError(
          `${input.path} is not a worktree of the repository at ${repoRoot} (see git worktree list).`,
        );
      if (wanted === realPath(state.cwd) || wanted === repoRoot)
        throw new ToolExecutionError(`${input.path} is the checkout the session already works in.`);
      const mainHead = await headCommit(repoRoot, 'EnterWorktree');
      const base = await git(wanted, ['merge-base', 'HEAD', mainHead]).catch(() => listed.head);
      info = {
        path: wanted,
        ...(listed.branch ? { branch: listed.branch } : {}),
        originalCwd: state.cwd,
        repoRoot,
        ...(base ? { base } : {}),
        origin: 'entered',
      };
    } else {
      const name = input.name ?? randomWorktreeName();
      const hooks = context.services.hooks;
      if (hookMakesWorktrees(hooks)) {
        const made = await createWorktreeByHook(hooks, name, context.abortController.signal);
        info = { path: made, originalCwd: state.cwd, origin: 'hook' };
        const base = await git(made, ['rev-parse', 'HEAD']).catch(() => undefined);
        if (base) info.base = base;
      } else {
        await pruneWorktrees(repoRoot);
        const base = await headCommit(repoRoot, 'EnterWorktree');
        const dir = path.join(worktreesFolder(repoRoot), name);
        const branch = worktreeBranch(name);
        if (existsSync(dir))
          throw new ToolExecutionError(
            `A worktree named ${name} already exists at ${dir}. Enter it with path, or choose another name.`,
          );
        if (await branchExists(repoRoot, branch))
          throw new ToolExecutionError(`The branch ${branch} already exists. Choose another name.`);
        await addWorktree(repoRoot, dir, branch, base);
        info = { path: dir, branch, originalCwd: state.cwd, repoRoot, base, origin: 'git' };
        const dirty = await git(state.cwd, ['status', '--porcelain']).catch(() => '');
        if (dirty)
          note =
            ' The main checkout has uncommitted changes; they are not in the worktree, which starts from the last commit.';
      }
    }
    const inside = [state.projectRoot, ...state.additionalDirectories].some((d) =>
      isPathInside(info.path, realPath(d)),
    );
    if (!inside) info.addedDirectory = info.path;
    move.change(context, info.path, inside ? {} : { addDirectory: true });
    context.setAppState((prev) => ({ ...prev, worktree: info }));
    const data: EnterWorktreeOutput = {
      worktreePath: info.path,
      ...(info.branch ? { worktreeBranch: info.branch } : {}),
      message:
        `Now working in the worktree ${info.path}${info.branch ? ` on branch ${info.branch}` : ''}. ` +
        `Bash commands run there, and files must be read again before you edit them.${note} ` +
        `Call ExitWorktree to return to ${info.originalCwd}.`,
    };
    return { data };
  },
  mapToolResultToContent: (output: EnterWorktreeOutput) => output.message,
});
