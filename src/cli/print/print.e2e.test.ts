/**
 * `gantry -p` as a real process against the scripted fake model servers: every output format, the
 * denial listing, piped stdin, tool selection, limits, start-up errors and bad model output, both
 * providers. Each test runs `bin/gantry.js` once (or twice) and reads what it printed, what it
 * exited with, and what it sent to the fake.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply, type ScriptEntry, text, toolUse } from '../../testing/fake-model-script.js';
import { startFakeOpenAIServer } from '../../testing/fake-openai-server.js';
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

async function withFake(script: ScriptEntry[]) {
  fake = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script });
  return fake;
}

const run = (args: string[], extra: { stdin?: string; env?: Record<string, string | undefined> } = {}) =>
  runGantry(args, {
    cwd: world.project,
    env: gantryEnv(world, fake, extra.env),
    ...(extra.stdin !== undefined ? { stdin: extra.stdin } : {}),
  });

/** Text of every text block of the last user message of a recorded request. */
function lastUserText(body: any): string {
  const m = body.messages[body.messages.length - 1];
  return typeof m.content === 'string' ? m.content : m.content.map((b: any) => b.text ?? '').join('\n');
}

describe('output formats', () => {
  it('text: the final result text and a newline; the session is written under ~/.gantry/projects', async () => {
    await withFake([reply.toolUse('Bash', { command: 'echo from-bash' }), reply.text('All done.')]);
    const r = await run(['-p', 'run echo']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('All done.\n');
    const second = fake?.messageRequests[1]?.body;
    expect(JSON.stringify(second.messages)).toContain('from-bash');
    const dir = path.join(world.gantryHome, 'projects', world.project.replace(/[^A-Za-z0-9]/g, '-'));
    expect(existsSync(dir)).toBe(true);
  });

  it('json: exactly the result object', async () => {
    await withFake([reply.text('Forty-two.')]);
    const r = await run(['-p', '--output-format', 'json', 'answer']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const result = JSON.parse(lines[0] as string);
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'Forty-two.',
      num_turns: 1,
      stop_reason: 'end_turn',
      permission_denials: [],
      terminal_reason: 'completed',
    });
    for (const key of [
      'session_id',
      'uuid',
      'duration_ms',
      'duration_api_ms',
      'total_cost_usd',
      'usage',
      'modelUsage',
    ])
      expect(result).toHaveProperty(key);
  });

  it('stream-json: system/init first, one assistant event per block, tool results, one result last', async () => {
    await withFake([
      reply.message([text('Looking.'), toolUse('Bash', { command: 'echo streamed' })]),
      reply.text('Seen it.'),
    ]);
    const r = await run(['-p', '--output-format=stream-json', '--verbose', 'look']);
    expect(r.code).toBe(0);
    const lines = r.lines();
    const init = lines[0];
    expect(init).toMatchObject({
      type: 'system',
      subtype: 'init',
      cwd: world.project,
      permissionMode: 'default',
      apiKeySource: 'ANTHROPIC_API_KEY',
      mcp_servers: [],
    });
    expect(init.tools).toContain('Bash');
    for (const key of [
      'session_id',
      'model',
      'claude_code_version',
      'output_style',
      'slash_commands',
      'uuid',
    ])
      expect(init).toHaveProperty(key);
    const assistant = lines.filter((l) => l.type === 'assistant');
    expect(assistant.map((a) => a.message.content[0].type)).toEqual(['text', 'tool_use', 'text']);
    expect(assistant[0].message.id).toBe(assistant[1].message.id);
    const toolResult = lines.find((l) => l.type === 'user');
    expect(toolResult.message.content[0]).toMatchObject({ type: 'tool_result', content: 'streamed' });
    expect(toolResult.tool_use_result).toMatchObject({ stdout: 'streamed' });
    expect(lines.filter((l) => l.type === 'result')).toHaveLength(1);
    expect(lines[lines.length - 1]).toMatchObject({ type: 'result', result: 'Seen it.' });
    expect(new Set(lines.map((l) => l.session_id))).toEqual(new Set([init.session_id]));
    expect(lines.some((l) => l.type === 'stream_event')).toBe(false);
  });

  it('stream-json with --include-partial-messages adds the raw streaming events', async () => {
    await withFake([reply.text('Partial.')]);
    const r = await run([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--include-partial-messages',
      'go',
    ]);
    expect(r.code).toBe(0);
    const kinds = r
      .lines()
      .filter((l) => l.type === 'stream_event')
      .map((l) => l.event.type);
    expect(kinds[0]).toBe('message_start');
    expect(kinds).toContain('content_block_delta');
    expect(kinds[kinds.length - 1]).toBe('message_stop');
  });
});

