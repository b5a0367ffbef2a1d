/**
 * The Anthropic provider through the real @anthropic-ai/sdk against the scripted fake Messages API
 * (real HTTP and SSE on 127.0.0.1): connections, request shape and headers, count_tokens, retries,
 * error kinds, abort.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnthropicModelClient } from './client.js';
import { closeFake, collect, failure, KEY, request, setup, startFake } from './test-support.js';
import { startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply, text } from '../../testing/fake-model-script.js';

afterEach(closeFake);

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
    const fake = await startFake({ apiKey: 'tok-1', script: [reply.text('ok')] });
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
    const fake = await startFake({ apiKey: 'the-right-key', script: [reply.text('unused')] });
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
