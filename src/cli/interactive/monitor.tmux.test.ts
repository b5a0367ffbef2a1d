/**
 * Monitor in interactive `gantry` in a real terminal (tmux), with `GANTRY_FEATURE_MONITOR=1`,
 * against the scripted fake Anthropic server: the model starts a watch over a real log writer and
 * ends its turn; the writer's line wakes the idle session, which sends it to the model as a
 * `<monitor-event>`; the model stops the watch with TaskStop. Waits are for text on the screen.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply } from '../../testing/fake-model-script.js';
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

const lastMessageText = (body: any): string => JSON.stringify(body.messages.at(-1));

describe('interactive gantry: Monitor', () => {
  it('an event from a watch wakes the idle session and reaches the model', async () => {
    const go = path.join(world.project, 'go');
    writeFileSync(
      path.join(world.project, 'writer.mjs'),
      [
        "import { existsSync } from 'node:fs';",
        `while (!existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 10));`,
        "console.log('deploy finished: 3 services healthy');",
        'setInterval(() => undefined, 1000);',
      ].join('\n'),
    );
    fake = await startFakeAnthropicServer({
      apiKey: PRINT_TEST_KEY,
      script: [
        reply.toolUse('Monitor', { description: 'deploy log', command: 'node writer.mjs' }),
        () => {
          writeFileSync(go, '');
          return reply.text('Watching the deploy log.');
        },
        (request) => {
          const id = /monitor-event task-id=\\"(m[0-9a-f]{6})\\"/.exec(lastMessageText(request.body))?.[1];
          return reply.toolUse('TaskStop', { task_id: id ?? 'missing' });
        },
        reply.text('Deploy done, watch stopped.'),
      ],
    });
    term = TmuxSession.start({
      command: [process.execPath, GANTRY_BIN, '--allowedTools', 'Bash(node writer.mjs)'],
      cwd: world.project,
      env: gantryEnv(world, fake, {
        NO_COLOR: '1',
        ENABLE_TOOL_SEARCH: 'false',
        GANTRY_FEATURE_MONITOR: '1',
      }),
      dir: world.root,
    });
    await term.waitFor('ask Gantry');
    term.type('watch the deploy');
    await term.waitFor('watch the deploy');
    term.keys('Enter');
    await term.waitFor('Deploy done, watch stopped.');
    const requests = fake.messageRequests.map((q) => q.body);
    expect(requests).toHaveLength(4);
    expect(lastMessageText(requests[2])).toContain('deploy finished: 3 services healthy');
    expect(lastMessageText(requests[3])).toContain('Successfully stopped task: m');
  });
});
