/**
 * bench/model: the Anthropic provider's cost and its prompt-cache effect, against baselines
 * measured in the same run, on the scripted fake Messages API (real HTTP + SSE on 127.0.0.1).
 *
 * 1. Stream overhead: one response of 400 text deltas and 4 tool calls, streamed 60 times (a) by
 *    the raw `@anthropic-ai/sdk` beta stream, consumed event by event, and (b) through
 *    `AnthropicModelClient.stream` (request building, breakpoints, assembly, retry and idle
 *    wrappers), alternating which goes first. Reported as ratios (medians, 10th percentiles) and
 *    the added µs per event. No target of its own (the loop's ≤ 2 ms per turn includes this).
 * 2. Assembly alone: the same events, pre-parsed, through `assembleAnthropicStream` vs a plain
 *    async pass-through generator: µs per event, ratio.
 * 3. Cache share: a 10-turn scripted session (a ~30K-char system + tools prefix, one tool call and
 *    a ~2K-char result per turn) with Gantry's breakpoints vs system-only breakpoints vs none.
 *    Target: cache reads ≥ 90% of input tokens on every turn from turn 2 on.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { Message } from '../src/core/messages.js';
import type { ModelRequest, ModelStreamEvent } from '../src/core/model-client.js';
import { AnthropicModelClient } from '../src/model/anthropic/client.js';
import { buildAnthropicRequest } from '../src/model/anthropic/request.js';
import { assembleAnthropicStream } from '../src/model/anthropic/stream.js';
import { startFakeAnthropicServer } from '../src/testing/fake-anthropic-server.js';
import { reply, text, toolUse } from '../src/testing/fake-model-script.js';
import type { BenchReport } from './run.js';

const RUNS = 60;
const TURNS = 10;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length * q)]!;
}

const median = (xs: number[]) => quantile(xs, 0.5);

function bigReply() {
  return reply.message(
    [
      text('word '.repeat(1600)),
      ...Array.from({ length: 4 }, (_, i) => toolUse('Read', { file_path: `/src/file-${i}.ts`, limit: 200 })),
    ],
    { chunkChars: 20 },
  );
}

const baseRequest = (messages: Message[]): ModelRequest => ({
  model: 'sonnet',
  system: [
    { type: 'text', text: 'You are Gantry.' },
    { type: 'text', text: 'Stable guidance line.\n'.repeat(400) },
  ],
  tools: Array.from({ length: 12 }, (_, i) => ({
    name: `Tool${i}`,
    description: 'A tool description of moderate length. '.repeat(20),
    input_schema: { type: 'object' as const, properties: { a: { type: 'string' }, b: { type: 'number' } } },
  })),
  messages,
  maxTokens: 4000,
});

async function streamOverhead() {
  const fake = await startFakeAnthropicServer({ script: Array.from({ length: 2 * RUNS + 4 }, bigReply) });
  const sdk = new Anthropic({
    apiKey: 'k',
    baseURL: fake.url,
    maxRetries: 0,
    logLevel: 'off',
    openTelemetry: false,
  });
  const client = new AnthropicModelClient({ apiKey: 'k', baseURL: fake.url });
  const request = baseRequest([{ role: 'user', content: 'go' }]);
  const wire = buildAnthropicRequest(request).body;
  let events = 0;
  const raw = async () => {
    const t = performance.now();
    const s = await sdk.beta.messages.create(wire as unknown as Anthropic.Beta.MessageCreateParamsStreaming);
    let n = 0;
    for await (const _ of s) n++;
    events = n;
    return performance.now() - t;
  };
  const gantry = async () => {
    const t = performance.now();
    for await (const _ of client.stream(request)) {
      // consume
    }
    return performance.now() - t;
  };
  await raw();
  await gantry();
  const rawMs: number[] = [];
  const gantryMs: number[] = [];
  // Alternate the order so neither side always runs right after the other's garbage.
  for (let i = 0; i < RUNS; i++) {
    if (i % 2 === 0) {
      rawMs.push(await raw());
      gantryMs.push(await gantry());
    } else {
      gantryMs.push(await gantry());
      rawMs.push(await raw());
    }
  }
  await fake.close();
  return {
    rawMs: median(rawMs),
    gantryMs: median(gantryMs),
    rawP10: quantile(rawMs, 0.1),
    gantryP10: quantile(gantryMs, 0.1),
    events,
  };
}

async function assemblyOnly() {
  // Capture the parsed events of one response once, then replay them from memory.
  const fake = await startFakeAnthropicServer({ script: [bigReply()] });
  const sdk = new Anthropic({
    apiKey: 'k',
    baseURL: fake.url,
    maxRetries: 0,
    logLevel: 'off',
    openTelemetry: false,
  });
  const wire = buildAnthropicRequest(baseRequest([{ role: 'user', content: 'go' }])).body;
  const captured: unknown[] = [];
  for await (const e of await sdk.beta.messages.create(
    wire as unknown as Anthropic.Beta.MessageCreateParamsStreaming,
  )) {
    captured.push(e);
  }
  await fake.close();
  async function* source() {
    for (const e of captured) yield e;
  }
  async function* passThrough(events: AsyncIterable<unknown>) {
    for await (const e of events) yield e;
  }
  const reps = 300;
  const time = async (f: () => AsyncIterable<unknown | ModelStreamEvent>) => {
    const t = performance.now();
    for (let i = 0; i < reps; i++) for await (const _ of f()) void _;
    return ((performance.now() - t) * 1000) / (reps * captured.length);
  };
  await time(() => passThrough(source()));
  await time(() => assembleAnthropicStream(source()));
  const baseUs = await time(() => passThrough(source()));
  const assembleUs = await time(() => assembleAnthropicStream(source()));
  return { baseUs, assembleUs, events: captured.length };
}

async function cacheShares(mode: 'gantry' | 'system-only' | 'none') {
  const script = Array.from({ length: TURNS }, (_, i) =>
    i < TURNS - 1 ? reply.toolUse('Tool1', { a: `step ${i}` }, { id: `toolu_${i}` }) : reply.text('done'),
  );
  const fake = await startFakeAnthropicServer({ script });
  const client = new AnthropicModelClient({ apiKey: 'k', baseURL: fake.url, promptCaching: mode !== 'none' });
  const history: Message[] = [{ role: 'user', content: 'Do the ten-step task.' }];
  for (let turn = 0; turn < TURNS; turn++) {
    const request = baseRequest(history);
    if (mode === 'system-only') {
      // Baseline: a marker on the system prompt only, none on messages (what a client without
      // a moving breakpoint gets); the first system block carries it so ours adds nothing.
      request.system = request.system.map((b) => ({ ...b, cache_control: { type: 'ephemeral' as const } }));
    }
    let message: Message | undefined;
    const stream = mode === 'system-only' ? systemOnlyStream(fake.url, request) : client.stream(request);
    for await (const e of stream) if (e.type === 'message_stop') message = e.message;
    history.push(message!);
    if (turn < TURNS - 1) {
      history.push({
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: `toolu_${turn}`, content: `result line ${turn}\n`.repeat(120) },
        ],
      });
    }
  }
  const shares = fake.messageRequests.map((r) => {
    const u = r.usage!;
    const total = u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;
    return u.cache_read_input_tokens / total;
  });
  await fake.close();
  return shares;
}

/** The system-only baseline: the raw SDK with markers on the system blocks and none on messages. */
async function* systemOnlyStream(url: string, request: ModelRequest): AsyncIterable<ModelStreamEvent> {
  const sdk = new Anthropic({
    apiKey: 'k',
    baseURL: url,
    maxRetries: 0,
    logLevel: 'off',
    openTelemetry: false,
  });
  const body = {
    model: 'claude-sonnet-5-5',
    messages: request.messages,
    system: request.system,
    tools: request.tools,
    max_tokens: request.maxTokens,
    stream: true,
  };
  yield* assembleAnthropicStream(
    await sdk.beta.messages.create(body as unknown as Anthropic.Beta.MessageCreateParamsStreaming),
  );
}

