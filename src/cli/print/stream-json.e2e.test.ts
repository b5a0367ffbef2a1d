/**
 * `--input-format stream-json` with the control protocol, driven by a scripted host over real
 * pipes: the test plays the Agent SDK's side line by line against a real gantry process and the
 * fake Anthropic server.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply, type ScriptEntry } from '../../testing/fake-model-script.js';
import {
  type GantryPeer,
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
  STREAM_ARGS,
  spawnGantry,
} from '../../testing/print-fixtures.js';

let world: PrintWorld;
let fake: FakeAnthropicServer;
let peer: GantryPeer | undefined;

beforeEach(() => {
  world = makePrintWorld();
});
afterEach(async () => {
  if (peer && peer.child.exitCode === null) peer.child.kill('SIGKILL');
  await peer?.exited;
  peer = undefined;
  await fake?.close();
  world.cleanup();
});

async function start(script: ScriptEntry[], extraArgs: string[] = []): Promise<GantryPeer> {
  fake = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script });
  peer = spawnGantry([...STREAM_ARGS, ...extraArgs], { cwd: world.project, env: gantryEnv(world, fake) });
  return peer;
}

const isResult = (l: any) => l.type === 'result';

describe('handshake and turns', () => {
  it('answers initialize, starts at the first user message, runs one turn per message, exits 0 at EOF', async () => {
    const p = await start([reply.text('First answer.'), reply.text('Second answer.')]);
    const init = p.request('initialize', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hookCallbackIds: ['hook_0'] }] },
      systemPrompt: [''],
    });
    const response = await p.response(init);
    expect(response.response).toMatchObject({
      subtype: 'success',
      request_id: init,
      response: {
        commands: [],
        agents: [],
        output_style: 'default',
        available_output_styles: ['default'],
        hooks_applied: true,
        hook_on_failure_supported: true,
        current_permission_mode: 'default',
      },
    });
    expect(response.response.response.models[0].value).toBeTruthy();
    expect(response.response.response.account).toMatchObject({ apiKeySource: 'ANTHROPIC_API_KEY' });
    expect(p.lines.some((l) => l.type === 'system')).toBe(false);

    p.user('one');
    const first = await p.next(isResult);
    expect(first).toMatchObject({ result: 'First answer.', result_index: 0, is_error: false });
    p.user('two');
    const second = await p.next((l) => isResult(l) && l.result_index === 1);
    expect(second.result).toBe('Second answer.');
    expect(p.lines.filter((l) => l.type === 'system' && l.subtype === 'init')).toHaveLength(2);
    p.end();
    expect(await p.exited).toEqual({ code: 0, signal: null });
    // One session: the second request carries the first turn.
    expect(JSON.stringify(fake.messageRequests[1]?.body.messages)).toContain('First answer.');
  });

  it('with no user message at all, EOF ends the process with 0 and no output but the handshake', async () => {
    const p = await start([]);
    const init = p.request('initialize');
    await p.response(init);
    p.end();
    expect((await p.exited).code).toBe(0);
    // (A keep_alive line may come first on a slow start: the protocol allows them while idle.)
    expect(p.lines.map((l) => l.type).filter((t) => t !== 'keep_alive')).toEqual(['control_response']);
  });

  it('skips lines that are not JSON or not messages, with a note, and goes on', async () => {
    const p = await start([reply.text('Still here.')]);
    p.child.stdin.write('this is not json\n');
    p.send({ no: 'type' });
    p.send({ type: 'user', message: { role: 'assistant', content: 'wrong role' } });
    p.user('real prompt');
    expect((await p.next(isResult)).result).toBe('Still here.');
    p.end();
    await p.exited;
    expect(p.stderr).toMatch(/not JSON/);
    expect(p.stderr).toMatch(/not an object with a "type"/);
    expect(p.stderr).toMatch(/message.role must be "user"/);
  });

  it('--replay-user-messages echoes each user message back', async () => {
    const p = await start([reply.text('ok')], ['--replay-user-messages']);
    p.user('echo me', { uuid: 'u-1' });
    const echoed = await p.next((l) => l.type === 'user' && l.isReplay === true);
    expect(echoed).toMatchObject({ uuid: 'u-1', message: { content: 'echo me' } });
    await p.next(isResult);
    p.end();
    await p.exited;
  });

  it('a message sent while a turn runs is delivered inside the same turn', async () => {
    // The permission ask holds the tool call, so the message surely arrives mid-turn.
    const target = path.join(world.project, 'mid.txt');
    const p = await start(
      [reply.toolUse('Write', { file_path: target, content: 'x' }), reply.text('Handled both.')],
      ['--permission-prompt-tool=stdio'],
    );
    p.user('start');
    const ask = await p.controlRequest('can_use_tool');
    p.user('ALSO-THIS');
    p.answer(ask.request_id, { behavior: 'allow' });
    const result = await p.next(isResult);
    expect(result.result).toBe('Handled both.');
    expect(p.lines.filter(isResult)).toHaveLength(1);
    expect(JSON.stringify(fake.messageRequests[1]?.body.messages.at(-1))).toContain('ALSO-THIS');
    p.end();
    await p.exited;
  });
});

describe('can_use_tool (--permission-prompt-tool stdio)', () => {
  it('asks the host before a gated call; allow with updatedInput runs the changed input', async () => {
    const target = path.join(world.project, 'asked.txt');
    const p = await start(
      [reply.toolUse('Write', { file_path: target, content: 'model text' }), reply.text('Written.')],
      ['--permission-prompt-tool=stdio'],
    );
    p.user('write');
    const ask = await p.controlRequest('can_use_tool');
    expect(ask.request).toMatchObject({
      tool_name: 'Write',
      input: { file_path: target, content: 'model text' },
    });
    expect(typeof ask.request.tool_use_id).toBe('string');
    expect(Array.isArray(ask.request.permission_suggestions)).toBe(true);
    expect(typeof ask.request.decision_reason).toBe('string');
    p.answer(ask.request_id, {
      behavior: 'allow',
      updatedInput: { file_path: target, content: 'host text' },
      toolUseID: ask.request.tool_use_id,
    });
    const result = await p.next(isResult);
    expect(result).toMatchObject({ is_error: false, permission_denials: [] });
    expect(readFileSync(target, 'utf8')).toBe('host text');
    p.end();
    expect((await p.exited).code).toBe(0);
  });

  it('a deny answer and an error answer both deny, with the reason the model sees', async () => {
    const a = path.join(world.project, 'a.txt');
    const b = path.join(world.project, 'b.txt');
    const p = await start(
      [
        reply.toolUse('Write', { file_path: a, content: '1' }),
        reply.toolUse('Write', { file_path: b, content: '2' }),
        reply.text('Both refused.'),
      ],
      ['--permission-prompt-tool=stdio'],
    );
    p.user('write twice');
    const first = await p.controlRequest('can_use_tool');
    p.answer(first.request_id, { behavior: 'deny', message: 'not in this folder' });
    const second = await p.next(
      (l) =>
        l.type === 'control_request' &&
        l.request?.subtype === 'can_use_tool' &&
        l.request_id !== first.request_id,
    );
    p.answerError(second.request_id, 'host callback crashed');
    const result = await p.next(isResult);
    expect(result.permission_denials.map((d: any) => d.tool_input.file_path)).toEqual([a, b]);
    const texts = p.lines
      .filter((l) => l.type === 'user')
      .map((l) => JSON.stringify(l.message.content[0].content));
    expect(texts[0]).toContain('not in this folder');
    expect(texts[1]).toContain('host callback crashed');
    expect(existsSync(a) || existsSync(b)).toBe(false);
    p.end();
    await p.exited;
  });

  it('asks still open when the host input ends are denied, and the process exits', async () => {
    const target = path.join(world.project, 'late.txt');
    const p = await start(
      [reply.toolUse('Write', { file_path: target, content: 'x' }), reply.text('Gave up.')],
      ['--permission-prompt-tool=stdio'],
    );
    p.user('write');
    await p.controlRequest('can_use_tool');
    p.end();
    const exit = await p.exited;
    expect(exit.code).toBe(0);
    expect(p.lines.filter(isResult)[0].permission_denials).toHaveLength(1);
    expect(existsSync(target)).toBe(false);
  });
});

describe('hook_callback', () => {
  it('sends one callback per registered id when the event fires, and applies the answer', async () => {
    const p = await start([
      reply.toolUse('Bash', { command: 'echo should-not-run' }),
      reply.text('Blocked.'),
    ]);
    const init = p.request('initialize', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hookCallbackIds: ['hook_0', 'hook_1'] }] },
    });
    await p.response(init);
    p.user('run');
    const cb0 = await p.next((l) => l.type === 'control_request' && l.request?.callback_id === 'hook_0');
    expect(cb0.request).toMatchObject({
      subtype: 'hook_callback',
      input: {
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'echo should-not-run' },
      },
    });
    expect(cb0.request.input.session_id).toBeTruthy();
    p.answer(cb0.request_id, {});
    const cb1 = await p.next((l) => l.type === 'control_request' && l.request?.callback_id === 'hook_1');
    p.answer(cb1.request_id, {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'hosts say no bash',
      },
    });
    const result = await p.next(isResult);
    expect(result.permission_denials).toHaveLength(1);
    const toolResult = p.lines.find((l) => l.type === 'user' && l.message.content[0]?.type === 'tool_result');
    expect(JSON.stringify(toolResult.message.content[0].content)).toContain('hosts say no bash');
    expect(JSON.stringify(toolResult.tool_use_result ?? '')).not.toContain('should-not-run\\n');
    p.end();
    await p.exited;
  });

  it('a callback answering continue: false ends the session, and the process exits without waiting for EOF', async () => {
    const p = await start([reply.text('never asked')]);
    const init = p.request('initialize', { hooks: { UserPromptSubmit: [{ hookCallbackIds: ['hook_0'] }] } });
    await p.response(init);
    p.user('run');
    const cb = await p.next((l) => l.type === 'control_request' && l.request?.subtype === 'hook_callback');
    expect(cb.request.input).toMatchObject({ hook_event_name: 'UserPromptSubmit', prompt: 'run' });
    p.answer(cb.request_id, { continue: false, stopReason: 'the host stops here' });
    const result = await p.next(isResult);
    expect(result).toMatchObject({ is_error: true, terminal_reason: 'hook_stopped' });
    // stdin stays open: the process ends because the session did.
    expect((await p.exited).code).toBe(1);
    expect(fake.messageRequests).toHaveLength(0);
  });

  it('a failed callback with onFailure "block" blocks the call', async () => {
    const p = await start([reply.toolUse('Bash', { command: 'echo hi' }), reply.text('ok')]);
    const init = p.request('initialize', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hookCallbackIds: ['hook_0'], onFailure: 'block' }] },
    });
    await p.response(init);
    p.user('run');
    const cb = await p.next((l) => l.type === 'control_request' && l.request?.subtype === 'hook_callback');
    p.answerError(cb.request_id, 'callback threw');
    const result = await p.next(isResult);
    expect(result.permission_denials).toHaveLength(1);
    p.end();
    await p.exited;
  });
});

describe('host requests during a session', () => {
  it('interrupt ends the running turn with an error result; the exit code follows the last result', async () => {
    const p = await start([reply.stall()]);
    p.user('long one');
    await p.next((l) => l.type === 'system' && l.subtype === 'init');
    const id = p.request('interrupt');
    expect((await p.response(id)).response).toMatchObject({
      subtype: 'success',
      response: { still_queued: [] },
    });
    const result = await p.next(isResult);
    expect(result).toMatchObject({ subtype: 'error_during_execution', is_error: true });
    expect(['aborted_streaming', 'aborted_tools']).toContain(result.terminal_reason);
    p.end();
    expect((await p.exited).code).toBe(1);
  });

  it('set_permission_mode, set_model, mcp_status answer; unknown and unsupported requests get clear errors', async () => {
    const p = await start([reply.text('ok')]);
    const mode = p.request('set_permission_mode', { mode: 'acceptEdits' });
    expect((await p.response(mode)).response.response).toEqual({ mode: 'acceptEdits' });
    const bypass = p.request('set_permission_mode', { mode: 'bypassPermissions' });
    expect((await p.response(bypass)).response).toMatchObject({ subtype: 'error' });
    const bad = p.request('set_permission_mode', { mode: 'yolo' });
    expect((await p.response(bad)).response.error).toMatch(/unknown permission mode "yolo"/);
    const model = p.request('set_model', { model: 'claude-haiku-4-5' });
    expect((await p.response(model)).response).toMatchObject({ subtype: 'success', response: {} });
    const status = p.request('mcp_status');
    expect((await p.response(status)).response.response).toEqual({ mcpServers: [] });
    const ctx = p.request('get_context_usage');
    expect((await p.response(ctx)).response).toMatchObject({ subtype: 'error' });
    const odd = p.request('frobnicate');
    expect((await p.response(odd)).response.error).toBe('Unsupported control request subtype: frobnicate');
    p.user('go');
    const init = await p.next((l) => l.type === 'system' && l.subtype === 'init');
    expect(init).toMatchObject({ permissionMode: 'acceptEdits', model: 'claude-haiku-4-5' });
    await p.next(isResult);
    expect(fake.messageRequests[0]?.body.model).toBe('claude-haiku-4-5');
    p.end();
    expect((await p.exited).code).toBe(0);
  });
});
