/**
 * ScheduleWakeup in interactive `gantry` (a real terminal under tmux, the fake Anthropic server):
 * after the person's turn the session waits at its prompt, the wake-up starts the next turn by
 * itself (its reply appears on the screen without anyone typing), and `stop: true` ends the loop.
 * `GANTRY_SCHEDULE_SPEEDUP` makes the 60-second wake-up pass in 60 ms. The test waits for text on
 * the screen, never for time to pass.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { lastUserText, reply } from '../../testing/fake-model-script.js';
import {
  GANTRY_BIN,
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
} from '../../testing/print-fixtures.js';
import { TmuxSession } from '../../testing/tmux.js';

let world: PrintWorld;
let fake: FakeAnthropicServer | undefined;
let term: TmuxSession | undefined;

beforeEach(() => {
  world = makePrintWorld();
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  await fake?.close();
  fake = undefined;
  world.cleanup();
});

describe('interactive gantry: a self-paced loop', { timeout: 120_000 }, () => {
  it('the wake-up starts the next turn without input; stop: true ends the loop', async () => {
    fake = await startFakeAnthropicServer({
      apiKey: PRINT_TEST_KEY,
      script: [
        reply.toolUse('ScheduleWakeup', {
          delaySeconds: 60,
          reason: 'build running',
          prompt: 'look at the build',
        }),
        reply.text('Build started, back in a minute.'),
        reply.toolUse('ScheduleWakeup', { stop: true }),
        reply.text('WAKEUP-TURN: the build is green.'),
      ],
    });
    term = TmuxSession.start({
      command: [process.execPath, GANTRY_BIN],
      cwd: world.project,
      env: gantryEnv(world, fake, {
        NO_COLOR: '1',
        GANTRY_FEATURE_WAKEUP: '1',
        GANTRY_SCHEDULE_SPEEDUP: '1000',
        ENABLE_TOOL_SEARCH: 'false',
      }),
      dir: world.root,
    });
    await term.waitFor('ask Gantry');
    term.type('watch the build');
    await term.waitFor('watch the build');
    term.keys('Enter');
    const screen = await term.waitFor('WAKEUP-TURN: the build is green.');
    expect(screen).toContain('Build started, back in a minute.');
    expect(fake.messageRequests).toHaveLength(4);
    expect(lastUserText(fake.messageRequests[2]?.body)).toContain('<scheduled-prompt origin="wakeup"');
  });
});
