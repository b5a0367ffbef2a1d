/**
 * One call's pipeline, end to end through createToolRuntime (docs/runtime.md):
 * unknown tool, schema errors, validateInput, deciders, the host's canUseTool, execution errors,
 * progress delivery, result mapping.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  buildTool,
  FatalError,
  type PermissionDecider,
  type PermissionRequest,
  type ToolProgressEvent,
  ToolExecutionError,
} from '../core/index.js';
import { makeTempDir, makeTool, toolUse } from '../testing/runtime-fixtures.js';
import { createToolRuntime, type ToolRuntimeOptions } from './create-tool-runtime.js';
import { allowAllDecider, askAllDecider } from './deciders.js';
import type { CanUseTool, ToolRuntimeUpdate } from './types.js';

let temp: { dir: string; cleanup(): Promise<void> };
beforeEach(async () => {
  temp = await makeTempDir();
});
afterEach(async () => {
  await temp.cleanup();
});

function runtime(options: Partial<ToolRuntimeOptions> & Pick<ToolRuntimeOptions, 'tools'>) {
  return createToolRuntime({
    cwd: temp.dir,
    sessionDir: `${temp.dir}/session`,
    decide: allowAllDecider,
    ...options,
  });
}

const Echo = makeTool({ name: 'Echo' });

describe('lookup and input validation', () => {
  it('answers an unknown tool with an is_error result naming it, and runs nothing', async () => {
    const r = runtime({ tools: [Echo] });
    const { results } = await r.runToolsToCompletion([toolUse('t1', 'Nope', {})]);
    expect(results).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 't1',
        content: '<tool_use_error>No such tool available: Nope</tool_use_error>',
        is_error: true,
      },
    ]);
  });

  it('resolves a legacy alias to the tool', async () => {
    const Tool = buildTool({
      name: 'TaskOutput',
      aliases: ['BashOutput'],
      description: 'x',
      inputSchema: z.strictObject({}),
      async *call() {
        return { data: 'output' };
      },
    });
    const { results } = await runtime({ tools: [Tool] }).runToolsToCompletion([toolUse('t1', 'BashOutput')]);
    expect(results[0]).toEqual({ type: 'tool_result', tool_use_id: 't1', content: 'output' });
  });

  it.each([
    [{}, '`text`', 'The required parameter `text` is missing (expected string)', 'a missing required field'],
    [{ text: 3 }, '`text`', 'must be a string, but a number was given', 'a wrong type'],
    [{ text: 'a', repeat: 0 }, '`repeat`', 'Too small', 'a bound from the schema'],
    [{ text: 'a', repeat: 1.5 }, '`repeat`', 'must be an integer', 'an integer field given a fraction'],
    [
      { text: 'a', colour: 'red' },
      '`colour`',
      'Unexpected parameter',
      'a key the strict schema does not know',
    ],
    ['just a string', 'JSON object', 'but a string was given', 'input that is not an object'],
  ])('schema failure %j names %s (%s; %s)', async (input, field, phrase, _reason) => {
    let ran = false;
    const Tool = makeTool({
      name: 'Echo',
      run: () => {
        ran = true;
        return { data: 'x' };
      },
    });
    const { results } = await runtime({ tools: [Tool] }).runToolsToCompletion([toolUse('t1', 'Echo', input)]);
    const block = results[0];
    expect(block?.is_error).toBe(true);
    expect(block?.content).toContain('InputValidationError');
    expect(block?.content).toContain(field);
    expect(block?.content).toContain(phrase);
    expect(ran).toBe(false);
  });

  it('turns a validateInput rejection into an is_error result with the tool message, before any permission check', async () => {
    const decided: string[] = [];
    const Tool = buildTool({
      name: 'Edit',
      description: 'x',
      inputSchema: z.strictObject({ old_string: z.string() }),
      validateInput: async (input: { old_string: string }) =>
        input.old_string === ''
          ? {
              ok: false as const,
              message: 'old_string must not be empty. Pass the text to replace.',
              field: 'old_string',
            }
          : { ok: true as const },
      async *call() {
        return { data: 'edited' };
      },
    });
    const decide: PermissionDecider = async (request) => {
      decided.push(request.toolName);
      return allowAllDecider(request);
    };
    const { results } = await runtime({ tools: [Tool], decide }).runToolsToCompletion([
      toolUse('t1', 'Edit', { old_string: '' }),
      toolUse('t2', 'Edit', { old_string: 'a' }),
    ]);
    expect(results[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 't1',
      content: '<tool_use_error>old_string must not be empty. Pass the text to replace.</tool_use_error>',
      is_error: true,
    });
    expect(results[1]).toEqual({ type: 'tool_result', tool_use_id: 't2', content: 'edited' });
    expect(decided).toEqual(['Edit']);
  });
});

describe('permissions', () => {
  it('hands the decider the tool verdict, call description and session facts', async () => {
    const requests: PermissionRequest[] = [];
    const Tool = buildTool({
      name: 'Read',
      description: 'x',
      inputSchema: z.strictObject({ file_path: z.string() }),
      isReadOnly: () => true,
      toAutoClassifierInput: (input: { file_path: string }) => input.file_path,
      checkPermissions: async () => ({ behavior: 'allow' as const, reason: 'reads are fine' }),
      describeCall: async (input: { file_path: string }) => ({
        ruleContents: [input.file_path],
        effects: [],
        findings: [],
        readOnly: true,
        summary: `read ${input.file_path}`,
      }),
      async *call() {
        return { data: 'content' };
      },
    });
    const decide: PermissionDecider = async (request) => {
      requests.push(request);
      return allowAllDecider(request);
    };
    const r = runtime({ tools: [Tool], decide, permissionMode: 'plan', sessionId: 'S1' });
    const { calls } = await r.runToolsToCompletion([toolUse('t1', 'Read', { file_path: '/x' })]);
    expect(requests).toEqual([
      {
        toolName: 'Read',
        input: { file_path: '/x' },
        description: { ruleContents: ['/x'], effects: [], findings: [], readOnly: true, summary: 'read /x' },
        toolResult: { behavior: 'allow', reason: 'reads are fine' },
        isReadOnly: true,
        isMcp: false,
        cwd: temp.dir,
        projectRoot: temp.dir,
        additionalDirectories: [],
        mode: 'plan',
        sessionId: 'S1',
        toolUseId: 't1',
        classifierInput: '/x',
      },
    ]);
    expect(calls[0]?.decision).toEqual({ behavior: 'allow', source: 'default' });
  });

  it('a deny decision becomes an is_error result carrying the reason; the call does not run', async () => {
    let ran = false;
    const Tool = makeTool({
      name: 'Echo',
      run: () => {
        ran = true;
        return { data: 'x' };
      },
    });
    const decide: PermissionDecider = async () => ({
      behavior: 'deny',
      reason: { type: 'rule', message: 'Denied by rule Echo in settings.json.' },
    });
    const r = runtime({ tools: [Tool], decide });
    const { results, calls } = await r.runToolsToCompletion([toolUse('t1', 'Echo', { text: 'a' })]);
    expect(results[0]?.is_error).toBe(true);
    expect(results[0]?.content).toContain('Denied by rule Echo in settings.json.');
    expect(ran).toBe(false);
    expect(calls[0]?.decision).toEqual({ behavior: 'deny', source: 'rule' });
  });

  it('a decider that throws denies (fail closed)', async () => {
    const decide: PermissionDecider = async () => {
      throw new Error('engine exploded');
    };
    const { results } = await runtime({ tools: [Echo], decide }).runToolsToCompletion([
      toolUse('t1', 'Echo', { text: 'a' }),
    ]);
    expect(results[0]?.is_error).toBe(true);
    expect(results[0]?.content).toContain('engine exploded');
    expect(results[0]?.content).toContain('denied');
  });

  it('allow-all and ask-all still honour a tool that denies itself', async () => {
    const Tool = buildTool({
      name: 'Guarded',
      description: 'x',
      inputSchema: z.strictObject({}),
      checkPermissions: async () => ({ behavior: 'deny' as const, reason: 'Guarded never runs here.' }),
      async *call() {
        return { data: 'ran' };
      },
    });
    for (const decide of [allowAllDecider, askAllDecider]) {
      const canUseTool: CanUseTool = async () => ({ behavior: 'allow' });
      const { results } = await runtime({ tools: [Tool], decide, canUseTool }).runToolsToCompletion([
        toolUse('t1', 'Guarded'),
      ]);
      expect(results[0]?.is_error).toBe(true);
      expect(results[0]?.content).toContain('Guarded never runs here.');
    }
  });

  it('ask with no host denies with a message saying nobody could approve it', async () => {
    let ran = false;
    const Tool = makeTool({
      name: 'Echo',
      run: () => {
        ran = true;
        return { data: 'x' };
      },
    });
    const r = runtime({ tools: [Tool], decide: askAllDecider });
    const { results, calls } = await r.runToolsToCompletion([toolUse('t1', 'Echo', { text: 'a' })]);
    expect(results[0]?.is_error).toBe(true);
    expect(results[0]?.content).toContain('no one to ask');
    expect(ran).toBe(false);
    expect(calls[0]?.decision).toEqual({ behavior: 'deny', source: 'no-host' });
  });

  it('the default decider is ask-all: without a host nothing runs', async () => {
    const r = createToolRuntime({ tools: [Echo], cwd: temp.dir, sessionDir: temp.dir });
    const { results } = await r.runToolsToCompletion([toolUse('t1', 'Echo', { text: 'a' })]);
    expect(results[0]?.is_error).toBe(true);
  });

  it('ask → host allows with updatedInput: the call runs with the new input (parsed again)', async () => {
    const asked: unknown[] = [];
    const canUseTool: CanUseTool = async (tool, input, decision) => {
      asked.push([tool.name, input, decision.behavior]);
      return { behavior: 'allow', updatedInput: { text: 'changed' } };
    };
    const r = runtime({ tools: [Echo], decide: askAllDecider, canUseTool });
    const { results, calls } = await r.runToolsToCompletion([toolUse('t1', 'Echo', { text: 'original' })]);
    expect(results[0]).toEqual({ type: 'tool_result', tool_use_id: 't1', content: 'changed' });
    expect(asked).toEqual([['Echo', { text: 'original' }, 'ask']]);
    expect(calls[0]?.decision).toEqual({ behavior: 'allow', source: 'host' });
  });

  it('an updatedInput that breaks the schema is rejected, not run', async () => {
    const canUseTool: CanUseTool = async () => ({ behavior: 'allow', updatedInput: { text: 42 } });
    const { results } = await runtime({
      tools: [Echo],
      decide: askAllDecider,
      canUseTool,
    }).runToolsToCompletion([toolUse('t1', 'Echo', { text: 'a' })]);
    expect(results[0]?.is_error).toBe(true);
    expect(results[0]?.content).toContain('`text`');
  });

  it('ask → host denies: is_error result with the host message; a throwing host also denies', async () => {
    const deny: CanUseTool = async () => ({ behavior: 'deny', message: 'not in my repo' });
    const broken: CanUseTool = async () => {
      throw new Error('prompt crashed');
    };
    for (const [canUseTool, phrase] of [
      [deny, 'not in my repo'],
      [broken, 'prompt crashed'],
    ] as const) {
      const r = runtime({ tools: [Echo], decide: askAllDecider, canUseTool });
      const { results, calls } = await r.runToolsToCompletion([toolUse('t1', 'Echo', { text: 'a' })]);
      expect(results[0]?.is_error).toBe(true);
      expect(results[0]?.content).toContain('Permission for this Echo call was refused');
      expect(results[0]?.content).toContain(phrase);
      expect(calls[0]?.decision).toEqual({ behavior: 'deny', source: 'host' });
    }
  });
});

describe('execution', () => {
  it.each([
    [
      new ToolExecutionError('disk full. Free space and retry.'),
      'disk full. Free space and retry.',
      'typed errors keep their message',
    ],
    [new Error('kaboom'), 'Error: Boom failed unexpectedly: kaboom', 'unexpected errors are named as such'],
    ['a string', 'Error: Boom failed unexpectedly: a string', 'non-Error throws still produce text'],
  ])('a thrown %s becomes an is_error result (%s; %s)', async (thrown, text, _reason) => {
    const Tool = makeTool({
      name: 'Boom',
      run: () => {
        throw thrown;
      },
    });
    const { results } = await runtime({ tools: [Tool] }).runToolsToCompletion([
      toolUse('t1', 'Boom', { text: 'a' }),
    ]);
    expect(results).toEqual([{ type: 'tool_result', tool_use_id: 't1', content: text, is_error: true }]);
  });

  it('middle-truncates an error text past 10,000 characters', async () => {
    const Tool = makeTool({
      name: 'Boom',
      run: () => {
        throw new ToolExecutionError(`${'a'.repeat(8000)}${'b'.repeat(8000)}`);
      },
    });
    const { results } = await runtime({ tools: [Tool] }).runToolsToCompletion([
      toolUse('t1', 'Boom', { text: 'a' }),
    ]);
    const text = results[0]?.content as string;
    expect(text.length).toBeLessThanOrEqual(10_000);
    expect(text).toMatch(/^a+… \[\d+ characters truncated\] …b+$/);
  });

  it('a FatalError ends the turn instead of becoming a result', async () => {
    const Tool = makeTool({
      name: 'Fatal',
      run: () => {
        throw new FatalError('session state corrupted');
      },
    });
    await expect(
      runtime({ tools: [Tool] }).runToolsToCompletion([toolUse('t1', 'Fatal', { text: 'a' })]),
    ).rejects.toThrow('session state corrupted');
  });

  it('a call that returns no { data } is an error, not an empty success', async () => {
    const Tool = buildTool({
      name: 'Empty',
      description: 'x',
      inputSchema: z.strictObject({}),
      // biome-ignore lint/correctness/useYield: the point is a generator that yields nothing and returns nothing.
      async *call(): AsyncGenerator<never, never, void> {
        return undefined as never;
      },
    });
    const { results } = await runtime({ tools: [Tool] }).runToolsToCompletion([toolUse('t1', 'Empty')]);
    expect(results[0]?.is_error).toBe(true);
    expect(results[0]?.content).toContain('finished without a result');
  });

  it('maps output through mapToolResultToContent', async () => {
    const Tool = buildTool({
      name: 'Count',
      description: 'x',
      inputSchema: z.strictObject({}),
      async *call() {
        return { data: { n: 3 } };
      },
      mapToolResultToContent: (output: { n: number }) => [{ type: 'text' as const, text: `n=${output.n}` }],
    });
    const { results } = await runtime({ tools: [Tool] }).runToolsToCompletion([toolUse('t1', 'Count')]);
    expect(results[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 't1',
      content: [{ type: 'text', text: 'n=3' }],
    });
  });

  it('delivers progress live to context.onProgress and the update stream, with newMessages on the result', async () => {
    const sink: ToolProgressEvent[] = [];
    const Tool = makeTool({
      name: 'Slow',
      progress: [{ step: 1 }, { step: 2 }],
      run: () => ({ data: 'done', newMessages: [{ role: 'user', content: 'attachment' }] }),
    });
    const r = runtime({ tools: [Tool], onProgress: (event) => sink.push(event) });
    const updates: ToolRuntimeUpdate[] = [];
    const generator = r.runTools([toolUse('t1', 'Slow', { text: 'a' })]);
    let step = await generator.next();
    while (!step.done) {
      updates.push(step.value);
      step = await generator.next();
    }
    expect(sink).toEqual([
      { toolUseId: 't1', toolName: 'Slow', data: { step: 1 } },
      { toolUseId: 't1', toolName: 'Slow', data: { step: 2 } },
    ]);
    expect(updates.map((u) => u.type)).toEqual(['progress', 'progress', 'tool-call-end', 'result']);
    expect(updates[0]).toEqual({ type: 'progress', event: sink[0] });
    expect(updates[3]).toEqual({
      type: 'result',
      toolName: 'Slow',
      block: { type: 'tool_result', tool_use_id: 't1', content: 'done' },
      newMessages: [{ role: 'user', content: 'attachment' }],
      call: {
        toolUseId: 't1',
        toolName: 'Slow',
        status: 'ok',
        isError: false,
        data: 'done',
        input: { text: 'a' },
        decision: { behavior: 'allow', source: 'default' },
        durationMs: expect.any(Number),
        newMessages: [{ role: 'user', content: 'attachment' }],
      },
    });
    expect(step.value.newMessages).toEqual([{ role: 'user', content: 'attachment' }]);
  });

  it('runToolsToCompletion still delivers progress to the host sink', async () => {
    const sink: ToolProgressEvent[] = [];
    const Tool = makeTool({ name: 'Slow', progress: ['half', 'all'] });
    const r = runtime({ tools: [Tool], onProgress: (event) => sink.push(event) });
    await r.runToolsToCompletion([toolUse('t1', 'Slow', { text: 'a' })]);
    expect(sink.map((e) => e.data)).toEqual(['half', 'all']);
  });

  it('hands each call a context carrying its tool_use id and the turn messages', async () => {
    const seen: unknown[] = [];
    const Tool = makeTool({
      name: 'Peek',
      run: (_input, context) => {
        seen.push([context.toolUseId, context.messages.length, context.getAppState().cwd]);
        return { data: 'x' };
      },
    });
    await runtime({ tools: [Tool] }).runToolsToCompletion(
      [toolUse('a', 'Peek', { text: '1' }), toolUse('b', 'Peek', { text: '2' })],
      {
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: [] },
        ],
      },
    );
    expect(seen).toEqual([
      ['a', 2, temp.dir],
      ['b', 2, temp.dir],
    ]);
  });
});
