/**
 * The WORKTREE and BROWSER conditional tools in interactive `gantry` (a real terminal through tmux,
 * the scripted fake Anthropic server): with both flags on, EnterWorktree moves the session (a Bash
 * `pwd` prints the worktree), and WebBrowser opens and reads a page served on 127.0.0.1 (allowed by
 * a `WebBrowser(domain:127.0.0.1)` rule). What the model got is read from the fake server.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../testing/fake-anthropic-server.js';
import { reply } from '../testing/fake-model-script.js';
import { type LocalWebServer, page, startLocalWebServer } from '../testing/local-web-server.js';
import {
  GANTRY_BIN,
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
} from '../testing/print-fixtures.js';
import { TmuxSession } from '../testing/tmux.js';

let world: PrintWorld;
let fake: FakeAnthropicServer | undefined;
let web: LocalWebServer | undefined;
let term: TmuxSession | undefined;

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
  term?.kill();
  term = undefined;
  await fake?.close();
  fake = undefined;
  await web?.close();
  web = undefined;
  world.cleanup();
});

/** The tool_result texts of every request the fake server got, in order. */
function toolResults(): string[] {
  const body = fake?.messageRequests.at(-1)?.body;
  return (body?.messages ?? [])
    .flatMap((m: any) => (Array.isArray(m.content) ? m.content : []))
    .filter((b: any) => b.type === 'tool_result')
    .map((b: any) =>
      typeof b.content === 'string' ? b.content : b.content.map((c: any) => c.text ?? '').join(''),
    );
}

describe('interactive gantry with WORKTREE and BROWSER on', () => {
  it('EnterWorktree moves Bash into the worktree; WebBrowser reads a local page', async () => {
    web = await startLocalWebServer({
      '/': page('<html><head><title>Board</title></head><body><p>Build is green.</p></body></html>'),
    });
    fake = await startFakeAnthropicServer({
      apiKey: PRINT_TEST_KEY,
      script: [
        reply.toolUse('EnterWorktree', { name: 'tty' }),
        reply.toolUse('Bash', { command: 'pwd' }),
        reply.toolUse('WebBrowser', { action: 'navigate', url: web.url('/') }),
        reply.toolUse('WebBrowser', { action: 'read' }),
        reply.text('All checked.'),
      ],
    });
    const settings = JSON.stringify({
      webFetch: { allowPrivateHosts: ['127.0.0.1'], allowHttpHosts: ['127.0.0.1'] },
      permissions: { allow: ['WebBrowser(domain:127.0.0.1)'] },
    });
    term = TmuxSession.start({
      command: [process.execPath, GANTRY_BIN, '--settings', settings],
      cwd: world.project,
      env: gantryEnv(world, fake, {
        NO_COLOR: '1',
        ENABLE_TOOL_SEARCH: 'false',
        GANTRY_FEATURE_WORKTREE: '1',
        GANTRY_FEATURE_BROWSER: '1',
      }),
      dir: world.root,
    });
    await term.waitFor('ask Gantry');
    term.type('check the board');
    await term.waitFor('check the board');
    term.keys('Enter');
    await term.waitFor('All checked.', 60_000);
    const results = toolResults();
    expect(results[1]?.trim()).toBe(path.join(world.project, '.gantry', 'worktrees', 'tty'));
    expect(results[2]).toContain('"Board"');
    expect(results[3]).toContain('Build is green.');
    // Leave cleanly: the session's clean-up removes the inline --settings file and the browser's files.
    term.type('/exit');
    await term.waitFor('/exit');
    term.keys('Enter');
    await term.waitFor('Bye. Resume with');
  });
});
