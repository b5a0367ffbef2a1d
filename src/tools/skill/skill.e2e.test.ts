/**
 * Skills in `gantry -p` (the real bin against the scripted fake model server, skill folders made
 * in the test's HOME and project): the listing reaches the first prompt, the body is rendered with
 * its inline command run as a real Bash call under the permission rules, `allowed-tools` of a user
 * skill allows a later Bash call, while a project skill in an untrusted folder is granted nothing.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply } from '../../testing/fake-model-script.js';
import {
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
  runGantry,
} from '../../testing/print-fixtures.js';

let world: PrintWorld;
let fake: FakeAnthropicServer | undefined;

beforeEach(() => {
  world = makePrintWorld();
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  world.cleanup();
});

function skill(root: string, name: string, frontmatter: string, body: string): void {
  const dir = path.join(root, '.claude', 'skills', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\n${frontmatter}\n---\n${body}\n`);
}

const text = (b: any): string =>
  typeof b.content === 'string' ? b.content : b.content.map((x: any) => x.text ?? '').join('');

it('lists skills, renders the body with its inline command, grants a user skill its allowed-tools, a project skill none in an untrusted folder', async () => {
  skill(
    world.home,
    'ci',
    'description: Run the CI checks\nallowed-tools: Bash(touch granted.txt)',
    'Check the build. Inline: !`touch inline.txt && echo inline-ran`',
  );
  skill(
    world.project,
    'proj',
    'description: A project skill\nallowed-tools: Bash(touch project.txt)',
    'Project steps.',
  );
  fake = await startFakeAnthropicServer({
    apiKey: PRINT_TEST_KEY,
    script: [
      reply.toolUse('Skill', { skill: 'ci' }),
      reply.toolUse('Bash', { command: 'touch granted.txt' }),
      reply.toolUse('Skill', { skill: 'proj' }),
      reply.toolUse('Bash', { command: 'touch project.txt' }),
      reply.text('Checked.'),
    ],
  });
  const r = await runGantry(
    [
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--allowedTools',
      'Skill',
      'Bash(touch inline.txt)',
      '--',
      'run ci',
    ],
    { cwd: world.project, env: gantryEnv(world, fake) },
  );
  expect(r.code, r.stderr).toBe(0);
  const first = JSON.stringify(fake.messageRequests[0]?.body.messages);
  expect(first).toContain('- ci: Run the CI checks');
  expect(first).toContain('- proj: A project skill');
  const results = r
    .lines()
    .filter((l) => l.type === 'user' && Array.isArray(l.message?.content))
    .flatMap((l) => l.message.content.filter((b: any) => b.type === 'tool_result'));
  expect(text(results[0])).toContain('Launching skill: ci');
  const second = JSON.stringify(fake.messageRequests[1]?.body.messages);
  expect(second).toContain('Inline: inline-ran');
  expect(existsSync(path.join(world.project, 'inline.txt'))).toBe(true);
  expect(results[1].is_error ?? false).toBe(false);
  expect(existsSync(path.join(world.project, 'granted.txt'))).toBe(true);
  expect(text(results[2])).toMatch(
    /Not granted for this skill \(Bash\(touch project\.txt\): a project skill widens permissions only in a trusted folder/,
  );
  expect(results[3].is_error).toBe(true);
  expect(text(results[3])).toMatch(/no one to ask/);
  expect(existsSync(path.join(world.project, 'project.txt'))).toBe(false);
});
