/**
 * Limits and loop breakers: max turns, the cost budget, the repeated-call breaker (in bypass mode
 * too), the session's tool-call budget; and tools starting while the model still streams
 * (parallel calls, early start).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { allowAllDecider } from '../../runtime/index.js';
import { reply, text, toolUse } from '../../testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeEngine,
  makeLoopWorld,
  runQuery,
  startFakeModel,
} from '../../testing/loop-fixtures.js';
import { canonicalJson, LoopBreakers } from '../breakers.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

describe('limits', () => {
  it("maxTurns: the request after the limit is not made; error_max_turns with Claude Code's error text", async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [
      reply.toolUse('Bash', { command: 'echo 1' }),
      reply.toolUse('Bash', { command: 'echo 2' }),
      reply.text('never'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, { prompt: 'go', decide: allowAllDecider, maxTurns: 2 }),
    );
    expect(model.requests()).toHaveLength(2);
    expect(run.results[0]).toMatchObject({
      subtype: 'error_max_turns',
      is_error: true,
      num_turns: 2,
      errors: ['Reached maximum number of turns (2)'],
      terminal_reason: 'max_turns',
    });
    expect(run.results[0]?.result).toBeUndefined();
  });

  it('maxBudgetUsd: once the cost reaches the budget no further request is made', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [
      reply.toolUse('Bash', { command: 'echo 1' }),
      reply.toolUse('Bash', { command: 'echo 2' }),
      reply.text('never'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, { prompt: 'go', decide: allowAllDecider, maxBudgetUsd: 0.000001 }),
    );
    expect(model.requests()).toHaveLength(1);
    expect(run.results[0]).toMatchObject({
      subtype: 'error_max_budget_usd',
      is_error: true,
      terminal_reason: 'max_budget_usd',
    });
    expect(run.results[0]!.total_cost_usd).toBeGreaterThanOrEqual(0.000001);
    // The call of the response that crossed the budget still got its result.
    expect(run.of('user')).toHaveLength(1);
  });

  it('the same call three times in a row is refused, in bypassPermissions too; a different call goes through', async () => {
    world = makeLoopWorld();
    const log = path.join(world.project, 'log.txt');
    const same = { command: `echo x >> ${log}`, description: 'append' };
    model = await startFakeModel('anthropic', [
      reply.toolUse('Bash', same),
      reply.toolUse('Bash', { description: 'append', command: `echo x >> ${log}` }),
      reply.toolUse('Bash', same),
      reply.toolUse('Bash', same),
      reply.toolUse('Bash', { command: 'echo different' }),
      reply.text('ok, changing course'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        permissionMode: 'bypassPermissions',
        permissionEngine: makeEngine(world),
      }),
    );
    expect(readFileSync(log, 'utf8')).toBe('x\nx\n');
    const results = run.of('user').map((e) => (e.message.content as any[])[0]);
    expect(results.map((r) => r.is_error === true)).toEqual([false, false, true, true, false]);
    expect(results[2].content).toMatch(/same Bash call with the same input 3 times in a row/);
    expect(results[3].content).toMatch(/4 times in a row/);
    expect(run.results[0]).toMatchObject({ subtype: 'success', result: 'ok, changing course' });
    expect(run.of('user')[2]?.tool_result_meta?.[0]?.non_execution_kind).toBe('refused');
  });

  it('the tool-call budget refuses calls past it and ends the turn', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [
      reply.message([
        toolUse('Bash', { command: 'echo 1' }),
        toolUse('Bash', { command: 'echo 2' }),
        toolUse('Bash', { command: 'echo 3' }),
      ]),
      reply.text('never'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, { prompt: 'go', decide: allowAllDecider, maxToolCalls: 2 }),
    );
    const results = run.of('user').map((e) => (e.message.content as any[])[0]);
    expect(results.map((r) => r.is_error === true)).toEqual([false, false, true]);
    expect(results[2].content).toMatch(/budget of 2 tool calls/);
    expect(run.results[0]).toMatchObject({
      subtype: 'error_during_execution',
      terminal_reason: 'tool_call_budget',
    });
    expect(model.requests()).toHaveLength(1);
  });

  it.each([
    [{ a: 1, b: [1, { d: 2, c: 3 }] }, { b: [1, { c: 3, d: 2 }], a: 1 }, true, 'key order ignored'],
    [{ a: 1 }, { a: '1' }, false, 'types differ'],
  ])('canonicalJson(%j) vs (%j): same %s (%s)', (x, y, same, _why) => {
    expect(canonicalJson(x) === canonicalJson(y)).toBe(same);
  });

  it('rejects nonsense limits', () => {
    expect(() => new LoopBreakers(1)).toThrow(RangeError);
    expect(() => new LoopBreakers(3, 0)).toThrow(RangeError);
  });
});

describe('tools start while the model streams', () => {
  it('a tool_use runs as soon as its block is complete, before the message ends', async () => {
    world = makeLoopWorld();
    const marker = path.join(world.project, 'early');
    model = await startFakeModel('anthropic', [
      reply.message([toolUse('Bash', { command: `touch ${marker}` }), text('this text never finishes')], {
        chunkChars: 1000,
        stallAfterEvents: 7,
      }),
    ]);
    let sawMarkerDuringStall = false;
    const run = await runQuery(
      await loopOptions(world, model, { prompt: 'go', decide: allowAllDecider }),
      (e, q) => {
        if (e.type === 'assistant' && e.message.content[0].type === 'tool_use') {
          void (async () => {
            for (let i = 0; i < 1000 && !existsSync(marker); i++) await sleep(5);
            sawMarkerDuringStall = existsSync(marker);
            await q.interrupt();
          })();
        }
      },
    );
    expect(sawMarkerDuringStall).toBe(true);
    expect(run.results[0]?.terminal_reason).toBe('aborted_streaming');
    // The call still has exactly one result.
    expect(run.of('user').filter((e) => Array.isArray(e.message.content))).toHaveLength(1);
  });

  it('parallel read-only calls all run and are answered in one user message, in call order', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [
      reply.message([
        toolUse('Bash', { command: 'sleep 0.3; echo slow' }),
        toolUse('Bash', { command: 'echo fast' }),
        toolUse('Glob', { pattern: '*' }),
      ]),
      reply.text('done'),
    ]);
    const run = await runQuery(await loopOptions(world, model, { prompt: 'go', decide: allowAllDecider }));
    const sent = model.requests()[1]!.body.messages[2].content;
    expect(sent.map((b: any) => b.type)).toEqual(['tool_result', 'tool_result', 'tool_result']);
    expect(sent[0].content).toContain('slow');
    expect(sent[1].content).toContain('fast');
    expect(run.results[0]?.subtype).toBe('success');
  });
});
