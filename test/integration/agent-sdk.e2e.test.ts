/**
 * The unmodified Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`, a dev dependency whose
 * optional native CLI packages are replaced by an empty stub; docs/cli-print.md) drives gantry:
 * `pathToClaudeCodeExecutable` is bin/gantry.js, which the SDK spawns with node. The model is the
 * scripted fake Anthropic server. Covered: init, assistant and user messages, canUseTool with an
 * updated input, a PreToolUse callback hook, the initialize result, multi-turn streaming input,
 * setPermissionMode / setModel / mcpServerStatus, interrupt(), and the result.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type PermissionResult,
  query,
  type SDKMessage,
  type SDKUserMessage,
} from '@anthropic-ai/claude-agent-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeAnthropicServer,
  startFakeAnthropicServer,
} from '../../src/testing/fake-anthropic-server.js';
import { reply, type ScriptEntry } from '../../src/testing/fake-model-script.js';
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
