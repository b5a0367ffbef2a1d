/**
 * `isolation: "worktree"`: the child works in `.gantry/worktrees/<name>` on its own branch (git
 * CLI); a worktree without changes is removed with its branch, a changed one is kept and named in
 * the result; outside a git repository the call fails with a clear error.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentIdOf, reply } from '../../testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeEngine,
  makeLoopWorld,
  runQuery,
  startFakeModel,
} from '../../testing/loop-fixtures.js';
import { parentToolResult, resultText, toolsWithAgent } from './test-support.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

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

async function runWorktreeAgent(name: string, child: ReturnType<typeof reply.text>[]) {
  model = await startFakeModel(
    'anthropic',
    [
      reply.toolUse('Agent', { description: 'Isolated', prompt: 'Work', isolation: 'worktree', name }),
      reply.text('Parent done.'),
    ],
    { routes: [{ when: (r) => agentIdOf(r) !== undefined, script: child }] },
  );
  return runQuery(
    await loopOptions(world!, model, {
      prompt: 'Work in isolation',
      tools: await toolsWithAgent(),
      permissionEngine: makeEngine(world!),
      permissionMode: 'acceptEdits',
    }),
  );
}

describe('worktree isolation', () => {
  it('a worktree with changes is kept on its branch and named in the result', async () => {
    world = makeLoopWorld();
    initRepo(world.project);
    writeFileSync(path.join(world.project, 'README.md'), 'uncommitted parent change\n');
    const wt = path.join(world.project, '.gantry', 'worktrees', 'dirty-one');
    const run = await runWorktreeAgent('dirty-one', [
      reply.toolUse('Write', { file_path: path.join(wt, 'made.txt'), content: 'made in the worktree\n' }),
      reply.text('Wrote it.'),
    ]);
    const text = resultText(parentToolResult(run));
    expect(text).toContain(`worktree: ${wt} (branch gantry/agent-dirty-one) kept`);
    expect(readFileSync(path.join(wt, 'made.txt'), 'utf8')).toBe('made in the worktree\n');
    // The parent's checkout is untouched; its uncommitted change did not travel.
    expect(existsSync(path.join(world.project, 'made.txt'))).toBe(false);
    expect(readFileSync(path.join(wt, 'README.md'), 'utf8')).toBe('hello\n');
    expect(git(world.project, 'branch', '--list', 'gantry/agent-dirty-one')).toContain(
      'gantry/agent-dirty-one',
    );
    // The child's requests ran in the worktree.
    const child = model!.requests().find((r) => r.headers['x-gantry-agent-id'])!;
    expect(JSON.stringify(child.body.system)).toContain(wt);
  });

  it('a worktree without changes is removed with its branch', async () => {
    world = makeLoopWorld();
    initRepo(world.project);
    const run = await runWorktreeAgent('clean-one', [reply.text('Looked, changed nothing.')]);
    const wt = path.join(world.project, '.gantry', 'worktrees', 'clean-one');
    expect(resultText(parentToolResult(run))).toContain(`worktree: ${wt} removed: no changes`);
    expect(existsSync(wt)).toBe(false);
    expect(git(world.project, 'branch', '--list', 'gantry/agent-clean-one')).toBe('');
  });

  it('outside a git repository the call fails with a clear error and no child starts', async () => {
    world = makeLoopWorld();
    const run = await runWorktreeAgent('nope', [reply.text('never')]);
    expect(resultText(parentToolResult(run))).toContain('needs a git repository');
    expect(model!.requests().some((r) => r.headers['x-gantry-agent-id'])).toBe(false);
  });
});