describe('permissions', () => {
  it('a call that would ask is denied, listed in permission_denials and reported as system/permission_denied', async () => {
    const target = path.join(world.project, 'new.txt');
    await withFake([
      reply.toolUse('Write', { file_path: target, content: 'x' }),
      reply.text('Could not write.'),
    ]);
    const r = await run(['-p', '--output-format', 'stream-json', '--verbose', 'write it']);
    expect(r.code).toBe(0);
    const lines = r.lines();
    const denied = lines.find((l) => l.type === 'system' && l.subtype === 'permission_denied');
    expect(denied).toMatchObject({ tool_name: 'Write' });
    const result = lines[lines.length - 1];
    expect(result.permission_denials).toEqual([
      {
        tool_name: 'Write',
        tool_use_id: denied.tool_use_id,
        tool_input: { file_path: target, content: 'x' },
      },
    ]);
    const toolResult = lines.find((l) => l.type === 'user');
    expect(toolResult.message.content[0].is_error).toBe(true);
    expect(existsSync(target)).toBe(false);
  });

  it('--allowedTools lets the call run; --disallowedTools with a bare name removes the tool from the request', async () => {
    const target = path.join(world.project, 'allowed.txt');
    await withFake([reply.toolUse('Write', { file_path: target, content: 'ok' }), reply.text('Wrote it.')]);
    const r = await run(['-p', '--allowedTools', 'Write', '--disallowedTools=Bash', 'write']);
    expect(r.code).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('ok');
    const names = fake?.messageRequests[0]?.body.tools.map((t: any) => t.name);
    expect(names).toContain('Write');
    expect(names).not.toContain('Bash');
  });

  it('while a settings file is broken, a call an allow rule covers is not run: nobody can be asked, the reason names file and line', async () => {
    const target = path.join(world.project, 'blocked.txt');
    const settingsFile = path.join(world.home, '.claude', 'settings.json');
    mkdirSync(path.dirname(settingsFile), { recursive: true });
    // A trailing comma on line 3: the file (and the deny rules it holds) cannot be read.
    writeFileSync(settingsFile, '{\n  "permissions": {"deny": ["Write(./blocked.txt)"]},\n}\n');
    await withFake([
      reply.toolUse('Write', { file_path: target, content: 'x' }),
      reply.text('Could not write.'),
    ]);
    const r = await run([
      '-p',
      '--allowedTools',
      'Write',
      '--output-format',
      'stream-json',
      '--verbose',
      'w',
    ]);
    expect(r.code).toBe(0);
    const lines = r.lines();
    expect(lines[lines.length - 1].permission_denials).toMatchObject([{ tool_name: 'Write' }]);
    const toolResult = lines.find((l) => l.type === 'user');
    expect(toolResult.message.content[0].is_error).toBe(true);
    const said = JSON.stringify(toolResult.message.content[0].content);
    expect(said).toContain(settingsFile);
    expect(said).toMatch(/line 3/);
    expect(existsSync(target)).toBe(false);
  });

  it('with the same file fixed, the allow rule runs the call', async () => {
    const target = path.join(world.project, 'fine.txt');
    const settingsFile = path.join(world.home, '.claude', 'settings.json');
    mkdirSync(path.dirname(settingsFile), { recursive: true });
    writeFileSync(settingsFile, '{\n  "permissions": {"deny": ["Write(./blocked.txt)"]}\n}\n');
    await withFake([reply.toolUse('Write', { file_path: target, content: 'ok' }), reply.text('Wrote it.')]);
    const r = await run(['-p', '--allowedTools', 'Write', 'w']);
    expect(r.code).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('ok');
  });

  it('--tools limits the built-in tools; inline --settings JSON deny rules apply', async () => {
    await withFake([reply.text('ok')]);
    const r = await run([
      '-p',
      '--tools',
      'Read,Bash,Grep',
      '--settings',
      '{"permissions":{"deny":["Grep"]}}',
      'x',
    ]);
    expect(r.code).toBe(0);
    expect(fake?.messageRequests[0]?.body.tools.map((t: any) => t.name)).toEqual(['Bash', 'Read']);
  });

  it('--tools TodoWrite alone switches TodoWrite on (the Task tools are the default)', async () => {
    await withFake([reply.text('ok')]);
    const r = await run(['-p', '--tools', 'TodoWrite', 'x']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/no built-in tool named/);
    expect(fake?.messageRequests[0]?.body.tools.map((t: any) => t.name)).toEqual(['TodoWrite']);
  });

  it('settings "features" switch a conditional tool on (here Sleep)', async () => {
    await withFake([reply.text('ok'), reply.text('ok')]);
    const on = await run(['-p', '--tools', 'Sleep,Read', '--settings', '{"features":{"SLEEP":true}}', 'x']);
    expect(on.code, on.stderr).toBe(0);
    const off = await run(['-p', '--tools', 'Sleep,Read', 'x']);
    expect(off.code, off.stderr).toBe(0);
    const names = (n: number) => JSON.stringify(fake?.messageRequests[n]?.body);
    expect(names(0)).toContain('Sleep');
    expect(names(1)).not.toContain('Sleep');
    expect(off.stderr).toMatch(/no built-in tool named Sleep/);
  });

  it('--tools "" sends no tools', async () => {
    await withFake([reply.text('none')]);
    const r = await run(['-p', '--tools', '', 'x']);
    expect(r.code).toBe(0);
    expect(fake?.messageRequests[0]?.body.tools ?? []).toEqual([]);
  });
});

