/**
 * The Anthropic provider through the real @anthropic-ai/sdk against the scripted fake Messages API
 * (real HTTP and SSE on 127.0.0.1): streaming, tool_use assembly, thinking round trip, retries,
 * error kinds, abort, count_tokens, headers.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../core/messages.js';
import { ModelError, type ModelRequest, type ModelStreamEvent } from '../../core/model-client.js';
import {
  type FakeAnthropicOptions,
  type FakeAnthropicServer,
  startFakeAnthropicServer,
} from '../../testing/fake-anthropic-server.js';
import { redactedThinking, reply, text, thinking, toolUse } from '../../testing/fake-model-script.js';
import { AnthropicModelClient, type AnthropicClientOptions } from './client.js';

const KEY = 'sk-test-key';
let fake: FakeAnthropicServer | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(options: FakeAnthropicOptions, clientOptions: Partial<AnthropicClientOptions> = {}) {
  fake = await startFakeAnthropicServer({ apiKey: KEY, ...options });
  const client = new AnthropicModelClient({
    apiKey: KEY,
    baseURL: fake.url,
    retry: { baseDelayMs: 1, jitter: 0 },
    ...clientOptions,
  });
  return { fake, client };
}

function request(
  messages: Message[] = [{ role: 'user', content: 'Hello' }],
  extra: Partial<ModelRequest> = {},
): ModelRequest {
  return {
    model: 'sonnet',
    system: [{ type: 'text', text: 'You are a test agent.' }],
    messages,
    tools: [
      {
        name: 'Read',
        description: 'Reads a file.',
        input_schema: {
          type: 'object',
          properties: { file_path: { type: 'string' } },
          required: ['file_path'],
        },
      },
    ],
    maxTokens: 1000,
    ...extra,
  };
}

async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

async function failure(
  stream: AsyncIterable<ModelStreamEvent>,
): Promise<{ error: ModelError; events: ModelStreamEvent[] }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const e of stream) events.push(e);
  } catch (error) {
    expect(error).toBeInstanceOf(ModelError);
    return { error: error as ModelError, events };
  }
  throw new Error('the stream did not fail');
}

function last<T>(xs: readonly T[]): T {
  const x = xs.at(-1);
  if (x === undefined) throw new Error('empty');
  return x;
}

describe('AnthropicModelClient streaming', () => {
  it('streams text deltas and ends with message_stop carrying the message, stop reason and usage', async () => {
    const { client, fake } = await setup({
      script: [reply.text('Hello there, this is a streamed answer.', { chunkChars: 5 })],
    });
    const events = await collect(client.stream(request()));
    expect(events[0]).toMatchObject({ type: 'message_start', id: 'msg_fake_0', model: 'claude-sonnet-5-5' });
    const deltas = events.filter((e) => e.type === 'text_delta');
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.map((e) => (e.type === 'text_delta' ? e.text : '')).join('')).toBe(
      'Hello there, this is a streamed answer.',
    );
    const stop = last(events);
    expect(stop.type).toBe('message_stop');
    if (stop.type !== 'message_stop') return;
    expect(stop.message).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Hello there, this is a streamed answer.' }],
    });
    expect(stop.stopReason).toBe('end_turn');
    expect(stop.usage).toEqual(fake.messageRequests[0]!.usage);
    expect(stop.usage.output_tokens).toBe(Math.ceil('Hello there, this is a streamed answer.'.length / 4));
    expect(fake.messageRequests[0]!.query).toEqual({ beta: 'true' });
  });

  it('assembles parallel tool_use inputs from input_json_delta and reports each complete at its content_block_stop', async () => {
    const { client } = await setup({
      script: [
        reply.message(
          [
            text('Reading both.'),
            toolUse('Read', { file_path: '/tmp/a.txt', limit: 10 }, { id: 'toolu_a' }),
            toolUse('Read', { file_path: '/tmp/b.txt' }, { id: 'toolu_b' }),
          ],
          { chunkChars: 4 },
        ),
      ],
    });
    const events = await collect(client.stream(request()));
    const stops = events.flatMap((e, i) => (e.type === 'content_block_stop' ? [{ e, i }] : []));
    expect(stops.map(({ e }) => e.type === 'content_block_stop' && e.block)).toEqual([
      { type: 'text', text: 'Reading both.' },
      { type: 'tool_use', id: 'toolu_a', name: 'Read', input: { file_path: '/tmp/a.txt', limit: 10 } },
      { type: 'tool_use', id: 'toolu_b', name: 'Read', input: { file_path: '/tmp/b.txt' } },
    ]);
    // The first tool is complete before the second starts and long before the message ends.
    const secondStart = events.findIndex((e) => e.type === 'content_block_start' && e.index === 2);
    const messageStop = events.findIndex((e) => e.type === 'message_stop');
    expect(stops[1]!.i).toBeLessThan(secondStart);
    expect(stops[2]!.i).toBeLessThan(messageStop);
    const fragments = events.filter((e) => e.type === 'input_json_delta' && e.index === 1);
    expect(fragments.length).toBeGreaterThan(2);
    const stop = last(events);
    expect(stop.type === 'message_stop' && stop.stopReason).toBe('tool_use');
  });

  it('yields a complete tool_use while the rest of the response has not been sent', async () => {
    // The server stalls right after the tool's content_block_stop (events: start, ping, block start, 1 delta, stop).
    const { client } = await setup({
      script: [
        reply.message([toolUse('Read', { file_path: '/x' }, { id: 'toolu_early' }), text('more to come')], {
          chunkChars: 1000,
          stallAfterEvents: 5,
        }),
      ],
    });
    const controller = new AbortController();
    const seen: ModelStreamEvent[] = [];
    await expect(
      (async () => {
        for await (const e of client.stream(request(), { signal: controller.signal })) {
          seen.push(e);
          if (e.type === 'content_block_stop') controller.abort();
        }
      })(),
    ).rejects.toMatchObject({ kind: 'aborted' });
    expect(last(seen)).toEqual({
      type: 'content_block_stop',
      index: 0,
      block: { type: 'tool_use', id: 'toolu_early', name: 'Read', input: { file_path: '/x' } },
    });
  });

  it('keeps thinking and redacted_thinking with their signatures and sends them back unchanged', async () => {
    const { client, fake } = await setup({
      script: [
        reply.message([
          thinking('Let me think about it.', 'sig-abc'),
          redactedThinking('ENCRYPTED=='),
          text('Answer.'),
        ]),
        reply.text('Second.'),
      ],
    });
    const events = await collect(client.stream(request(), {}));
    const thinkingText = events
      .filter((e) => e.type === 'thinking_delta')
      .map((e) => (e.type === 'thinking_delta' ? e.thinking : ''))
      .join('');
    expect(thinkingText).toBe('Let me think about it.');
    const stop = last(events);
    if (stop.type !== 'message_stop') throw new Error('no message_stop');
    expect(stop.message.content).toEqual([
      { type: 'thinking', thinking: 'Let me think about it.', signature: 'sig-abc' },
      { type: 'redacted_thinking', data: 'ENCRYPTED==' },
      { type: 'text', text: 'Answer.' },
    ]);
    await collect(
      client.stream(
        request([{ role: 'user', content: 'Hello' }, stop.message, { role: 'user', content: 'And?' }], {
          thinking: { type: 'enabled', budgetTokens: 2000 },
        }),
      ),
    );
    const sent = fake.messageRequests[1]!.body;
    expect(sent.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Let me think about it.', signature: 'sig-abc' },
        { type: 'redacted_thinking', data: 'ENCRYPTED==' },
        { type: 'text', text: 'Answer.' },
      ],
    });
    expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 2000 });
  });

  it('sends a tool_use whose JSON did not parse back with input {} and flags it at content_block_stop', async () => {
    const { client, fake } = await setup({
      script: [
        reply.message([toolUse('Read', {}, { id: 'toolu_bad', rawJson: '{"file_path": "/x"' })]),
        reply.text('ok'),
      ],
    });
    const events = await collect(client.stream(request()));
    const stop = events.find((e) => e.type === 'content_block_stop');
    expect(stop).toMatchObject({
      block: { type: 'tool_use', id: 'toolu_bad', input: '{"file_path": "/x"' },
      inputError: expect.stringContaining('not valid JSON'),
    });
    const message = last(events);
    if (message.type !== 'message_stop') throw new Error('no message_stop');
    await collect(
      client.stream(
        request([{ role: 'user', content: 'Hi' }, message.message, { role: 'user', content: 'x' }]),
      ),
    );
    expect(fake.messageRequests[1]!.body.messages[1].content[0]).toEqual({
      type: 'tool_use',
      id: 'toolu_bad',
      name: 'Read',
      input: {},
    });
  });
});

describe('AnthropicModelClient connections', () => {
  it('reads the response to its end after message_stop, so the next request reuses the connection', async () => {
    const { client, fake } = await setup({
      script: Array.from({ length: 6 }, () => reply.text('again', { endDelayMs: 20 })),
    });
    for (let i = 0; i < 6; i++) await collect(client.stream(request()));
    const ids = fake.messageRequests.map((r) => r.connection);
    // The client's pool may hold two sockets; a connection cut after each message would give six.
    expect(new Set(ids).size).toBeLessThanOrEqual(2);
  });

  it('a server that keeps the response open after message_stop is cut after the drain limit, without an error', async () => {
    // 10 events: start, ping, block start, 1 delta, block stop, message_delta, message_stop → stall after all of them.
    const { client } = await setup(
      { script: [reply.message([text('complete')], { chunkChars: 100, stallAfterEvents: 7 })] },
      { streamDrainMs: 50 },
    );
    const events = await collect(client.stream(request()));
    expect(events.at(-1)).toMatchObject({
      type: 'message_stop',
      message: { content: [{ type: 'text', text: 'complete' }] },
    });
  });
});

describe('AnthropicModelClient request shape', () => {
  it('sends model, messages, system, tools, metadata, max_tokens, thinking, extras, stream in that order, tools unmarked', async () => {
    const { client, fake } = await setup({ script: [reply.text('ok')] });
    await collect(
      client.stream(
        request(undefined, {
          thinking: { type: 'adaptive' },
          extra: { metadata: { user_id: 'u1' }, output_config: { effort: 'medium' }, openai: { seed: 1 } },
        }),
      ),
    );
    const body = fake.messageRequests[0]!.body;
    expect(Object.keys(body)).toEqual([
      'model',
      'messages',
      'system',
      'tools',
      'metadata',
      'max_tokens',
      'thinking',
      'output_config',
      'stream',
    ]);
    expect(body.tools[0]).not.toHaveProperty('cache_control');
    expect(body.system).toEqual([
      { type: 'text', text: 'You are a test agent.', cache_control: { type: 'ephemeral' } },
    ]);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hello', cache_control: { type: 'ephemeral' } }] },
    ]);
  });

  it('sends the key as x-api-key and bearer, betas as anthropic-beta, configured and per-call headers, and no SDK retries', async () => {
    const { client, fake } = await setup(
      { script: [reply.text('ok')] },
      { betas: ['interleaved-thinking-2025-05-14'], headers: { 'x-app': 'gantry-test' } },
    );
    await collect(
      client.stream(request(undefined, { extra: { betas: ['context-management-2025-06-27'] } }), {
        headers: { 'x-gantry-agent-id': 'a0123456789abcdef' },
      }),
    );
    const h = fake.messageRequests[0]!.headers;
    expect(h['x-api-key']).toBe(KEY);
    expect(h.authorization).toBe(`Bearer ${KEY}`);
    expect(h['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(h['anthropic-beta']).toBe('interleaved-thinking-2025-05-14,context-management-2025-06-27');
    expect(h['x-app']).toBe('gantry-test');
    expect(h['x-gantry-agent-id']).toBe('a0123456789abcdef');
    expect(h['x-stainless-retry-count']).toBe('0');
  });

  it('with authToken sends a bearer token only', async () => {
    fake = await startFakeAnthropicServer({ apiKey: 'tok-1', script: [reply.text('ok')] });
    const client = new AnthropicModelClient({ authToken: 'tok-1', baseURL: fake.url });
    await collect(client.stream(request()));
    expect(fake.messageRequests[0]!.headers.authorization).toBe('Bearer tok-1');
    expect(fake.messageRequests[0]!.headers).not.toHaveProperty('x-api-key');
  });

  it('refuses to construct without exactly one credential', () => {
    expect(() => new AnthropicModelClient({})).toThrow(/exactly one of apiKey and authToken/);
    expect(() => new AnthropicModelClient({ apiKey: 'a', authToken: 'b' })).toThrow(/exactly one/);
  });

  it('counts tokens through POST /v1/messages/count_tokens', async () => {
    const { client, fake } = await setup({});
    const n = await client.countTokens(request());
    expect(fake.countTokensRequests).toHaveLength(1);
    const counted = fake.countTokensRequests[0]!;
    expect(counted.query).toEqual({ beta: 'true' });
    expect(Object.keys(counted.body)).toEqual(['model', 'messages', 'system', 'tools']);
    expect(JSON.stringify(counted.body)).not.toContain('cache_control');
    expect(n).toBeGreaterThan(10);
    expect(counted.headers['anthropic-beta']).toContain('token-counting-2024-11-01');
  });
});

describe('AnthropicModelClient retries and errors', () => {
  it('retries a 529 and reports it as a retry event before the successful attempt', async () => {
    const { client, fake } = await setup({ script: [reply.overloaded(), reply.text('after the storm')] });
    const events = await collect(client.stream(request()));
    expect(events[0]).toMatchObject({
      type: 'retry',
      attempt: 1,
      maxRetries: 10,
      status: 529,
      kind: 'overloaded',
    });
    expect(events[1]!.type).toBe('message_start');
    expect(fake.messageRequests).toHaveLength(2);
    expect(fake.messageRequests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '0']);
  });

  it('honours retry-after (seconds) and retry-after-ms on a 429', async () => {
    const { client } = await setup({
      script: [reply.rateLimited({ seconds: 1 }), reply.rateLimited({ ms: 30 }), reply.text('ok')],
    });
    const retries = (await collect(client.stream(request()))).filter((e) => e.type === 'retry');
    expect(retries).toMatchObject([
      { attempt: 1, delayMs: 1000, status: 429, kind: 'rate_limit' },
      { attempt: 2, delayMs: 30, status: 429, kind: 'rate_limit' },
    ]);
  });

  it('uses exponential backoff with jitter when the server gives no wait', async () => {
    const { client } = await setup(
      { script: [reply.error(500), reply.error(502), reply.error(503), reply.text('ok')] },
      { retry: { baseDelayMs: 8, jitter: 0.5 } },
    );
    const delays = (await collect(client.stream(request())))
      .filter((e) => e.type === 'retry')
      .map((e) => (e.type === 'retry' ? e.delayMs : -1));
    expect(delays).toHaveLength(3);
    [8, 16, 32].forEach((full, i) => {
      expect(delays[i]).toBeGreaterThanOrEqual(full / 2);
      expect(delays[i]).toBeLessThanOrEqual(full);
    });
  });

  it('gives up after maxRetries with the last failure', async () => {
    const { client, fake } = await setup(
      { script: [reply.overloaded(), reply.overloaded(), reply.overloaded()] },
      { retry: { maxRetries: 2, baseDelayMs: 1 } },
    );
    const { error, events } = await failure(client.stream(request()));
    expect(error.kind).toBe('overloaded');
    expect(error.status).toBe(529);
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(2);
    expect(fake.messageRequests).toHaveLength(3);
  });

  it('a refused key (401) is an authentication error, never retried', async () => {
    fake = await startFakeAnthropicServer({ apiKey: 'the-right-key', script: [reply.text('unused')] });
    const client = new AnthropicModelClient({ apiKey: 'a-wrong-key', baseURL: fake.url });
    const { error, events } = await failure(client.stream(request()));
    expect(error.kind).toBe('authentication');
    expect(error.status).toBe(401);
    expect(error.message).toContain('ANTHROPIC_API_KEY');
    expect(events).toEqual([]);
    expect(fake.messageRequests).toHaveLength(1);
  });

  it.each([
    { status: 403, kind: 'permission', why: 'permission_error' },
    { status: 404, kind: 'not_found', why: 'unknown model' },
    { status: 413, kind: 'prompt_too_long', why: 'request_too_large: the remedy is sending less' },
    { status: 400, kind: 'invalid_request', why: 'plain invalid request' },
  ] as const)('HTTP $status → $kind, not retried ($why)', async ({ status, kind }) => {
    const { client, fake } = await setup({ script: [reply.error(status)] });
    const { error } = await failure(client.stream(request()));
    expect(error.kind).toBe(kind);
    expect(fake.messageRequests).toHaveLength(1);
  });

  it('a 400 saying the prompt is too long → prompt_too_long', async () => {
    const { client } = await setup({
      script: [reply.error(400, { message: 'prompt is too long: 210000 tokens > 200000 maximum' })],
    });
    const { error } = await failure(client.stream(request()));
    expect(error.kind).toBe('prompt_too_long');
    expect(error.message).toContain('210000 tokens');
  });

  it('x-should-retry: false stops a retry the status would allow', async () => {
    const { client, fake } = await setup({
      script: [reply.error(500, { headers: { 'x-should-retry': 'false' } })],
    });
    const { error } = await failure(client.stream(request()));
    expect(error.kind).toBe('server');
    expect(fake.messageRequests).toHaveLength(1);
  });

  it('a retry-after beyond maxRetryAfterMs ends the call instead of waiting', async () => {
    const { client, fake } = await setup(
      { script: [reply.rateLimited({ seconds: 3600 })] },
      { retry: { maxRetryAfterMs: 60_000 } },
    );
    const { error, events } = await failure(client.stream(request()));
    expect(error.kind).toBe('rate_limit');
    expect(events).toEqual([]);
    expect(fake.messageRequests).toHaveLength(1);
  });

  it('an error event inside the stream after message_start is final (no duplicate partial message)', async () => {
    const { client, fake } = await setup({
      script: [
        reply.message([text('partial answer that will break')], {
          errorAfterEvents: { events: 4, errorType: 'overloaded_error' },
        }),
        reply.text('never requested'),
      ],
    });
    const { error, events } = await failure(client.stream(request()));
    expect(error.kind).toBe('overloaded');
    expect(events[0]!.type).toBe('message_start');
    expect(fake.messageRequests).toHaveLength(1);
  });

  it('an error event before any data is retried', async () => {
    const { client, fake } = await setup({
      script: [
        reply.message([text('x')], { errorAfterEvents: { events: 0, errorType: 'overloaded_error' } }),
        reply.text('recovered'),
      ],
    });
    const events = await collect(client.stream(request()));
    expect(events[0]).toMatchObject({ type: 'retry', kind: 'overloaded' });
    expect(fake.messageRequests).toHaveLength(2);
  });

  it('a malformed stream → malformed_response, not retried', async () => {
    const { client, fake } = await setup({ script: [reply.malformed(), reply.text('unused')] });
    const { error } = await failure(client.stream(request()));
    expect(error.kind).toBe('malformed_response');
    expect(fake.messageRequests).toHaveLength(1);
  });

  it('a connection cut after data arrived is final (no retry that would repeat the partial message)', async () => {
    const { client, fake } = await setup({
      script: [reply.message([text('abc')], { dropAfterEvents: 4 }), reply.text('x')],
    });
    const { error, events } = await failure(client.stream(request()));
    expect(events.map((e) => e.type)).toEqual(['message_start', 'content_block_start', 'text_delta']);
    expect(error.kind).toBe('connection');
    expect(fake.messageRequests).toHaveLength(1);
  });

  it('an unreachable endpoint → connection error after the retries', async () => {
    const probe = await startFakeAnthropicServer();
    const url = probe.url;
    await probe.close();
    const client = new AnthropicModelClient({
      apiKey: KEY,
      baseURL: url,
      retry: { maxRetries: 2, baseDelayMs: 1 },
    });
    const { error, events } = await failure(client.stream(request()));
    expect(error.kind).toBe('connection');
    expect(error.message).toContain('ANTHROPIC_BASE_URL');
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(2);
  });

  it('a stalled stream ends with a connection error after the idle timeout', async () => {
    const { client } = await setup(
      { script: [reply.stall({ afterEvents: 2 })] },
      { streamIdleTimeoutMs: 150, retry: { maxRetries: 0 } },
    );
    const { error, events } = await failure(client.stream(request()));
    expect(error.kind).toBe('connection');
    expect(error.message).toContain('no stream data for 150 ms');
    expect(events.map((e) => e.type)).toEqual(['message_start']);
  });
});

describe('AnthropicModelClient abort', () => {
  it('aborting mid-stream ends the call with kind aborted and closes the connection', async () => {
    const { client, fake } = await setup({ script: [reply.stall({ afterEvents: 4 })] });
    const controller = new AbortController();
    const seen: string[] = [];
    const run = (async () => {
      for await (const e of client.stream(request(), { signal: controller.signal })) {
        seen.push(e.type);
        if (e.type === 'text_delta') controller.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ name: 'ModelError', kind: 'aborted' });
    expect(seen).toEqual(['message_start', 'content_block_start', 'text_delta']);
    await vi.waitFor(() => expect(fake.messageRequests[0]!.clientClosed).toBe(true));
  });

  it('aborting before the response arrives ends the call with kind aborted', async () => {
    const { client, fake } = await setup({ script: [reply.noResponse()] });
    const controller = new AbortController();
    const run = collect(client.stream(request(), { signal: controller.signal }));
    await vi.waitFor(() => expect(fake.messageRequests).toHaveLength(1));
    controller.abort();
    await expect(run).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('aborting during a retry wait ends the call at once', async () => {
    const { client, fake } = await setup({ script: [reply.rateLimited({ seconds: 60 })] });
    const controller = new AbortController();
    const run = (async () => {
      for await (const e of client.stream(request(), { signal: controller.signal })) {
        if (e.type === 'retry') controller.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ kind: 'aborted' });
    expect(fake.messageRequests).toHaveLength(1);
  });
});
