/**
 * SendMessage through the real loop on the fake model server: into a running background agent's
 * next turn, to a finished one (it resumes with its history from its sidechain transcript), to one
 * stopped by the model (resumes) or by the user (refused), an id whose name moved to a newer agent
 * (refused, naming it), and `to: "main"` from a sub-agent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BackgroundTaskManager } from '../../runtime/index.js';
import { agentIdOf, reply, type ScriptRequest } from '../../testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeEngine,
  makeLoopWorld,
  realTools,
  runQuery,
  startFakeModel,
} from '../../testing/loop-fixtures.js';
import { createAgentTool } from '../agent-tool.js';
import { createSendMessageTool } from '../messaging/send-message.tool.js';
import { parentToolResults, resultText } from './test-support.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

async function tools() {
  return [createAgentTool(), createSendMessageTool(), ...(await realTools())];
}

type Seen = Pick<ScriptRequest, 'body' | 'headers'>;
const lastMessage = (r: Seen) => JSON.stringify(r.body.messages.at(-1));
const allMessages = (r: Seen) => JSON.stringify(r.body.messages);
const launchedId = (r: Seen) => /agentId: (a[0-9a-f]{16})/.exec(lastMessage(r))?.[1] ?? '';
const isChild = (r: Seen) => agentIdOf(r as ScriptRequest) !== undefined;

function gate(): { open(): void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('SendMessage to a background agent', () => {
  it('a running agent gets the message in its next turn, marked as an agent message', async () => {
    world = makeLoopWorld();
    const sent = gate();
    model = await startFakeModel(
      'anthropic',
      [
        reply.toolUse('Agent', {
          description: 'Bg',
          prompt: 'work',
          run_in_background: true,
          name: 'worker',
        }),
        reply.toolUse('SendMessage', { to: 'worker', message: 'Also check module B.' }),
        () => {
          sent.open();
          return reply.text('Sent it.');
        },
        reply.text('Saw the report.'),
      ],
      {
        routes: [
          {
            when: isChild,
            script: [
              async () => {
                await sent.opened;
                return reply.toolUse('Glob', { pattern: '*.none' });
              },
              (r) =>
                reply.text(lastMessage(r).includes('module B') ? 'report covers A and B' : 'report covers A'),
            ],
          },
        ],
      },
    );
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await tools(),
        permissionEngine: makeEngine(world),
      }),
    );
    expect(resultText(parentToolResults(run)[1])).toContain('Message delivered to agent');
    const childRequests = model.requests().filter(isChild);
    expect(childRequests).toHaveLength(2);
    const delivered = lastMessage(childRequests[1]!);
    expect(delivered).toContain('<agent-message from=\\"main\\"');
    expect(delivered).toContain('not from the person');
    const main = model.requests().filter((r) => !isChild(r));
    expect(lastMessage(main.at(-1)!)).toContain('report covers A and B');
  });

  it('a finished agent resumes in the background with its history; the notification carries the new report', async () => {
    world = makeLoopWorld();
    let agentId = '';
    model = await startFakeModel(
      'anthropic',
      [
        reply.toolUse('Agent', {
          description: 'Bg',
          prompt: 'first task',
          run_in_background: true,
          name: 'worker',
        }),
        (r) => {
          agentId = launchedId(r);
          return reply.text('Launched.');
        },
        // The completion notification arrives as a new turn.
        reply.toolUse('SendMessage', { to: 'worker', message: 'Now the follow-up.' }),
        reply.text('Asked for the follow-up.'),
        reply.text('Got the second report.'),
      ],
      {
        routes: [
          {
            when: isChild,
            script: (r) =>
              reply.text(lastMessage(r).includes('follow-up') ? 'second report' : 'first report'),
          },
        ],
      },
    );
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await tools(),
        permissionEngine: makeEngine(world),
      }),
    );
    expect(agentId).toMatch(/^a[0-9a-f]{16}$/);
    const send = parentToolResults(run).find((e) => resultText(e).includes('resumes in the background'));
    expect(send).toBeDefined();
    const child = model.requests().filter(isChild);
    expect(child).toHaveLength(2);
    expect(new Set(child.map((r) => agentIdOf(r as ScriptRequest)))).toEqual(new Set([agentId]));
    // The resumed run continues the first conversation: first task, first report, then the message.
    const resumed = allMessages(child[1]!);
    expect(resumed).toContain('first task');
    expect(resumed).toContain('first report');
    expect(lastMessage(child[1]!)).toContain('Now the follow-up.');
    const last = model
      .requests()
      .filter((r) => !isChild(r))
      .at(-1)!;
    expect(lastMessage(last)).toContain('<task-notification>');
    expect(lastMessage(last)).toContain('second report');
  });

  it('by the id of an agent whose name now belongs to a newer one: refused, naming the holder', async () => {
    world = makeLoopWorld();
    const ids: string[] = [];
    model = await startFakeModel(
      'anthropic',
      [
        reply.toolUse('Agent', { description: 'One', prompt: 'x', name: 'worker' }),
        (r) => {
          ids.push(/agentId: (a[0-9a-f]{16})/.exec(lastMessage(r))?.[1] ?? '');
          return reply.toolUse('Agent', { description: 'Two', prompt: 'y', name: 'worker' });
        },
        (r) => {
          ids.push(/agentId: (a[0-9a-f]{16})/.exec(lastMessage(r))?.[1] ?? '');
          return reply.toolUse('SendMessage', { to: ids[0], message: 'hello old one' });
        },
        reply.text('Refused, as expected.'),
      ],
      { routes: [{ when: isChild, script: (r) => reply.text(`done ${agentIdOf(r)}`) }] },
    );
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await tools(),
        permissionEngine: makeEngine(world),
      }),
    );
    const refusal = parentToolResults(run)[2]!;
    expect((refusal.message.content as any[])[0].is_error).toBe(true);
    expect(resultText(refusal)).toContain(`now belongs to a newer agent, ${ids[1]}`);
    // Nothing was resumed: each agent ran once.
    expect(model.requests().filter(isChild)).toHaveLength(2);
  });

  it('stopped by the model (TaskStop): resumes; stopped by the user: refused', async () => {
    world = makeLoopWorld();
    const tasks = new BackgroundTaskManager();
    let modelStopped = '';
    let userStopped = '';
    model = await startFakeModel(
      'anthropic',
      [
        reply.toolUse('Agent', { description: 'A', prompt: 'a', run_in_background: true, name: 'alpha' }),
        (r) => {
          modelStopped = launchedId(r);
          return reply.toolUse('TaskStop', { task_id: modelStopped });
        },
        reply.toolUse('Agent', { description: 'B', prompt: 'b', run_in_background: true, name: 'beta' }),
        (r) => {
          userStopped = launchedId(r);
          // The person stops it (the host's stop, not the model's TaskStop).
          void tasks.stop(userStopped);
          return reply.toolUse('SendMessage', { to: 'beta', message: 'go on' });
        },
        reply.toolUse('SendMessage', { to: 'alpha', message: 'go on please' }),
        reply.text('Done sending.'),
        reply.text('noted'),
        reply.text('noted'),
        reply.text('noted'),
      ],
      {
        routes: [
          {
            when: isChild,
            script: (r) =>
              lastMessage(r).includes('go on please') ? reply.text('alpha resumed') : reply.stall(),
          },
        ],
      },
    );
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await tools(),
        permissionEngine: makeEngine(world),
        taskRegistry: tasks,
      }),
    );
    const results = parentToolResults(run).map(resultText);
    const toBeta = results.find((t) => t.includes('stopped by the user'));
    expect(toBeta).toContain('cannot be resumed');
    expect(results.some((t) => t.includes(modelStopped) && t.includes('had been stopped; it resumes'))).toBe(
      true,
    );
    const alphaRuns = model.requests().filter((r) => agentIdOf(r as ScriptRequest) === modelStopped);
    expect(alphaRuns.length).toBe(2);
    expect(model.requests().filter((r) => agentIdOf(r as ScriptRequest) === userStopped)).toHaveLength(1);
    await tasks.dispose();
  });
});

describe('SendMessage to main', () => {
  it('from a background agent: delivered into the main session as an agent message', async () => {
    world = makeLoopWorld();
    model = await startFakeModel(
      'anthropic',
      [
        reply.toolUse('Agent', {
          description: 'Bg',
          prompt: 'work',
          run_in_background: true,
          name: 'worker',
        }),
        reply.text('Waiting for the worker.'),
        reply.text('Read the progress note.'),
        reply.text('Read the notification.'),
      ],
      {
        routes: [
          {
            when: isChild,
            script: [
              reply.toolUse('SendMessage', {
                to: 'main',
                summary: 'progress',
                message: 'Half done: A works.',
              }),
              reply.text('final report'),
            ],
          },
        ],
      },
    );
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await tools(),
        permissionEngine: makeEngine(world),
      }),
    );
    expect(run.results.length).toBeGreaterThanOrEqual(2);
    const main = model.requests().filter((r) => !isChild(r));
    const withNote = main.find((r) => allMessages(r).includes('Half done: A works.'));
    expect(withNote).toBeDefined();
    expect(allMessages(withNote!)).toContain('<agent-message from=\\"worker\\"');
    expect(allMessages(withNote!)).toContain('summary=\\"progress\\"');
    const child = model.requests().filter(isChild);
    expect(lastMessage(child[1]!)).toContain('Message delivered to the main session.');
  });

  it('from the main session itself: a clear error', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [
      reply.toolUse('SendMessage', { to: 'main', message: 'hi' }),
      reply.text('ok'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await tools(),
        permissionEngine: makeEngine(world),
      }),
    );
    expect(resultText(parentToolResults(run)[0])).toContain('You are the main session');
  });
});
