/**
 * `gantry -p --agent <name>` (a real process against the fake Messages API): the main session runs
 * as the definition — its prompt replaces Gantry's, its tools narrow the pool, its model, mode and
 * maxTurns apply — unless the matching flag is given; an unknown name is a set-up error listing
 * the names; a project definition in an untrusted folder cannot widen the mode; its inline
 * `mcpServers` join the session's servers (trusted folder), their tools kept despite `tools:`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { processesMatching } from '../../testing/mcp-client-fixtures.js';
import { mcpTestServerCommand } from '../../testing/mcp-test-server.js';
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
beforeEach(() => {
  world = makePrintWorld();
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  world.cleanup();
});

function writeAgent(name: string, frontmatter: string, body: string): void {
  const dir = path.join(world.project, '.claude', 'agents');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${name}.md`), `---\nname: ${name}\n${frontmatter}\n---\n${body}\n`);
}

async function run(args: string[], script: ScriptEntry[], env: Record<string, string> = {}) {
  fake = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script });
  return runGantry(['-p', '--output-format', 'stream-json', '--verbose', ...args], {
    cwd: world.project,
    env: gantryEnv(world, fake, env),
  });
}

const REVIEWER =
  'description: Reviews code without changing it.\ntools: Read, Grep\nmodel: haiku\npermissionMode: plan\nmaxTurns: 2';

describe('gantry -p --agent', () => {
  it('runs the main session with the definition’s prompt, tools, model, mode and maxTurns', async () => {
    writeAgent('reviewer', REVIEWER, 'You are the reviewer agent. You review and never edit.');
    const file = path.join(world.project, 'a.txt');
    writeFileSync(file, 'alpha\n');
    const r = await run(
      ['--agent', 'reviewer', 'review a.txt'],
      [
        reply.toolUse('Read', { file_path: file }),
        reply.toolUse('Read', { file_path: file }),
        reply.text('x'),
      ],
    );
    const events = r.lines();
    const init = events.find((e) => e.type === 'system' && e.subtype === 'init');
    expect(init.permissionMode).toBe('plan');
    expect(init.tools).toEqual(['Grep', 'Read']);
    const [first] = fake!.messageRequests;
    const system = JSON.stringify(first!.body.system);
    expect(system).toContain('You are the reviewer agent.');
    expect(first!.body.tools.map((t: any) => t.name)).toEqual(['Grep', 'Read']);
    expect(first!.body.model).toMatch(/haiku/);
    // maxTurns 2: the third request is never sent.
    expect(fake!.messageRequests).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'result', subtype: 'error_max_turns' });
  });

  it('the flags win over the definition: --model, --permission-mode, --system-prompt, --max-turns', async () => {
    writeAgent('reviewer', REVIEWER, 'You are the reviewer agent.');
    const r = await run(
      [
        '--agent',
        'reviewer',
        '--model',
        'sonnet',
        '--permission-mode',
        'default',
        '--system-prompt',
        'You are a flag prompt.',
        '--max-turns',
        '5',
        'hi',
      ],
      [reply.text('hello')],
    );
    expect(r.code).toBe(0);
    const events = r.lines();
    expect(events.find((e) => e.type === 'system' && e.subtype === 'init').permissionMode).toBe('default');
    const [first] = fake!.messageRequests;
    expect(first!.body.model).toMatch(/sonnet/);
    expect(JSON.stringify(first!.body.system)).toContain('You are a flag prompt.');
    expect(JSON.stringify(first!.body.system)).not.toContain('reviewer agent');
    expect(first!.body.tools.map((t: any) => t.name)).toEqual(['Grep', 'Read']);
    expect(events.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'hello' });
  });

  it('an agent from --agents works too, and Agent(type) offers only that sub-agent type', async () => {
    const agents = JSON.stringify({
      lead: { description: 'Leads.', prompt: 'You lead the work.', tools: ['Agent(Explore)', 'Read'] },
    });
    const r = await run(['--agents', agents, '--agent', 'lead', 'hi'], [reply.text('led')]);
    expect(r.code).toBe(0);
    const [first] = fake!.messageRequests;
    expect(first!.body.tools.map((t: any) => t.name)).toEqual(['Agent', 'Read']);
    const agentTool = first!.body.tools.find((t: any) => t.name === 'Agent');
    expect(agentTool.description).toContain('- Explore:');
    expect(agentTool.description).not.toContain('- general-purpose:');
    expect(JSON.stringify(first!.body.system)).toContain('You lead the work.');
  });

  it('an unknown name is an error that lists the agents there are; nothing is sent', async () => {
    const r = await run(['--agent', 'nobody', 'hi'], [reply.text('never')]);
    expect(r.code).not.toBe(0);
    const res = r.lines().at(-1);
    expect(res).toMatchObject({ type: 'result', is_error: true });
    const text = [res.result, ...(res.errors ?? [])].join('\n');
    expect(text).toContain('no agent named "nobody"');
    expect(text).toContain('general-purpose');
    expect(text).not.toContain('fork');
    expect(fake!.messageRequests).toHaveLength(0);
  });

  it('a project definition cannot widen the mode in an untrusted folder; trusted, it can', async () => {
    writeAgent('yolo', 'description: Does anything.\npermissionMode: acceptEdits', 'You do it all.');
    const untrusted = await run(['--agent', 'yolo', 'hi'], [reply.text('ok')]);
    expect(untrusted.stderr).toContain('untrusted folder');
    const init = untrusted.lines().find((e) => e.type === 'system' && e.subtype === 'init');
    expect(init.permissionMode).toBe('default');
    await fake!.close();
    const trusted = await run(['--agent', 'yolo', 'hi'], [reply.text('ok')], { GANTRY_TRUST_PROJECT: '1' });
    expect(trusted.lines().find((e) => e.type === 'system' && e.subtype === 'init').permissionMode).toBe(
      'acceptEdits',
    );
  });

  it('the definition’s inline mcpServers join the session (trusted folder) and serve its calls', async () => {
    const marker = `main-agent-${Math.random().toString(36).slice(2)}`;
    const cmd = mcpTestServerCommand({ toolCount: 0, name: marker });
    writeAgent(
      'echoer',
      `description: Echoes.\ntools: Read\nmcpServers: ${JSON.stringify([{ scratch: { command: cmd.command, args: cmd.args } }])}`,
      'You echo.',
    );
    const r = await run(
      ['--agent', 'echoer', '--allowedTools', 'mcp__scratch__echo', 'echo'],
      [reply.toolUse('mcp__scratch__echo', { message: 'from the main agent' }), reply.text('echoed')],
      { GANTRY_TRUST_PROJECT: '1', ENABLE_TOOL_SEARCH: 'false' },
    );
    expect(r.code, r.stderr).toBe(0);
    const [first, second] = fake!.messageRequests;
    const names = first!.body.tools.map((t: any) => t.name);
    expect(names).toContain('Read');
    expect(names).toContain('mcp__scratch__echo');
    expect(names).not.toContain('Bash');
    expect(JSON.stringify(second!.body.messages.at(-1))).toContain('from the main agent');
    expect(processesMatching(marker)).toEqual([]);
  });
});
