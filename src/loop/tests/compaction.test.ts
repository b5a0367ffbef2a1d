/**
 * Context management: auto-compaction when the conversation nears the (test-sized) context window,
 * the summary request reusing the cached prefix, the kept tail and open todos, the boundary in the
 * events and the transcript, the reactive path after a prompt-too-long error, and a PreCompact
 * hook keeping the conversation as it is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AnyTool } from '../../core/tool.js';
import { allowAllDecider } from '../../runtime/index.js';
import { lastUserText, reply, toolUse } from '../../testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeLoopWorld,
  realTools,
  runQuery,
  startFakeModel,
} from '../../testing/loop-fixtures.js';
import { createInputQueue } from '../input-queue.js';
import { chooseCut, openTodos, SUMMARY_LEAD } from '../context/compact.js';
import { TokenEstimator } from '../context/token-estimator.js';
import { loadSessionMessages, readTranscriptLines } from '../transcript/reader.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

const isSummaryRequest = (r: { body: any }) => lastUserText(r.body).includes('replaced by a summary');
const summaryRoute = (text: string) => ({
  name: 'summary',
  when: isSummaryRequest,
  script: () => reply.text(text),
});

async function bashOnly(): Promise<AnyTool[]> {
  return (await realTools()).filter((t) => t.name === 'Bash');
}

describe('auto-compaction', () => {
  it('summarises the old part, keeps the recent tail and open todos, and the session goes on', async () => {
    world = makeLoopWorld();
    const big = (n: number) => `printf '%.0s${'y'.repeat(60)}\\n' $(seq 1 ${n})`;
    model = await startFakeModel(
      'anthropic',
      [
        reply.message([
          toolUse('TodoWrite', {
            todos: [
              { content: 'fix the parser', status: 'in_progress' },
              { content: 'old item', status: 'completed' },
            ],
          }),
          toolUse('Bash', { command: big(130) }),
        ]),
        reply.toolUse('Bash', { command: big(131) }),
        reply.toolUse('Bash', { command: big(132) }),
        reply.toolUse('Bash', { command: big(133) }),
        reply.text('finished after compaction'),
      ],
      { routes: [summaryRoute('SUMMARY: the user wants the parser fixed; three outputs were inspected.')] },
    );
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'inspect the outputs',
        tools: await bashOnly(),
        decide: allowAllDecider,
        maxTokens: 1_000,
        autoCompact: { contextWindowTokens: 10_000, thresholdRatio: 0.8 },
      }),
    );
    const requests = model.requests();
    const summaryIndex = requests.findIndex(isSummaryRequest);
    expect(summaryIndex).toBeGreaterThan(0);
    const summaryReq = requests[summaryIndex]!.body;
    const before = requests[summaryIndex - 1]!.body;
    // The summary request reuses the session's system blocks and tools (the cached prefix).
    expect(summaryReq.system).toEqual(before.system);
    expect(summaryReq.tools).toEqual(before.tools);
    const [boundary] = run.of('system', 'compact_boundary');
    expect(boundary?.compact_metadata.trigger).toBe('auto');
    expect(boundary!.compact_metadata.post_tokens).toBeLessThan(boundary!.compact_metadata.pre_tokens);
    const after = requests[summaryIndex + 1]!.body.messages;
    const first = JSON.stringify(after[0]);
    expect(first).toContain(SUMMARY_LEAD.slice(0, 40));
    expect(first).toContain('SUMMARY: the user wants the parser fixed');
    expect(first).toContain('[in_progress] fix the parser');
    expect(first).not.toContain('old item');
    expect(first).toContain("Today's date");
    // The tail starts with an assistant message; every tool_use still meets its tool_result.
    expect(after[1].role).toBe('assistant');
    expect(after.length).toBeLessThan(before.messages.length);
    expect(run.results[0]).toMatchObject({ subtype: 'success', result: 'finished after compaction' });
    // The transcript holds the boundary, and restoring gives the compacted conversation.
    const { lines } = readTranscriptLines(run.result.transcriptPath as string);
    expect(lines.filter((l) => l.subtype === 'compact_boundary')).toHaveLength(1);
    expect(lines.some((l) => l.isCompactSummary === true)).toBe(true);
    expect(loadSessionMessages(run.result.transcriptPath as string)).toEqual(run.result.messages);
    // The summary's cost is counted.
    expect(run.results[0]!.usage.output_tokens).toBeGreaterThan(0);
  });

  it('after a prompt-too-long error the loop compacts once and retries', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [reply.text('one'), reply.error(413), reply.text('two')], {
      routes: [summaryRoute('SUMMARY of the first exchange')],
    });
    const input = createInputQueue();
    input.push('first');
    const run = await runQuery(
      await loopOptions(world, model, { prompt: input, tools: await bashOnly(), decide: allowAllDecider }),
      (e) => {
        if (e.type === 'result' && e.result_index === 0) {
          input.push('second');
          input.close();
        }
      },
    );
    expect(run.results.map((r) => r.result)).toEqual(['one', 'two']);
    expect(run.of('system', 'compact_boundary')).toHaveLength(1);
    const last = model.requests().at(-1)!.body.messages;
    expect(last).toHaveLength(1);
    expect(JSON.stringify(last[0])).toContain('SUMMARY of the first exchange');
    expect(JSON.stringify(last[0])).toContain('second');
  });

  it('a PreCompact callback that blocks keeps the conversation as it is', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [reply.text('fine')], { routes: [summaryRoute('never used')] });
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'x'.repeat(30_000),
        tools: await bashOnly(),
        maxTokens: 1_000,
        autoCompact: { contextWindowTokens: 12_000, thresholdRatio: 0.5 },
        hooks: { PreCompact: [{ hooks: [async () => ({ decision: 'block', reason: 'not now' })] }] },
      }),
    );
    expect(model.requests().some(isSummaryRequest)).toBe(false);
    expect(run.of('system', 'informational').some((e) => e.content.includes('not now'))).toBe(true);
    expect(run.results[0]?.result).toBe('fine');
  });
});

describe('compaction pieces', () => {
  it('chooseCut keeps the last prompt when it fits, else the latest assistant message that fits, else nothing', () => {
    const u = (t: string) => ({ role: 'user' as const, content: t });
    const a = (t: string) => ({ role: 'assistant' as const, content: [{ type: 'text' as const, text: t }] });
    const msgs = [u('p1'), a('r1'), u('p2'), a('r2')];
    const size = (n: number) => () => n;
    expect(chooseCut(msgs, size(10), 25, 1)).toBe(2);
    expect(chooseCut(msgs, size(10), 15, 1)).toBe(3);
    expect(chooseCut(msgs, size(10), 5, 1)).toBeUndefined();
  });

  it('openTodos reads the last TodoWrite call', () => {
    const todo = (status: string) => ({
      role: 'assistant' as const,
      content: [
        {
          type: 'tool_use' as const,
          id: 't',
          name: 'TodoWrite',
          input: { todos: [{ content: 'x', status }] },
        },
      ],
    });
    expect(openTodos([todo('pending'), todo('completed')])).toEqual([]);
    expect(openTodos([todo('completed'), todo('pending')])).toEqual(['- [pending] x']);
  });

  it('the estimator learns a correction from reported usage', () => {
    const e = new TokenEstimator();
    const msgs = [{ role: 'user' as const, content: 'x'.repeat(400) }];
    const raw = e.rawTokens(msgs);
    e.observe(raw, {
      input_tokens: raw * 2,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
    expect(e.correction).toBeCloseTo(1.5);
    expect(e.estimate(msgs)).toBe(Math.ceil(raw * 1.5));
  });
});
