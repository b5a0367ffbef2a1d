/**
 * The TodoWrite reminder through the real loop in `gantry -p` (against the scripted fake model
 * server): with TodoWrite selected (CLAUDE_CODE_ENABLE_TASKS=0) and enough tool turns without it,
 * the next request's last user message carries the reminder once; turns before that carry none.
 */
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
import { TODO_REMINDER_LEAD, TODO_STALE_TURNS } from './todo-reminder.js';

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

it('attaches the stale-list reminder to the request after the stale turn, once', async () => {
  const turns = Array.from({ length: TODO_STALE_TURNS + 1 }, (_, i) =>
    reply.toolUse('Glob', { pattern: `**/*.ext${i}` }),
  );
  fake = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script: [...turns, reply.text('Done.')] });
  const r = await runGantry(['-p', 'look around'], {
    cwd: world.project,
    env: gantryEnv(world, fake, { CLAUDE_CODE_ENABLE_TASKS: '0', GANTRY_MAX_TOOL_CALLS: undefined }),
  });
  expect(r.code, r.stderr).toBe(0);
  const requests = fake.messageRequests.map((q) => q.body);
  expect(requests[0].tools.map((t: any) => t.name)).toContain('TodoWrite');
  const lastUser = (body: any) => JSON.stringify(body.messages[body.messages.length - 1]);
  const withReminder = requests.map((b: any, i: number) => [i, lastUser(b).includes(TODO_REMINDER_LEAD)]);
  expect(withReminder.filter(([, has]) => has).map(([i]) => i)).toEqual([TODO_STALE_TURNS]);
  // It stays in the conversation (the transcript keeps it, so a resumed session does not repeat it).
  expect(JSON.stringify(requests[TODO_STALE_TURNS + 1].messages)).toContain(TODO_REMINDER_LEAD);
});
