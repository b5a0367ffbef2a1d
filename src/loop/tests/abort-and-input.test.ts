/**
 * Interrupts, aborts and input while a turn runs: abort mid-stream and mid-tool (every tool_use
 * still answered, in the conversation and the transcript), interrupt keeps the session for the next
 * prompt, prompts that arrive mid-turn ride in the next tool-result message, prompts after the
 * turn get their own result.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../core/messages.js';
import { allowAllDecider } from '../../runtime/index.js';
import { reply, text, toolUse } from '../../testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeLoopWorld,
  runQuery,
  startFakeModel,
} from '../../testing/loop-fixtures.js';
import { createInputQueue } from '../input-queue.js';
import { INTERRUPTED_TEXT } from '../prompt-turn.js';
import { loadSessionMessages } from '../transcript/reader.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !check(); i++) await sleep(5);
  if (!check()) throw new Error('condition never became true');
}

function everyToolUseAnswered(messages: Message[]): boolean {
  const uses = messages.flatMap((m) =>
    m.role === 'assistant' ? m.content.filter((b) => b.type === 'tool_use') : [],
  );
  const results = messages.flatMap((m) =>
    m.role === 'user' && Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_result') : [],
  );
  const ids = results.map((r: any) => r.tool_use_id);
  return uses.every((u: any) => ids.filter((id) => id === u.id).length === 1) && ids.length === uses.length;
}

describe('abort and interrupt', () => {
  it('interrupt mid-stream: the complete blocks are kept, the turn ends aborted_streaming', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [
      reply.message([text('first block done'), text('second block never ends')], {
        chunkChars: 1000,
        stallAfterEvents: 7,
      }),
    ]);
    const run = await runQuery(await loopOptions(world, model, { prompt: 'go' }), async (e, q) => {
      if (e.type === 'assistant') await q.interrupt();
    });
    expect(run.results[0]).toMatchObject({
      subtype: 'error_during_execution',
      is_error: true,
      terminal_reason: 'aborted_streaming',
    });
    const messages = loadSessionMessages(run.result.transcriptPath as string);
    expect(messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'first block done' }] });
    expect(JSON.stringify(messages[2])).toContain(INTERRUPTED_TEXT);
  });

  it('interrupt mid-tool: the running command is stopped, its tool_use answered, the turn ends aborted_tools', async () => {
    world = makeLoopWorld();
    const started = path.join(world.project, 'started');
    const finished = path.join(world.project, 'finished');
    model = await startFakeModel('anthropic', [
      reply.message([
        toolUse('Bash', { command: `touch ${started}; sleep 30; touch ${finished}` }, { id: 'toolu_slow' }),
        toolUse('Bash', { command: 'echo queued' }, { id: 'toolu_queued' }),
      ]),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, { prompt: 'go', decide: allowAllDecider }),
      async (e, q) => {
        if (
          e.type === 'assistant' &&
          e.message.content[0].type === 'tool_use' &&
          e.message.content[0].id === 'toolu_queued'
        ) {
          await waitFor(() => existsSync(started));
          await q.interrupt();
        }
      },
    );
    expect(run.results[0]).toMatchObject({ terminal_reason: 'aborted_tools', is_error: true });
    const results = run.of('user').filter((e) => Array.isArray(e.message.content));
    expect(results.map((e) => (e.message.content as any[])[0].tool_use_id)).toEqual([
      'toolu_slow',
      'toolu_queued',
    ]);
    expect(String((results[0]!.message.content as any[])[0].content)).toMatch(/Interrupted/);
    expect(existsSync(finished)).toBe(false);
    const messages = loadSessionMessages(run.result.transcriptPath as string);
    expect(everyToolUseAnswered(messages)).toBe(true);
    expect(messages).toEqual(run.result.messages);
  });

  it('after an interrupt the session goes on with the next prompt', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [reply.stall({ afterEvents: 0 }), reply.text('second answer')]);
    const input = createInputQueue();
    input.push('first');
    let interrupted = false;
    const run = await runQuery(await loopOptions(world, model, { prompt: input }), async (e, q) => {
      if (e.type === 'system' && e.subtype === 'init' && !interrupted) {
        interrupted = true;
        // The request goes out once this handler returns; interrupt when the fake has it.
        void waitFor(() => model!.requests().length === 1).then(() => q.interrupt());
      }
      if (e.type === 'result' && e.result_index === 0) {
        input.push('second');
        input.close();
      }
    });
    expect(run.results.map((r) => [r.subtype, r.result_index])).toEqual([
      ['error_during_execution', 0],
      ['success', 1],
    ]);
    expect(run.results[1]?.result).toBe('second answer');
    expect(run.of('system', 'init')).toHaveLength(2);
  });

  it('abortSignal ends the whole session: the turn closes with a result and the generator returns', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [reply.toolUse('Bash', { command: 'sleep 30' })]);
    const controller = new AbortController();
    const input = createInputQueue();
    input.push('go');
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: input,
        decide: allowAllDecider,
        abortSignal: controller.signal,
      }),
      (e) => {
        if (e.type === 'assistant') controller.abort();
      },
    );
    expect(run.results).toHaveLength(1);
    expect(run.results[0]?.terminal_reason).toBe('aborted_tools');
    expect(everyToolUseAnswered(run.result.messages)).toBe(true);
  });
});

describe('input while a turn runs', () => {
  it('a prompt pushed mid-turn rides in the next tool-result message; one pushed after the turn gets its own result', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [
      reply.toolUse('Bash', { command: 'echo one' }),
      reply.text('saw it'),
      reply.text('answer to the later prompt'),
    ]);
    const input = createInputQueue();
    input.push('start');
    const run = await runQuery(
      await loopOptions(world, model, { prompt: input, decide: allowAllDecider }),
      (e, q) => {
        if (e.type === 'assistant' && e.message.content[0].type === 'tool_use')
          q.pushInput('also check the README');
        if (e.type === 'result' && e.result_index === 0) {
          q.pushInput('and one more thing');
          q.endInput();
        }
      },
    );
    expect(run.results).toHaveLength(2);
    const second = model.requests()[1]!.body.messages;
    const lastUser = second[second.length - 1];
    expect(lastUser.content.map((b: any) => b.type)).toEqual(['tool_result', 'text']);
    expect(lastUser.content[1].text).toContain('also check the README');
    const third = model.requests()[2]!.body.messages;
    expect(third[third.length - 1].content).toEqual([
      { type: 'text', text: 'and one more thing', cache_control: { type: 'ephemeral' } },
    ]);
    expect(run.result.messages).toEqual(loadSessionMessages(run.result.transcriptPath as string));
  });

  it('pushInput after the input ended throws', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [reply.text('ok')]);
    const run = await runQuery(await loopOptions(world, model, { prompt: 'one prompt' }), (e, q) => {
      if (e.type === 'result') expect(() => q.pushInput('too late')).toThrow(/input has ended/);
    });
    expect(run.results).toHaveLength(1);
  });
});

describe('a consumer that stops reading', () => {
  it('leaving the loop mid-tool aborts the turn and still answers every tool_use in the transcript', async () => {
    world = makeLoopWorld();
    const finished = path.join(world.project, 'finished');
    model = await startFakeModel('anthropic', [
      reply.toolUse('Bash', { command: `sleep 20; touch ${finished}` }, { id: 'toolu_left' }),
    ]);
    const { query } = await import('../query.js');
    const q = query(await loopOptions(world, model, { prompt: 'go', decide: allowAllDecider }));
    for await (const e of q) if (e.type === 'assistant') break;
    const r = await q.next();
    expect(r.done).toBe(true);
    const transcript = path.join(world.gantryHome, 'projects');
    const { readdirSync } = await import('node:fs');
    const dir = path.join(transcript, readdirSync(transcript)[0] as string);
    const file = path.join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl')) as string);
    // A real result line was written (not the reader's repair of a missing one).
    const resultLines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((l) => l.type === 'user' && 'toolUseResult' in l);
    expect(resultLines.map((l) => l.message.content[0].tool_use_id)).toEqual(['toolu_left']);
    expect(everyToolUseAnswered(loadSessionMessages(file))).toBe(true);
    expect(existsSync(finished)).toBe(false);
  });
});

describe('a long session', () => {
  it('thirty prompts in one session: one result each, no listener build-up warning', async () => {
    world = makeLoopWorld();
    model = await startFakeModel(
      'anthropic',
      Array.from({ length: 30 }, (_, i) => reply.text(`answer ${i}`)),
    );
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const input = createInputQueue();
      input.push('prompt 0');
      let n = 1;
      const run = await runQuery(await loopOptions(world, model, { prompt: input }), (e) => {
        if (e.type !== 'result') return;
        if (n < 30) input.push(`prompt ${n++}`);
        else input.close();
      });
      expect(run.results.map((r) => r.result)).toEqual(Array.from({ length: 30 }, (_, i) => `answer ${i}`));
      expect(run.results.map((r) => r.result_index)).toEqual(Array.from({ length: 30 }, (_, i) => i));
      await sleep(10);
      expect(warnings.filter((w) => w === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
