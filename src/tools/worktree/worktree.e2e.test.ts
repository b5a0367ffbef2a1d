/**
 * The worktree tools in `gantry -p` as a real process (GANTRY_FEATURE_WORKTREE=1, the scripted fake
 * model server): a Bash call after EnterWorktree runs in the worktree and one after ExitWorktree in
 * the project again; with WorktreeCreate / WorktreeRemove command hooks in the settings, the hook
 * makes the worktree (its printed path is entered) and is told when it is removed. Without the
 * flag the tools are not offered at all.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply, type ScriptEntry } from '../../testing/fake-model-script.js';
import {
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
  runGantry,
} from '../../testing/print-fixtures.js';

let world: PrintWorld;
let fake: FakeAnthropicServer | undefined;

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

beforeEach(() => {
  world = makePrintWorld();
  git(world.project, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(world.project, 'README.md'), 'hello\n');
  git(world.project, 'add', '.');
  git(world.project, 'commit', '-q', '-m', 'init');
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  world.cleanup();
});

async function run(script: ScriptEntry[], args: string[], env: Record<string, string>) {
  fake = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script });
  return runGantry(['-p', '--output-format', 'stream-json', '--verbose', ...args, 'work in a worktree'], {
    cwd: world.project,
    env: gantryEnv(world, fake, { ENABLE_TOOL_SEARCH: 'false', ...env }),
  });
}

/** The tool_result blocks the session sent back, in order, as text. */
function toolResults(lines: any[]): { text: string; isError: boolean }[] {
  return lines
    .filter((l) => l.type === 'user' && Array.isArray(l.message?.content))
    .flatMap((l) => l.message.content.filter((b: any) => b.type === 'tool_result'))
    .map((b: any) => ({
      text: typeof b.content === 'string' ? b.content : b.content.map((c: any) => c.text ?? '').join(''),
      isError: b.is_error === true,
    }));
}

describe('gantry -p: EnterWorktree / ExitWorktree', () => {
  it('a Bash call after EnterWorktree runs in the worktree, and after ExitWorktree in the project', async () => {
    const r = await run(
      [
        reply.toolUse('EnterWorktree', { name: 'e2e' }),
        reply.toolUse('Bash', { command: 'pwd' }),
        reply.toolUse('ExitWorktree', { action: 'keep' }),
        reply.toolUse('Bash', { command: 'pwd' }),
        reply.text('Done.'),
      ],
      [],
      { GANTRY_FEATURE_WORKTREE: '1' },
    );
    expect(r.code, r.stderr).toBe(0);
    const wt = path.join(world.project, '.gantry', 'worktrees', 'e2e');
    const results = toolResults(r.lines());
    expect(results.map((x) => x.isError)).toEqual([false, false, false, false]);
    expect(results[1]?.text.trim()).toBe(wt);
    expect(results[3]?.text.trim()).toBe(world.project);
    expect(git(wt, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('gantry/worktree-e2e');
    const tools = fake!.messageRequests[0]?.body.tools.map((t: any) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['EnterWorktree', 'ExitWorktree']));
  });

  it('WorktreeCreate and WorktreeRemove command hooks make and clean up the worktree', async () => {
    const made = path.join(world.root, 'hook-made');
    const told = path.join(world.root, 'removed.json');
    const asked = path.join(world.root, 'create.json');
    const settings = JSON.stringify({
      hooks: {
        WorktreeCreate: [
          { hooks: [{ type: 'command', command: `cat > '${asked}'; mkdir -p '${made}'; echo '${made}'` }] },
        ],
        WorktreeRemove: [{ hooks: [{ type: 'command', command: `cat > '${told}'; rm -rf '${made}'` }] }],
      },
    });
    const r = await run(
      [
        reply.toolUse('EnterWorktree', { name: 'hooked' }),
        reply.toolUse('Bash', { command: 'pwd' }),
        reply.toolUse('ExitWorktree', { action: 'remove' }),
        reply.text('Done.'),
      ],
      ['--settings', settings],
      { GANTRY_FEATURE_WORKTREE: '1' },
    );
    expect(r.code, r.stderr).toBe(0);
    const results = toolResults(r.lines());
    expect(
      results.map((x) => x.isError),
      JSON.stringify(results),
    ).toEqual([false, false, false]);
    expect(results[1]?.text.trim()).toBe(made);
    expect(JSON.parse(readFileSync(asked, 'utf8'))).toMatchObject({
      hook_event_name: 'WorktreeCreate',
      name: 'hooked',
    });
    expect(JSON.parse(readFileSync(told, 'utf8'))).toMatchObject({
      hook_event_name: 'WorktreeRemove',
      worktree_path: made,
    });
    expect(existsSync(made)).toBe(false);
    expect(existsSync(path.join(world.project, '.gantry', 'worktrees', 'hooked'))).toBe(false);
  });

  it('settings `features` switch the flag on as the environment does', async () => {
    const r = await run(
      [
        reply.toolUse('EnterWorktree', { name: 'by-settings' }),
        reply.toolUse('Bash', { command: 'pwd' }),
        reply.text('Done.'),
      ],
      ['--settings', JSON.stringify({ features: { WORKTREE: true } })],
      {},
    );
    expect(r.code, r.stderr).toBe(0);
    expect(toolResults(r.lines())[1]?.text.trim()).toBe(
      path.join(world.project, '.gantry', 'worktrees', 'by-settings'),
    );
  });

  it('without the flag the tools are not offered', async () => {
    const r = await run([reply.text('Nothing to do.')], [], {});
    expect(r.code, r.stderr).toBe(0);
    const tools = fake!.messageRequests[0]?.body.tools.map((t: any) => t.name);
    expect(tools).not.toContain('EnterWorktree');
  });
});
