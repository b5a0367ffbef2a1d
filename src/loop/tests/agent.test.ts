/**
 * `createAgent`, the library face: configuration errors at creation, a session with Gantry's own
 * tools and engine built from settings files (deny rules, hooks), continue/resume, auto mode with
 * a classifier model, and the OpenAI-compatible provider — all through the real SDKs against the
 * fakes.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelConfigError } from '../../model/config.js';
import { FIRST_PASS_PROMPT } from '../../permissions/classifier/model-classifier.js';
import { reply, systemText, toolUse } from '../../testing/fake-model-script.js';
import {
  collect,
  type FakeModel,
  type LoopWorld,
  makeLoopWorld,
  startFakeModel,
  TEST_KEY,
} from '../../testing/loop-fixtures.js';
import { createAgent } from '../agent.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

const anthropicEnv = (url: string) => ({
  ANTHROPIC_API_KEY: TEST_KEY,
  ANTHROPIC_BASE_URL: url,
  GANTRY_MAX_RETRIES: '0',
});

describe('createAgent', () => {
  it.each([
    [{ provider: 'nope' }, {}, 'unknown provider'],
    [{}, {}, 'no API key'],
    [
      { provider: 'openai', model: 'sonnet' },
      { OPENAI_API_KEY: 'k' },
      'an Anthropic alias with the OpenAI provider',
    ],
  ])('%j with env %j throws ModelConfigError (%s)', (opts, env, _why) => {
    expect(() => createAgent({ cwd: '/tmp', ...opts, env })).toThrow(ModelConfigError);
  });

  it("runs a session with the built-in tools, the settings files' deny rules and hooks", async () => {
    world = makeLoopWorld();
    const log = path.join(world.root, 'stop.log');
    const settingsFile = path.join(world.root, 'settings.json');
    writeFileSync(
      settingsFile,
      JSON.stringify({
        permissions: { deny: ['Bash(rm:*)', 'NotebookEdit'] },
        hooks: { Stop: [{ hooks: [{ type: 'command', command: `cat > ${log}` }] }] },
      }),
    );
    writeFileSync(path.join(world.project, 'keep.txt'), 'x');
    model = await startFakeModel('anthropic', [
      reply.toolUse('Bash', { command: 'rm keep.txt' }),
      reply.text('could not delete it'),
    ]);
    const agent = createAgent({
      cwd: world.project,
      home: world.home,
      model: 'haiku',
      env: anthropicEnv((model.server as any).url),
      settings: { files: [settingsFile], managedFiles: [] },
      transcript: { gantryHome: world.gantryHome },
    });
    expect(agent.model).toBe('claude-haiku-5-5');
    const run = await collect(agent.query('delete keep.txt'));
    expect(existsSync(path.join(world.project, 'keep.txt'))).toBe(true);
    expect(run.results[0]?.permission_denials.map((d) => d.tool_name)).toEqual(['Bash']);
    const tools = model.requests()[0]!.body.tools.map((t: any) => t.name);
    expect(tools).not.toContain('NotebookEdit');
    expect(tools).toEqual([...tools].sort());
    expect(existsSync(log)).toBe(true);
    expect(run.of('system', 'init')[0]?.tools).not.toContain('NotebookEdit');
  });

  it('continue() picks up the latest session of the cwd; resume() a named one', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [reply.text('one'), reply.text('two'), reply.text('three')]);
    const agent = createAgent({
      cwd: world.project,
      home: world.home,
      env: anthropicEnv((model.server as any).url),
      settings: { managedFiles: [] },
    });
    const first = await collect(agent.query('first'));
    const second = await collect(agent.continue('second'));
    expect(second.result.sessionId).toBe(first.result.sessionId);
    expect(model.requests()[1]!.body.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user']);
    const third = await collect(agent.resume(first.result.transcriptPath as string, 'third'));
    expect(third.result.sessionId).toBe(first.result.sessionId);
    expect(model.requests()[2]!.body.messages).toHaveLength(5);
    expect(
      path
        .dirname(first.result.transcriptPath as string)
        .startsWith(path.join(world.home, '.gantry', 'projects')),
    ).toBe(true);
  });

  it('auto mode with a classifier model: the model sees the conversation and its LOW lets the call run', async () => {
    world = makeLoopWorld();
    const made = path.join(world.project, 'built.txt');
    model = await startFakeModel(
      'anthropic',
      [reply.toolUse('Bash', { command: `touch ${made}` }), reply.text('built')],
      {
        routes: [
          {
            name: 'classifier',
            when: (r) =>
              systemText(r.body).startsWith(FIRST_PASS_PROMPT.slice(0, 40)) ||
              systemText(r.body).startsWith('A first reviewer'),
            script: () => reply.text('LOW\npart of the task'),
          },
        ],
      },
    );
    const agent = createAgent({
      cwd: world.project,
      home: world.home,
      env: anthropicEnv((model.server as any).url),
      permissionMode: 'auto',
      settings: { managedFiles: [] },
      autoModeClassifier: { model: 'claude-haiku-4-5' },
    });
    const run = await collect(agent.query('please build the marker'));
    expect(existsSync(made)).toBe(true);
    expect(run.results[0]?.permission_denials).toEqual([]);
    const classifierRequests = model.requests().filter((r) => r.body.tools === undefined);
    expect(classifierRequests).toHaveLength(2);
    expect(JSON.stringify(classifierRequests[0]!.body.messages)).toContain('please build the marker');
  });

  it('works with the OpenAI-compatible provider', async () => {
    world = makeLoopWorld();
    mkdirSync(path.join(world.project, 'src'));
    writeFileSync(path.join(world.project, 'src', 'a.ts'), 'export const a = 1;\n');
    model = await startFakeModel('openai', [
      reply.message([toolUse('Glob', { pattern: 'src/*.ts' })]),
      reply.text('found a.ts'),
    ]);
    const agent = createAgent({
      cwd: world.project,
      home: world.home,
      provider: 'openai',
      model: 'gpt-4.1',
      env: {
        OPENAI_API_KEY: TEST_KEY,
        OPENAI_BASE_URL: `${(model.server as any).url}/v1`,
        GANTRY_MAX_RETRIES: '0',
      },
      settings: { managedFiles: [] },
    });
    const run = await collect(agent.query('list the sources'));
    expect(run.results[0]).toMatchObject({ subtype: 'success', result: 'found a.ts' });
    expect(String((run.of('user')[0]?.message.content as any[])[0].content)).toContain('a.ts');
  });
});

describe('the gantry/agent entry point', () => {
  it('exposes createAgent, query and the transcript functions', async () => {
    const entry = await import('gantry/agent');
    for (const name of [
      'createAgent',
      'query',
      'createInputQueue',
      'resumeSession',
      'loadSessionMessages',
      'readManagedToolLimits',
    ])
      expect(typeof (entry as Record<string, unknown>)[name]).toBe('function');
  });
});
