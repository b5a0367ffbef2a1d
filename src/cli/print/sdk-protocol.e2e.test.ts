/**
 * Control-protocol details of a real gantry process, played line by line by the test against the
 * fake Anthropic server (the Agent SDK drops keep-alive lines, so they are checked here):
 *
 * - keep-alive: `{"type":"keep_alive"}` lines while no prompt has come and after a result, and
 *   the process still exits at stdin's end (the timer holds nothing open);
 * - structured output in plain `gantry -p --output-format json --json-schema …` (the SDK path is
 *   in test/integration/agent-sdk-protocol.e2e.test.ts), a bad schema as a usage error, and the
 *   schema given in `initialize.jsonSchema` instead of the flag (good and bad).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply } from '../../testing/fake-model-script.js';
import {
  type GantryPeer,
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
  runGantry,
  STREAM_ARGS,
  spawnGantry,
} from '../../testing/print-fixtures.js';

let world: PrintWorld;
let fake: FakeAnthropicServer | undefined;
let peer: GantryPeer | undefined;

beforeEach(() => {
  world = makePrintWorld();
});
afterEach(async () => {
  if (peer && peer.child.exitCode === null) peer.child.kill('SIGKILL');
  await peer?.exited;
  peer = undefined;
  await fake?.close();
  fake = undefined;
  world.cleanup();
});

describe('keep-alive lines', () => {
  it('come while no prompt has arrived and again after the result; EOF still ends the process with 0', async () => {
    fake = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script: [reply.text('Awake.')] });
    peer = spawnGantry(STREAM_ARGS, {
      cwd: world.project,
      env: gantryEnv(world, fake, { GANTRY_KEEP_ALIVE_MS: '50' }),
    });
    const p = peer;
    await p.response(p.request('initialize'));
    // Two lines show it repeats while idle.
    const first = p.lines.length;
    await p.next((l) => l.type === 'keep_alive', first);
    const second = p.lines.length;
    await p.next((l) => l.type === 'keep_alive', second);
    expect(p.lines.some((l) => l.type === 'system')).toBe(false);

    p.user('hello');
    const result = await p.next((l) => l.type === 'result');
    expect(result).toMatchObject({ subtype: 'success', result: 'Awake.' });
    // Idle again after the result, with nothing queued.
    await p.next((l) => l.type === 'keep_alive', p.lines.indexOf(result) + 1);
    p.end();
    expect(await p.exited).toEqual({ code: 0, signal: null });
    expect(p.lines.filter((l) => l.type === 'keep_alive').every((l) => Object.keys(l).length === 1)).toBe(
      true,
    );
  });
});

describe('gantry -p --json-schema', () => {
  const schema = JSON.stringify({
    type: 'object',
    properties: { verdict: { type: 'string', enum: ['pass', 'fail'] } },
    required: ['verdict'],
  });

  it('json output: the result carries structured_output', async () => {
    fake = await startFakeAnthropicServer({
      apiKey: PRINT_TEST_KEY,
      script: [reply.toolUse('StructuredOutput', { verdict: 'pass' }), reply.text('All good.')],
    });
    const r = await runGantry(['-p', '--output-format', 'json', '--json-schema', schema, 'judge it'], {
      cwd: world.project,
      env: gantryEnv(world, fake),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'All good.',
      structured_output: { verdict: 'pass' },
    });
  });

  it('a value that is not JSON is a usage error on stderr, before any model request', async () => {
    fake = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script: [] });
    const r = await runGantry(['-p', '--json-schema', '{"type":', 'judge it'], {
      cwd: world.project,
      env: gantryEnv(world, fake),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/--json-schema: not valid JSON/);
    expect(fake.messageRequests).toHaveLength(0);
  });

  it("initialize.jsonSchema (no flag) turns structured output on for the host's session", async () => {
    fake = await startFakeAnthropicServer({
      apiKey: PRINT_TEST_KEY,
      script: [reply.toolUse('StructuredOutput', { verdict: 'fail' }), reply.text('Reported.')],
    });
    peer = spawnGantry(STREAM_ARGS, { cwd: world.project, env: gantryEnv(world, fake) });
    const p = peer;
    const init = await p.response(p.request('initialize', { jsonSchema: JSON.parse(schema) }));
    expect(init.response.subtype).toBe('success');
    p.user('judge it');
    const result = await p.next((l) => l.type === 'result');
    expect(result).toMatchObject({ subtype: 'success', structured_output: { verdict: 'fail' } });
    p.end();
    expect((await p.exited).code).toBe(0);
  });

  it('a bad initialize.jsonSchema gets an error answer naming the problem', async () => {
    fake = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script: [] });
    peer = spawnGantry(STREAM_ARGS, { cwd: world.project, env: gantryEnv(world, fake) });
    const p = peer;
    const init = await p.response(p.request('initialize', { jsonSchema: { type: 'string' } }));
    expect(init.response).toMatchObject({ subtype: 'error' });
    expect(init.response.error).toMatch(/jsonSchema: the schema must describe an object/);
    p.end();
    expect((await p.exited).code).toBe(0);
  });
});
