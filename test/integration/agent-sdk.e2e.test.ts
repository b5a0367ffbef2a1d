/**
 * The unmodified Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`, a dev dependency whose
 * optional native CLI packages are replaced by an empty stub; docs/cli-print.md) drives gantry:
 * `pathToClaudeCodeExecutable` is bin/gantry.js, which the SDK spawns with node. The model is the
 * scripted fake Anthropic server. Covered: init, assistant and user messages, canUseTool with an
 * updated input, a PreToolUse callback hook, the initialize result, multi-turn streaming input,
 * setPermissionMode / setModel / mcpServerStatus, interrupt(), the result, `mcpServers` (a real
 * stdio server from npm, deferred behind ToolSearch), and an in-process server made with
 * `createSdkMcpServer` (its messages travel as `mcp_message` control requests), and
 * `setMcpServers` adding, rejecting and removing servers mid-session.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  createSdkMcpServer,
  type PermissionResult,
  query,
  type SDKMessage,
  type SDKUserMessage,
  tool,
} from '@anthropic-ai/claude-agent-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type FakeAnthropicServer,
  startFakeAnthropicServer,
} from '../../src/testing/fake-anthropic-server.js';
import { reply, type ScriptEntry } from '../../src/testing/fake-model-script.js';
import { referenceServerCommand } from '../../src/testing/mcp-test-server.js';
import {
  GANTRY_BIN,
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
} from '../../src/testing/print-fixtures.js';

let world: PrintWorld;
let fake: FakeAnthropicServer;

beforeEach(() => {
  world = makePrintWorld();
});
afterEach(async () => {
  await fake?.close();
  world.cleanup();
});

async function withFake(script: ScriptEntry[]) {
  fake = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script });
}

function baseOptions(stderr: string[]) {
  return {
    pathToClaudeCodeExecutable: GANTRY_BIN,
    cwd: world.project,
    env: gantryEnv(world, fake),
    stderr: (chunk: string) => void stderr.push(chunk),
  };
}

/** An async iterable prompt the test feeds (the SDK's streaming input mode). */
function feed() {
  const items: SDKUserMessage[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  return {
    push(text: string) {
      items.push({
        type: 'user',
        message: { role: 'user', content: text },
        parent_tool_use_id: null,
        session_id: '',
      });
      wake?.();
    },
    end() {
      done = true;
      wake?.();
    },
    async *[Symbol.asyncIterator](): AsyncGenerator<SDKUserMessage> {
      for (;;) {
        const item = items.shift();
        if (item) {
          yield item;
          continue;
        }
        if (done) return;
        await new Promise<void>((r) => (wake = r));
        wake = undefined;
      }
    },
  };
}

describe('the Claude Agent SDK drives gantry', () => {
  it('runs a session end to end: init, canUseTool with updatedInput, a PreToolUse callback, messages, result', async () => {
    const target = path.join(world.project, 'sdk.txt');
    await withFake([
      reply.toolUse('Bash', { command: 'echo from-sdk-session' }),
      reply.toolUse('Write', { file_path: target, content: 'from the model' }),
      reply.text('Session done.'),
    ]);
    const hookCalls: { event: string; tool: string; toolUseId: string | undefined }[] = [];
    const asks: { tool: string; input: Record<string, unknown>; toolUseID: string }[] = [];
    const stderr: string[] = [];
    const q = query({
      prompt: 'do the work',
      options: {
        ...baseOptions(stderr),
        canUseTool: async (tool, input, { toolUseID }): Promise<PermissionResult> => {
          asks.push({ tool, input, toolUseID });
          return { behavior: 'allow', updatedInput: { ...input, content: 'from the host' } };
        },
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                async (input, toolUseId) => {
                  hookCalls.push({
                    event: input.hook_event_name,
                    tool: (input as { tool_name: string }).tool_name,
                    toolUseId,
                  });
                  return {};
                },
              ],
            },
          ],
        },
      },
    });
    const messages: SDKMessage[] = [];
    for await (const m of q) messages.push(m);

    const init = messages[0] as SDKMessage & { subtype?: string; session_id: string; tools: string[] };
    expect(init).toMatchObject({ type: 'system', subtype: 'init', cwd: world.project });
    expect(init.tools).toEqual(expect.arrayContaining(['Bash', 'Write', 'Read']));
    const types = messages.map((m) => m.type);
    expect(types.filter((t) => t === 'assistant')).toHaveLength(3);
    expect(types.filter((t) => t === 'user')).toHaveLength(2);
    const result = messages.at(-1) as SDKMessage & { subtype: string; result: string; session_id: string };
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'Session done.',
    });
    expect(result.session_id).toBe(init.session_id);

    expect(hookCalls).toEqual([{ event: 'PreToolUse', tool: 'Bash', toolUseId: expect.any(String) }]);
    expect(asks).toEqual([
      {
        tool: 'Write',
        input: { file_path: target, content: 'from the model' },
        toolUseID: expect.any(String),
      },
    ]);
    expect(readFileSync(target, 'utf8')).toBe('from the host');
    const initialize = await q.initializationResult();
    expect(initialize.output_style).toBe('default');
    expect(initialize.models.length).toBeGreaterThan(0);
  });

  it('streaming input: two turns, setPermissionMode, setModel, mcpServerStatus, then a clean exit', async () => {
    await withFake([reply.text('Turn one.'), reply.text('Turn two.')]);
    const input = feed();
    const stderr: string[] = [];
    const q = query({ prompt: input, options: baseOptions(stderr) });
    await q.setPermissionMode('acceptEdits');
    await q.setModel('claude-haiku-4-5');
    expect(await q.mcpServerStatus()).toEqual([]);
    input.push('first');
    const results: (SDKMessage & { result?: string })[] = [];
    const inits: (SDKMessage & { permissionMode?: string; model?: string })[] = [];
    for await (const m of q) {
      if (m.type === 'system' && m.subtype === 'init') inits.push(m);
      if (m.type === 'result') {
        results.push(m);
        if (results.length === 1) input.push('second');
        else input.end();
      }
    }
    expect(results.map((r) => r.result)).toEqual(['Turn one.', 'Turn two.']);
    expect(inits[0]).toMatchObject({ permissionMode: 'acceptEdits', model: 'claude-haiku-4-5' });
    expect(fake.messageRequests.map((r) => r.body.model)).toEqual(['claude-haiku-4-5', 'claude-haiku-4-5']);
  });

  it('interrupt() ends the running turn with an error result, and the SDK reports it', async () => {
    await withFake([reply.stall()]);
    const input = feed();
    const stderr: string[] = [];
    const q = query({ prompt: input, options: baseOptions(stderr) });
    input.push('a reply that never ends');
    const seen: SDKMessage[] = [];
    let thrown: Error | undefined;
    try {
      for await (const m of q) {
        seen.push(m);
        if (m.type === 'system' && m.subtype === 'init') await q.interrupt();
        if (m.type === 'result') input.end();
      }
    } catch (e) {
      thrown = e as Error;
    }
    const result = seen.find((m) => m.type === 'result') as SDKMessage & {
      subtype: string;
      is_error: boolean;
    };
    expect(result).toMatchObject({ subtype: 'error_during_execution', is_error: true });
    // Claude Code exits 1 after an error result at EOF; the SDK turns that into an error naming it.
    expect(thrown?.message).toMatch(/error result/);
  });
});

