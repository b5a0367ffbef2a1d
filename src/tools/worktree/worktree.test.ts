/**
 * EnterWorktree / ExitWorktree in real git repositories, through the real runtime: a named
 * worktree is created under `.gantry/worktrees/` on its own branch, the session's cwd (Bash's) and
 * read-file state follow, ExitWorktree keeps or removes it (a dirty one only with
 * `discard_changes`), an existing worktree is entered by path (asking when it is outside the
 * worktrees folder, never removed when Gantry did not make it), and bad input fails clearly.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolUseContext } from '../../core/index.js';
import {
  makeTempDir,
  makeToolContext,
  runTool,
  runToolError,
  runToolOk,
} from '../../testing/tool-harness.js';
import { BashTool } from '../bash/bash.tool.js';
import { EnterWorktreeTool, type EnterWorktreeOutput } from './enter-worktree.tool.js';
import { ExitWorktreeTool, type ExitWorktreeOutput } from './exit-worktree.tool.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

function initRepo(dir: string): void {
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(dir, 'README.md'), 'hello\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'init');
}

let temp: { dir: string; cleanup(): Promise<void> };
let repo: string;
let context: ToolUseContext;

beforeEach(async () => {
  temp = await makeTempDir('gantry-worktree-');
  repo = path.join(temp.dir, 'repo');
  mkdirSync(repo);
  initRepo(repo);
  context = makeToolContext({ cwd: repo, sessionDir: path.join(temp.dir, 'session'), tools: [] });
});
afterEach(async () => {
  await temp.cleanup();
});

const bashPwd = async () =>
  (await runToolOk<{ stdout: string }>(BashTool, { command: 'pwd' }, context)).data.stdout.trim();

describe('EnterWorktree with a name', () => {
  it('creates the worktree on its own branch and moves the session there; Bash and read state follow', async () => {
    context.readFileState.set(path.join(repo, 'README.md'), { content: 'hello\n', timestamp: 1 } as never);
    const run = await runToolOk<EnterWorktreeOutput>(EnterWorktreeTool, { name: 'feature-a' }, context);
    const wt = path.join(repo, '.gantry', 'worktrees', 'feature-a');
    expect(run.data.worktreePath).toBe(wt);
    expect(run.data.worktreeBranch).toBe('gantry/worktree-feature-a');
    expect(git(wt, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('gantry/worktree-feature-a');
    expect(context.getAppState().cwd).toBe(wt);
    expect(context.getAppState().worktree).toMatchObject({ path: wt, originalCwd: repo, origin: 'git' });
    expect(context.readFileState.size).toBe(0);
    expect(await bashPwd()).toBe(wt);
  });

  it('a name with segments nests; no name gets a generated one', async () => {
    const nested = await runToolOk<EnterWorktreeOutput>(EnterWorktreeTool, { name: 'team/fix.1' }, context);
    expect(nested.data.worktreePath).toBe(path.join(repo, '.gantry', 'worktrees', 'team', 'fix.1'));
    await runToolOk(ExitWorktreeTool, { action: 'remove' }, context);
    const generated = await runToolOk<EnterWorktreeOutput>(EnterWorktreeTool, {}, context);
    expect(path.basename(generated.data.worktreePath)).toMatch(/^wt-[0-9a-f]{6}$/);
  });

  it.each([
    [{ name: 'a b' }, /letters, digits/, 'a space is not allowed'],
    [{ name: '../escape' }, /may not start with "\."/, 'a parent segment would leave the folder'],
    [{ name: 'x'.repeat(65) }, /at most 64/, 'longer than 64 characters'],
    [{ name: 'ok/.hidden' }, /may not start with "\."/, 'a hidden segment'],
    [{ name: 'branch.lock' }, /not a valid git branch/, 'git refuses .lock'],
    [{ name: 'a', path: '/tmp' }, /either name or path/, 'both fields'],
    [{ path: 'relative/dir' }, /must be absolute/, 'a relative path'],
  ])('%j is refused (%s)', async (input, message, _reason) => {
    expect(await runToolError(EnterWorktreeTool, input, context)).toMatch(message);
    expect(context.getAppState().cwd).toBe(repo);
  });

  it('outside a git repository, with a taken name, or already in a worktree: a clear error', async () => {
    const plain = makeToolContext({ cwd: temp.dir, sessionDir: path.join(temp.dir, 's2') });
    expect(await runToolError(EnterWorktreeTool, { name: 'x' }, plain)).toMatch(/needs a git repository/);
    await runToolOk(EnterWorktreeTool, { name: 'one' }, context);
    expect(await runToolError(EnterWorktreeTool, { name: 'two' }, context)).toMatch(
      /already in the worktree/,
    );
    await runToolOk(ExitWorktreeTool, { action: 'keep' }, context);
    expect(await runToolError(EnterWorktreeTool, { name: 'one' }, context)).toMatch(/already exists/);
  });

  it('needs no prompt for a name (the tool allows it itself)', async () => {
    const verdict = await EnterWorktreeTool.checkPermissions({ name: 'x' }, context);
    expect(verdict.behavior).toBe('allow');
  });
});

describe('ExitWorktree', () => {
  it('keep: the session is back, the worktree and its branch stay', async () => {
    await runToolOk(EnterWorktreeTool, { name: 'kept' }, context);
    const wt = path.join(repo, '.gantry', 'worktrees', 'kept');
    const run = await runToolOk<ExitWorktreeOutput>(ExitWorktreeTool, { action: 'keep' }, context);
    expect(run.data).toMatchObject({ action: 'keep', originalCwd: repo, worktreePath: wt });
    expect(context.getAppState().cwd).toBe(repo);
    expect(context.getAppState().worktree).toBeUndefined();
    expect(existsSync(wt)).toBe(true);
    expect(git(repo, 'branch', '--list', 'gantry/worktree-kept')).toContain('gantry/worktree-kept');
    expect(await bashPwd()).toBe(repo);
  });

  it('remove of a clean worktree deletes it and its branch', async () => {
    await runToolOk(EnterWorktreeTool, { name: 'clean' }, context);
    await runToolOk(ExitWorktreeTool, { action: 'remove' }, context);
    expect(existsSync(path.join(repo, '.gantry', 'worktrees', 'clean'))).toBe(false);
    expect(git(repo, 'branch', '--list', 'gantry/worktree-clean')).toBe('');
  });

  it('remove of a dirty worktree needs discard_changes: true, then reports what was discarded', async () => {
    await runToolOk(EnterWorktreeTool, { name: 'dirty' }, context);
    const wt = context.getAppState().cwd;
    writeFileSync(path.join(wt, 'new.txt'), 'work\n');
    git(wt, 'add', 'new.txt');
    git(wt, 'commit', '-q', '-m', 'work');
    writeFileSync(path.join(wt, 'untracked.txt'), 'more\n');
    const refused = await runToolError(ExitWorktreeTool, { action: 'remove' }, context);
    expect(refused).toMatch(/1 changed or untracked file\(s\) and 1 commit\(s\)/);
    expect(refused).toMatch(/discard_changes: true/);
    expect(context.getAppState().cwd).toBe(wt);
    const run = await runToolOk<ExitWorktreeOutput>(
      ExitWorktreeTool,
      { action: 'remove', discard_changes: true },
      context,
    );
    expect(run.data).toMatchObject({ discardedFiles: 1, discardedCommits: 1 });
    expect(existsSync(wt)).toBe(false);
    expect(context.getAppState().cwd).toBe(repo);
  });

  it('without an entered worktree there is nothing to exit', async () => {
    expect(await runToolError(ExitWorktreeTool, { action: 'keep' }, context)).toMatch(/not in a worktree/);
  });
});

describe('EnterWorktree with a path', () => {
  it('a worktree outside the worktrees folder asks, becomes a working directory, and is never removed', async () => {
    const outside = path.join(temp.dir, 'elsewhere');
    git(repo, 'worktree', 'add', '-q', '-b', 'side', outside);
    const verdict = await EnterWorktreeTool.checkPermissions({ path: outside }, context);
    expect(verdict.behavior).toBe('ask');
    const run = await runToolOk<EnterWorktreeOutput>(EnterWorktreeTool, { path: outside }, context);
    expect(run.data).toMatchObject({ worktreePath: realpathSync(outside), worktreeBranch: 'side' });
    expect(context.getAppState().additionalDirectories).toContain(realpathSync(outside));
    expect(await bashPwd()).toBe(realpathSync(outside));
    expect(await runToolError(ExitWorktreeTool, { action: 'remove' }, context)).toMatch(/not made by Gantry/);
    await runToolOk(ExitWorktreeTool, { action: 'keep' }, context);
    expect(context.getAppState().additionalDirectories).not.toContain(realpathSync(outside));
    expect(existsSync(outside)).toBe(true);
  });

  it('a worktree inside the worktrees folder needs no prompt and may be removed', async () => {
    await runToolOk(EnterWorktreeTool, { name: 'again' }, context);
    await runToolOk(ExitWorktreeTool, { action: 'keep' }, context);
    const wt = path.join(repo, '.gantry', 'worktrees', 'again');
    expect((await EnterWorktreeTool.checkPermissions({ path: wt }, context)).behavior).toBe('allow');
    await runToolOk(EnterWorktreeTool, { path: wt }, context);
    expect(context.getAppState().additionalDirectories).toEqual([]);
    await runToolOk(ExitWorktreeTool, { action: 'remove' }, context);
    expect(existsSync(wt)).toBe(false);
  });

  it('a directory that is not a worktree of this repository is refused', async () => {
    const stray = path.join(temp.dir, 'stray');
    mkdirSync(stray);
    expect(await runToolError(EnterWorktreeTool, { path: stray }, context)).toMatch(/is not a worktree/);
    const run = await runTool(EnterWorktreeTool, { path: repo }, context);
    expect(run.error).toMatch(/already works in/);
  });
});
