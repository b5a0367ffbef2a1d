/**
 * Monitor in `gantry -p` as a real process (`GANTRY_FEATURE_MONITOR=1`): the model starts a watch
 * over a real log writer, ends its turn, and the writer's line reaches it as a
 * `<monitor-event>` in a later turn (the idle loop is woken); the model stops the watch with
 * TaskStop and the session ends. The command is allowed by a Bash rule (`--allowedTools
 * 'Bash(node writer.mjs)'`): Bash rules govern Monitor commands. Without the flag the tool is not
 * offered at all.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
let anthropic: FakeAnthropicServer | undefined;

beforeEach(() => {
  world = makePrintWorld();
});
afterEach(async () => {
  await anthropic?.close();
  anthropic = undefined;
  world.cleanup();
});

/** Tools in the first request, not behind ToolSearch. */
const NO_TOOL_SEARCH = { ENABLE_TOOL_SEARCH: 'false' };

const toolNames = (body: any): string[] => (body.tools ?? []).map((t: any) => t.name);
const lastMessageText = (body: any): string => JSON.stringify(body.messages.at(-1));

describe('gantry -p: Monitor', () => {
  it('the model starts a watch, ends its turn, gets the event in a later turn and stops the watch', async () => {
    const go = path.join(world.project, 'go');
    // The log writer prints its line only once the model has ended the turn that started it.
    writeFileSync(
      path.join(world.project, 'writer.mjs'),
      [
        "import { existsSync } from 'node:fs';",
        `while (!existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 10));`,
        "console.log('deploy finished: 3 services healthy');",
        'setInterval(() => undefined, 1000);',
      ].join('\n'),
    );
    const command = 'node writer.mjs';
    let taskId: string | undefined;
    anthropic = await startFakeAnthropicServer({
      apiKey: PRINT_TEST_KEY,
      script: [
        reply.toolUse('Monitor', { description: 'deploy log', command }),
        (request) => {
          taskId = /task (m[0-9a-f]{6})/.exec(lastMessageText(request.body))?.[1];
          writeFileSync(go, '');
          return reply.text('Watching the deploy log.');
        },
        (request) => {
          const id = /monitor-event task-id=\\"(m[0-9a-f]{6})\\"/.exec(lastMessageText(request.body))?.[1];
          return reply.toolUse('TaskStop', { task_id: id ?? 'missing' });
        },
        reply.text('The deploy finished; I stopped the watch.'),
      ],
    });
    const r = await runGantry(
      [
        '-p',
        'watch the deploy',
        '--output-format',
        'stream-json',
        '--verbose',
        '--allowedTools',
        'Bash(node writer.mjs)',
      ],
      {
        cwd: world.project,
        env: gantryEnv(world, anthropic, { ...NO_TOOL_SEARCH, GANTRY_FEATURE_MONITOR: '1' }),
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const requests = anthropic.messageRequests.map((q) => q.body);
    expect(requests).toHaveLength(4);
    expect(toolNames(requests[0])).toContain('Monitor');
    expect(taskId).toMatch(/^m[0-9a-f]{6}$/);
    // The event arrived in a later turn, wrapped and naming the task.
    const event = lastMessageText(requests[2]);
    expect(event).toContain(`<monitor-event task-id=\\"${taskId}\\" description=\\"deploy log\\">`);
    expect(event).toContain('deploy finished: 3 services healthy');
    expect(lastMessageText(requests[3])).toContain(`Successfully stopped task: ${taskId}`);
    const results = r.lines().filter((l) => l.type === 'result');
    expect(results.map((l) => l.result)).toEqual([
      'Watching the deploy log.',
      'The deploy finished; I stopped the watch.',
    ]);
  });

  it('without the flag Monitor is not offered', async () => {
    anthropic = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script: [reply.text('ok')] });
    const r = await runGantry(['-p', '--output-format', 'json', 'hi'], {
      cwd: world.project,
      env: gantryEnv(world, anthropic, NO_TOOL_SEARCH),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(toolNames(anthropic.messageRequests[0]?.body)).not.toContain('Monitor');
  });
});
