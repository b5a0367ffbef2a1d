/**
 * Bad input and failures: a tool that errors, an unknown tool, invalid JSON input, a refused key,
 * a malformed stream, an overloaded API, a dropped connection after a tool started, an oversized
 * prompt. Each ends in a clear result or an is_error tool result — never a hang — and the
 * transcript keeps everything that happened.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { allowAllDecider } from '../../runtime/index.js';
import { reply, text, toolUse } from '../../testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeLoopWorld,
  type Provider,
  runQuery,
  startFakeModel,
} from '../../testing/loop-fixtures.js';
import { loadSessionMessages, readTranscriptLines } from '../transcript/reader.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

const toolResultsOf = (body: any) =>
  body.messages.flatMap((m: any) =>
    Array.isArray(m.content) ? m.content.filter((b: any) => b.type === 'tool_result') : [],
  );

describe.each<Provider>(['anthropic', 'openai'])(
  'tool failures become is_error results and the loop goes on (%s)',
  (provider) => {
    it('a tool error, an unknown tool and invalid JSON input each get one clear is_error result', async () => {
      world = makeLoopWorld();
      model = await startFakeModel(provider, [
        reply.message([
          toolUse('Read', { file_path: path.join(world.project, 'missing.txt') }),
          toolUse('Teleport', { to: 'mars' }),
          toolUse('Bash', {}, { rawJson: '{"command": "ls"' }),
        ]),
        reply.text('I could not do it.'),
      ]);
      const run = await runQuery(await loopOptions(world, model, { prompt: 'go', decide: allowAllDecider }));
      expect(run.results[0]).toMatchObject({
        subtype: 'success',
        is_error: false,
        result: 'I could not do it.',
      });
      const results = toolResultsOf(model.requests()[1]!.body);
      if (provider === 'anthropic') {
        expect(results).toHaveLength(3);
        expect(results.every((r: any) => r.is_error === true)).toBe(true);
        expect(results[0].content).toMatch(/does not exist|no such file|not found/i);
        expect(results[1].content).toContain('<tool_use_error>No such tool available: Teleport');
        expect(results[2].content).toMatch(/<tool_use_error>/);
        // The unparsable input goes back as {} (the API would reject a string input).
        expect(model.requests()[1]!.body.messages[1].content[2].input).toEqual({});
      } else {
        const tools = model.requests()[1]!.body.messages.filter((m: any) => m.role === 'tool');
        expect(tools).toHaveLength(3);
        expect(tools[1].content).toContain('No such tool available: Teleport');
      }
      const events = run.of('user');
      expect(events).toHaveLength(3);
      expect(typeof events[1]!.tool_use_result).toBe('string');
    });
  },
);

describe('model errors end the turn with a result', () => {
  it('529 then success: an api_retry event, then the normal result', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [reply.overloaded(), reply.text('fine now')]);
    const run = await runQuery(await loopOptions(world, model, { prompt: 'hi' }));
    const [retry] = run.of('system', 'api_retry');
    expect(retry).toMatchObject({ attempt: 1, error_status: 529, error: 'overloaded' });
    expect(run.results[0]).toMatchObject({
      subtype: 'success',
      is_error: false,
      result: 'fine now',
      num_turns: 1,
    });
  });

  it.each([
    ['401', () => reply.unauthorized(), 401, /API Error: 401/],
    ['malformed stream', () => reply.malformed(), undefined, /API Error:/],
  ])('%s → an is_error result, the prompt kept in the transcript', async (_name, make, status, pattern) => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [make()]);
    const run = await runQuery(await loopOptions(world, model, { prompt: 'hello there' }));
    expect(run.results).toHaveLength(1);
    expect(run.results[0]).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: true,
      terminal_reason: 'api_error',
      ...(status !== undefined ? { api_error_status: status } : {}),
    });
    expect(run.results[0]!.result).toMatch(pattern);
    const messages = loadSessionMessages(run.result.transcriptPath as string);
    expect(JSON.stringify(messages)).toContain('hello there');
  });

  it('a connection dropped after a tool started: the tool still gets its result, in the conversation and the file', async () => {
    world = makeLoopWorld();
    const marker = path.join(world.project, 'ran.txt');
    model = await startFakeModel('anthropic', [
      reply.message(
        [
          toolUse('Bash', { command: `echo ran > ${marker}` }, { id: 'toolu_drop' }),
          text('more text that never arrives'),
        ],
        {
          dropAfterEvents: 7,
          chunkChars: 1000,
        },
      ),
    ]);
    const run = await runQuery(await loopOptions(world, model, { prompt: 'go', decide: allowAllDecider }));
    expect(run.results[0]).toMatchObject({ is_error: true, terminal_reason: 'api_error' });
    const messages = loadSessionMessages(run.result.transcriptPath as string);
    const uses = messages.flatMap((m) =>
      m.role === 'assistant' ? m.content.filter((b) => b.type === 'tool_use') : [],
    );
    const results = messages.flatMap((m) =>
      m.role === 'user' && Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_result') : [],
    );
    expect(uses.map((b: any) => b.id)).toEqual(['toolu_drop']);
    expect(results.map((b: any) => b.tool_use_id)).toEqual(['toolu_drop']);
    expect(run.result.messages).toEqual(messages);
  });

  it('a prompt too large for the context window is refused with a clear error and not added', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', []);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'x'.repeat(400_000),
        autoCompact: { contextWindowTokens: 50_000 },
        maxTokens: 4_000,
      }),
    );
    expect(run.results[0]).toMatchObject({
      subtype: 'error_during_execution',
      is_error: true,
      terminal_reason: 'prompt_too_long',
    });
    expect(run.results[0]!.errors?.[0]).toMatch(/prompt is too large/);
    expect(model.requests()).toHaveLength(0);
    expect(run.result.messages).toEqual([]);
    const { lines } = readTranscriptLines(run.result.transcriptPath as string);
    expect(lines.some((l) => l.type === 'user')).toBe(false);
  });

  it('an unknown tool in a file-backed world still leaves the next prompt usable (transcript valid)', async () => {
    world = makeLoopWorld();
    writeFileSync(path.join(world.project, 'f.txt'), 'x');
    model = await startFakeModel('anthropic', [reply.toolUse('Nope', {}), reply.text('ok')]);
    const run = await runQuery(await loopOptions(world, model, { prompt: 'go' }));
    expect(run.results[0]?.is_error).toBe(false);
    const msgs = loadSessionMessages(run.result.transcriptPath as string);
    expect(msgs.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });
});