describe('prompt input', () => {
  it('piped stdin comes after the prompt argument, separated by a blank line', async () => {
    await withFake([reply.text('Reviewed.')]);
    const r = await run(['-p', 'review this:'], { stdin: 'diff --git a/x b/x\n+added\n' });
    expect(r.code).toBe(0);
    expect(lastUserText(fake?.messageRequests[0]?.body)).toContain(
      'review this:\n\ndiff --git a/x b/x\n+added',
    );
  });

  it('stdin alone is the prompt', async () => {
    await withFake([reply.text('ok')]);
    const r = await run(['-p'], { stdin: 'only from stdin' });
    expect(r.code).toBe(0);
    expect(lastUserText(fake?.messageRequests[0]?.body)).toContain('only from stdin');
  });

  it('a custom system prompt replaces Gantry’s, the security section stays, the append goes last', async () => {
    await withFake([reply.text('ok')]);
    const r = await run([
      '-p',
      '--system-prompt',
      'You are a terse bot.',
      '--append-system-prompt',
      'APPENDED-LINE',
      'x',
    ]);
    expect(r.code).toBe(0);
    const system = (fake?.messageRequests[0]?.body.system as { text: string }[])
      .map((b) => b.text)
      .join('\n');
    expect(system).toContain('You are a terse bot.');
    expect(system).toMatch(/security/i);
    expect(system.indexOf('APPENDED-LINE')).toBeGreaterThan(system.indexOf('You are a terse bot.'));
  });

  it('no prompt at all is a usage error', async () => {
    const r = await run(['-p']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/no prompt/);
  });
});

