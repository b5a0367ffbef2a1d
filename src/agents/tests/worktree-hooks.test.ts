/**
 * `isolation: "worktree"` with the session's WorktreeCreate / WorktreeRemove hooks (host callbacks
 * through the real loop): the WorktreeCreate hook makes the worktree instead of git (its JSON
 * `worktreePath` is where the child works), and when the child changed nothing the WorktreeRemove
 * hook is told the path and removes it — git's own worktree folder is never used.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HookInput } from '../../loop/types.js';
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

describe('worktree isolation with WorktreeCreate / WorktreeRemove hooks', () => {
  it('the hook makes the worktree the child works in, and is told to remove it when unchanged', async () => {
    world = makeLoopWorld();
    git(world.project, 'init', '-q', '-b', 'main');
    writeFileSync(path.join(world.project, 'README.md'), 'hello\n');
    git(world.project, 'add', '.');
    git(world.project, 'commit', '-q', '-m', 'init');
    const made = path.join(world.root, 'hook-made');
    const seen: HookInput[] = [];
    model = await startFakeModel(
      'anthropic',
      [
        reply.toolUse('Agent', {
          description: 'Isolated',
          prompt: 'Look',
          isolation: 'worktree',
          name: 'hk',
        }),
        reply.text('Parent done.'),
      ],
      { routes: [{ when: (r) => agentIdOf(r) !== undefined, script: [reply.text('Looked.')] }] },
    );
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'Work in isolation',
        tools: await toolsWithAgent(),
        permissionEngine: makeEngine(world),
        permissionMode: 'acceptEdits',
        hooks: {
          WorktreeCreate: [
            {
              hooks: [
                async (input) => {
                  seen.push(input);
                  git(world!.project, 'worktree', 'add', '-q', '--detach', made);
                  return { hookSpecificOutput: { hookEventName: 'WorktreeCreate', worktreePath: made } };
                },
              ],
            },
          ],
          WorktreeRemove: [
            {
              hooks: [
                async (input) => {
                  seen.push(input);
                  git(world!.project, 'worktree', 'remove', '--force', made);
                  return {};
                },
              ],
            },
          ],
        },
      }),
    );
    expect(seen.map((i) => i.hook_event_name)).toEqual(['WorktreeCreate', 'WorktreeRemove']);
    expect(seen[0]).toMatchObject({ name: 'hk' });
    expect(seen[1]).toMatchObject({ worktree_path: made });
    expect(resultText(parentToolResult(run))).toContain(`worktree: ${made} removed: no changes`);
    expect(existsSync(made)).toBe(false);
    expect(existsSync(path.join(world.project, '.gantry', 'worktrees'))).toBe(false);
    const child = model.requests().find((r) => r.headers['x-gantry-agent-id']);
    expect(JSON.stringify(child?.body.system)).toContain(made);
  });
});