describe('the Claude Agent SDK with mcpServers', () => {
  it('a stdio server from options.mcpServers: connected in init and mcpServerStatus, loaded via ToolSearch, called', async () => {
    await withFake([
      reply.toolUse('ToolSearch', { query: 'select:mcp__memory__create_entities' }),
      reply.toolUse('mcp__memory__create_entities', {
        entities: [{ name: 'Gantry', entityType: 'project', observations: ['speaks MCP'] }],
      }),
      reply.text('Stored.'),
    ]);
    const memory = referenceServerCommand('memory');
    const input = feed();
    const stderr: string[] = [];
    const q = query({
      prompt: input,
      options: {
        ...baseOptions(stderr),
        mcpServers: {
          memory: {
            type: 'stdio',
            command: memory.command,
            args: memory.args,
            env: { MEMORY_FILE_PATH: path.join(world.project, 'memory.jsonl') },
          },
        },
        allowedTools: ['mcp__memory__create_entities'],
      },
    });
    const status = await q.mcpServerStatus();
    expect(status.map((s) => [s.name, s.status])).toEqual([['memory', 'connected']]);
    input.push('remember the project');
    const messages: SDKMessage[] = [];
    for await (const m of q) {
      messages.push(m);
      if (m.type === 'result') input.end();
    }
    const init = messages.find((m) => m.type === 'system' && m.subtype === 'init') as SDKMessage & {
      mcp_servers: { name: string; status: string }[];
      tools: string[];
    };
    expect(init.mcp_servers).toEqual([expect.objectContaining({ name: 'memory', status: 'connected' })]);
    expect(init.tools).toContain('mcp__memory__create_entities');
    expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'Stored.' });
    const requests = fake.messageRequests.map((r) => r.body);
    expect(requests[0].tools.some((t: { name: string }) => t.name.startsWith('mcp__'))).toBe(false);
    expect(readFileSync(path.join(world.project, 'memory.jsonl'), 'utf8')).toContain('speaks MCP');
  });

  it('an in-process server from createSdkMcpServer: connected (source sdk), its tool called over mcp_message', async () => {
    await withFake([
      reply.toolUse('ToolSearch', { query: 'select:mcp__calc__add' }),
      reply.toolUse('mcp__calc__add', { a: 2, b: 40 }),
      reply.text('The sum is 42.'),
    ]);
    const calls: { a: number; b: number }[] = [];
    const calc = createSdkMcpServer({
      name: 'calc',
      version: '1.0.0',
      tools: [
        tool('add', 'Adds two numbers.', { a: z.number(), b: z.number() }, async (args) => {
          calls.push(args);
          return { content: [{ type: 'text', text: String(args.a + args.b) }] };
        }),
      ],
    });
    const input = feed();
    const stderr: string[] = [];
    const q = query({
      prompt: input,
      options: { ...baseOptions(stderr), mcpServers: { calc }, allowedTools: ['mcp__calc__add'] },
    });
    input.push('add 2 and 40');
    const messages: SDKMessage[] = [];
    for await (const m of q) {
      messages.push(m);
      if (m.type === 'result') input.end();
    }
    const init = messages.find((m) => m.type === 'system' && m.subtype === 'init') as SDKMessage & {
      mcp_servers: { name: string; status: string; source?: string }[];
      tools: string[];
    };
    expect(init.mcp_servers, stderr.join('')).toEqual([
      expect.objectContaining({ name: 'calc', status: 'connected', source: 'sdk' }),
    ]);
    expect(init.tools).toContain('mcp__calc__add');
    expect(calls).toEqual([{ a: 2, b: 40 }]);
    const third = fake.messageRequests[2]?.body;
    expect(JSON.stringify(third.messages.at(-1))).toContain('42');
    expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'The sum is 42.' });
  });

  it('setMcpServers adds a stdio server, reports a bad entry, and a later call removes it', async () => {
    await withFake([reply.text('ok')]);
    const memory = referenceServerCommand('memory');
    const input = feed();
    const q = query({ prompt: input, options: baseOptions([]) });
    const added = await q.setMcpServers({
      memory: {
        type: 'stdio',
        command: memory.command,
        args: memory.args,
        env: { MEMORY_FILE_PATH: path.join(world.project, 'memory.jsonl') },
      },
      broken: { type: 'http' } as never,
    });
    expect(added.added).toEqual(['memory']);
    expect(Object.keys(added.errors)).toEqual(['broken']);
    expect((await q.mcpServerStatus()).map((s) => [s.name, s.status])).toEqual([['memory', 'connected']]);
    const removed = await q.setMcpServers({});
    expect(removed).toEqual({ added: [], removed: ['memory'], errors: {} });
    expect(await q.mcpServerStatus()).toEqual([]);
    input.push('hi');
    for await (const m of q) if (m.type === 'result') input.end();
  });
});