export default async function bench(): Promise<BenchReport> {
  const overhead = await streamOverhead();
  const assembly = await assemblyOnly();
  const gantry = await cacheShares('gantry');
  const systemOnly = await cacheShares('system-only');
  const none = await cacheShares('none');
  const fromTurn2 = gantry.slice(1);
  const pct = (x: number) => Math.round(x * 1000) / 10;
  return {
    name: 'model provider (Anthropic, fake Messages API)',
    figures: {
      'stream: raw SDK median ms/response': overhead.rawMs,
      'stream: Gantry provider median ms/response': overhead.gantryMs,
      'stream: ratio Gantry / raw SDK (medians)': overhead.gantryMs / overhead.rawMs,
      'stream: ratio Gantry / raw SDK (10th percentiles)': overhead.gantryP10 / overhead.rawP10,
      'stream: added µs/event': ((overhead.gantryMs - overhead.rawMs) * 1000) / overhead.events,
      'stream: events/response': overhead.events,
      'assembly: pass-through µs/event': assembly.baseUs,
      'assembly: assembleAnthropicStream µs/event': assembly.assembleUs,
      'assembly: ratio': assembly.assembleUs / assembly.baseUs,
      'cache read % per turn (Gantry breakpoints)': gantry.map(pct).join(' / '),
      'cache read % per turn (system-only baseline)': systemOnly.map(pct).join(' / '),
      'cache read % per turn (no breakpoints)': none.map(pct).join(' / '),
      'cache read % min from turn 2 (Gantry)': pct(Math.min(...fromTurn2)),
    },
    targets: {
      'cache reads ≥ 90% of input from turn 2 on': fromTurn2.every((s) => s >= 0.9),
    },
  };
}