describe('limits and errors', () => {
  it('--max-turns ends with error_max_turns and exit 1', async () => {
    await withFake([
      reply.toolUse('Bash', { command: 'echo 1' }),
      reply.toolUse('Bash', { command: 'echo 2' }),
    ]);
    const r = await run(['-p', '--output-format', 'json', '--max-turns', '1', 'loop']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      subtype: 'error_max_turns',
      is_error: true,
      errors: ['Reached maximum number of turns (1)'],
      terminal_reason: 'max_turns',
    });
  });

  it('an unknown provider is an error result in json and a stderr message in text, exit 1', async () => {
    const json = await run(['-p', '--output-format', 'json', '--provider', 'frobnicate', 'x']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      type: 'result',
      is_error: true,
      subtype: 'error_during_execution',
    });
    expect(JSON.parse(json.stdout).errors[0]).toMatch(/Unknown provider "frobnicate"/);
    const txt = await run(['-p', '--provider', 'frobnicate', 'x']);
    expect(txt.code).toBe(1);
    expect(txt.stdout).toBe('');
    expect(txt.stderr).toMatch(/Unknown provider "frobnicate"/);
  });

  it('a model the provider cannot serve (an Anthropic alias on the OpenAI provider) is a start-up error', async () => {
    const r = await run(['-p', '--output-format', 'json', '--provider', 'openai', '--model', 'sonnet', 'x'], {
      env: { OPENAI_API_KEY: 'sk-x' },
    });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).errors[0]).toMatch(/"sonnet" is an Anthropic model alias/);
  });

  it('a refused key (401) is an API error result, exit 1', async () => {
    await withFake([reply.text('never sent')]);
    const r = await run(['-p', '--output-format', 'json', 'x'], { env: { ANTHROPIC_API_KEY: 'wrong-key' } });
    expect(r.code).toBe(1);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ is_error: true, terminal_reason: 'api_error', api_error_status: 401 });
    expect(result.result).toMatch(/^API Error: 401/);
  });

  it('a malformed model stream is an error result, not a hang', async () => {
    await withFake([reply.malformed()]);
    const r = await run(['-p', '--output-format', 'json', 'x']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ type: 'result', is_error: true });
  });

  it('a call of an unknown tool and a call with invalid JSON input each get an error result the model sees', async () => {
    await withFake([
      reply.message([
        toolUse('Frobnicate', { x: 1 }),
        toolUse('Read', {}, { rawJson: '{"file_path": "/etc/hostname", ' }),
      ]),
      reply.text('Recovered.'),
    ]);
    const r = await run(['-p', '--output-format', 'stream-json', '--verbose', 'x']);
    expect(r.code).toBe(0);
    const results = r
      .lines()
      .filter((l) => l.type === 'user')
      .map((l) => l.message.content[0]);
    expect(results).toHaveLength(2);
    expect(results.every((b) => b.is_error === true)).toBe(true);
    expect(JSON.stringify(results[0].content)).toMatch(/Frobnicate/);
    expect(r.lines().at(-1)).toMatchObject({ type: 'result', result: 'Recovered.' });
  });

  it('a usage error goes to stderr with exit 1 and nothing on stdout', async () => {
    const r = await run(['-p', '--max-turns', 'many', 'x']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/--max-turns must be a positive whole number/);
  });

  it('flags Gantry does not act on are noted on stderr and do not stop the run', async () => {
    await withFake([reply.text('fine')]);
    const r = await run([
      '-p',
      '--effort',
      'high',
      '--frobnicate=1',
      '--mcp-config',
      '{"mcpServers":{"gh":{"command":"x"}}}',
      'x',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('fine\n');
    expect(r.stderr).toMatch(/--effort ignored/);
    expect(r.stderr).toMatch(/unknown option --frobnicate ignored/);
    // The MCP client starts the server; one that cannot start is reported and the run goes on.
    expect(r.stderr).toMatch(/MCP server "gh" failed: .*ENOENT/);
  });
});

describe('providers', () => {
  it('--provider openai runs the same session against an OpenAI-compatible endpoint', async () => {
    const openai = await startFakeOpenAIServer({
      apiKey: 'sk-openai-test',
      script: [reply.toolUse('Bash', { command: 'echo via-openai' }), reply.text('OpenAI done.')],
    });
    try {
      const r = await runGantry(
        ['-p', '--provider', 'openai', '--model', 'gpt-4.1', '--output-format', 'json', 'x'],
        {
          cwd: world.project,
          env: gantryEnv(world, undefined, {
            OPENAI_API_KEY: 'sk-openai-test',
            OPENAI_BASE_URL: `${openai.url}/v1`,
          }),
        },
      );
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ result: 'OpenAI done.', num_turns: 2, is_error: false });
      expect(JSON.stringify(openai.modelRequests[1]?.body)).toContain('via-openai');
    } finally {
      await openai.close();
    }
  });
});
