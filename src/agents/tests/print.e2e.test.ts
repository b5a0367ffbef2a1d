/**
 * Sub-agents in `gantry -p` (a real process against the fake Messages API): a foreground agent's
 * events in stream-json with `parent_tool_use_id`, a custom agent from `.claude/agents` and from
 * `--agents` with its exact tool list, a background agent that `-p` waits for (its notification
 * is a second turn with `result_index: 1`), and a headless child's denial in `permission_denials`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deferred } from '../../testing/deferred.js';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { agentIdOf, type FakeRoute, reply, type ScriptEntry } from '../../testing/fake-model-script.js';
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

async function withFake(script: ScriptEntry[], child: ScriptEntry[]) {
  const routes: FakeRoute[] = [{ name: 'child', when: (r) => agentIdOf(r) !== undefined, script: child }];
  fake = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script, routes });
  return fake;
}

const run = (args: string[]) => runGantry(args, { cwd: world.project, env: gantryEnv(world, fake) });
const lines = (out: string) =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('gantry -p with sub-agents', () => {
  it('stream-json carries the child events with parent_tool_use_id and agent_id', async () => {
    await withFake(
      [
        reply.toolUse('Task', { description: 'Echo', prompt: 'Say hi' }, { id: 'toolu_agent1' }),
        reply.text('Parent done.'),
      ],
      [reply.text('hi from the child')],
    );
    const r = await run(['-p', '--output-format', 'stream-json', '--verbose', 'delegate']);
    expect(r.code).toBe(0);
    const events = lines(r.stdout);
    expect(events.find((e) => e.type === 'system' && e.subtype === 'init').tools).toContain('Task');
    const child = events.filter((e) => e.agent_id);
    expect(child.some((e) => e.type === 'assistant' && e.parent_tool_use_id === 'toolu_agent1')).toBe(true);
    expect(
      events.some(
        (e) => e.type === 'system' && e.subtype === 'task_started' && e.tool_use_id === 'toolu_agent1',
      ),
    ).toBe(true);
    expect(
      events.some(
        (e) =>
          e.type === 'system' &&
          e.subtype === 'task_notification' &&
          e.tool_use_id === 'toolu_agent1' &&
          e.status === 'completed',
      ),
    ).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'result', result: 'Parent done.', is_error: false });
  });

  it('a custom agent from .claude/agents and one from --agents get exactly their tools, in order', async () => {
    const dir = path.join(world.project, '.claude', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'reader.md'),
      '---\nname: reader\ndescription: Reads files.\ntools: Read, Glob\n---\nYou read.\n',
    );
    await withFake(
      [
        reply.toolUse('Agent', { description: 'Read', prompt: 'Read it', subagent_type: 'reader' }),
        reply.toolUse('Agent', { description: 'Grep', prompt: 'Grep it', subagent_type: 'grepper' }),
        reply.text('Parent done.'),
      ],
      [reply.text('read'), reply.text('grepped')],
    );
    const flag = JSON.stringify({
      grepper: { description: 'Greps.', prompt: 'You grep.', tools: ['Grep', 'Bash'] },
    });
    const r = await run(['-p', '--agents', flag, 'go']);
    expect(r.code).toBe(0);
    const child = fake!.messageRequests.filter((x) => x.headers['x-gantry-agent-id']);
    expect(child.map((c) => c.body.tools.map((t: any) => t.name))).toEqual([
      ['Read', 'Glob'],
      ['Grep', 'Bash'],
    ]);
    expect(JSON.stringify(child[0]!.body.system)).toContain('You read.');
  });

  it('a bad agent file is a warning with file and line; the run goes on', async () => {
    const dir = path.join(world.project, '.claude', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'broken.md'), '---\nname: broken\n---\nno description\n');
    await withFake([reply.text('fine')], []);
    const r = await run(['-p', 'hi']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${path.join(dir, 'broken.md')}:1`);
    expect(r.stderr).toContain('description');
  });

  it('waits for a background agent, then reports its notification as a second result', async () => {
    // The child answers once the parent's second request was sent (a turn of its own follows).
    const parentSecond = deferred();
    await withFake(
      [
        reply.toolUse('Agent', { description: 'Slow job', prompt: 'Do it', run_in_background: true }),
        () => {
          parentSecond.resolve();
          return reply.text('Launched.');
        },
        reply.text('The job finished.'),
      ],
      [
        async () => {
          await parentSecond.promise;
          return reply.text('job output');
        },
      ],
    );
    const r = await run(['-p', '--output-format', 'stream-json', '--verbose', 'start a job']);
    expect(r.code).toBe(0);
    const results = lines(r.stdout).filter((e) => e.type === 'result');
    expect(results.map((x) => x.result_index)).toEqual([0, 1]);
    expect(results[1].result).toBe('The job finished.');
    const lastParent = fake!.messageRequests.filter((x) => !x.headers['x-gantry-agent-id']).at(-1)!;
    expect(JSON.stringify(lastParent.body.messages.at(-1))).toContain('<task-notification>');
  });

  it('headless: a child call that would ask is denied and listed with the agent id', async () => {
    await withFake(
      [reply.toolUse('Agent', { description: 'Write', prompt: 'Write a file' }), reply.text('Parent done.')],
      [
        reply.toolUse('Write', { file_path: path.join(world.project, 'x.txt'), content: 'x' }),
        reply.text('could not'),
      ],
    );
    const r = await run(['-p', '--output-format', 'json', 'go']);
    const result = JSON.parse(r.stdout.trim());
    expect(result.permission_denials).toEqual([
      expect.objectContaining({ tool_name: 'Write', agent_id: expect.stringMatching(/^a[0-9a-f]{16}$/) }),
    ]);
  });
});
