/**
 * The OpenAI-compatible provider through the real `openai` SDK against the scripted fake
 * endpoint (real HTTP and SSE on 127.0.0.1): mapping both ways, parallel tool calls, usage and
 * cached tokens, reasoning, errors, abort, and the Responses API.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../core/messages.js';
import { ModelError, type ModelRequest, type ModelStreamEvent } from '../../core/model-client.js';
import { reply, text, thinking, toolUse } from '../../testing/fake-model-script.js';
import {
  type FakeOpenAIOptions,
  type FakeOpenAIServer,
  startFakeOpenAIServer,
} from '../../testing/fake-openai-server.js';
import { type OpenAIClientOptions, OpenAIModelClient } from './client.js';

const KEY = 'sk-openai-test';
let fake: FakeOpenAIServer | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(options: FakeOpenAIOptions, clientOptions: Partial<OpenAIClientOptions> = {}) {
  fake = await startFakeOpenAIServer({ apiKey: KEY, ...options });
  const client = new OpenAIModelClient({
    apiKey: KEY,
    baseURL: `${fake.url}/v1`,
    model: 'qwen-coder',
    retry: { baseDelayMs: 1, jitter: 0 },
    ...clientOptions,
  });
  return { fake, client };
}

const READ_TOOL = {
  name: 'Read',
  description: 'Reads a file.',
  input_schema: {
    type: 'object' as const,
    properties: { file_path: { type: 'string' } },
    required: ['file_path'],
  },
};

function request(
  messages: Message[] = [{ role: 'user', content: 'Hello' }],
  extra: Partial<ModelRequest> = {},
): ModelRequest {
  return {
    model: 'qwen-coder',
    system: [
      { type: 'text', text: 'You are a test agent.' },
      { type: 'text', text: 'Be brief.' },
    ],
    messages,
    tools: [READ_TOOL],
    maxTokens: 500,
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

function stopOf(events: ModelStreamEvent[]) {
  const e = events.at(-1);
  if (e?.type !== 'message_stop') throw new Error('no message_stop');
  return e;
}

describe('OpenAIModelClient (Chat Completions)', () => {
  it('streams text and reports usage with cached tokens as cache reads', async () => {
    const { client, fake } = await setup({
      script: [reply.text('First answer.'), reply.text('Second answer.')],
    });
    const first = await collect(client.stream(request()));
    expect(first[0]).toMatchObject({ type: 'message_start', id: 'chatcmpl_fake_0', model: 'qwen-coder' });
    const stop1 = stopOf(first);
    expect(stop1.message).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'First answer.' }] });
    expect(stop1.stopReason).toBe('end_turn');
    expect(stop1.usage.cache_read_input_tokens).toBe(0);
    const history: Message[] = [
      { role: 'user', content: 'Hello' },
      stop1.message,
      { role: 'user', content: 'More.' },
    ];
    const stop2 = stopOf(await collect(client.stream(request(history))));
    expect(stop2.usage).toEqual(fake.modelRequests[1]!.usage);
    // The whole first request (system + first user message + tools) is a cached prefix of the second.
    expect(stop2.usage.cache_read_input_tokens).toBe(fake.modelRequests[0]!.usage!.input_tokens);
    expect(stop2.usage.input_tokens).toBeGreaterThan(0);
    const body = fake.modelRequests[0]!.body;
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.max_tokens).toBe(500);
    expect(fake.modelRequests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('assembles parallel tool calls per index and completes the first before the second streams', async () => {
    const { client } = await setup({
      script: [
        reply.message(
          [
            text('Two reads.'),
            toolUse('Read', { file_path: '/a' }, { id: 'call_a' }),
            toolUse('Read', { file_path: '/b', limit: 5 }, { id: 'call_b' }),
          ],
          { chunkChars: 3 },
        ),
      ],
    });
    const events = await collect(client.stream(request()));
    const stops = events.filter((e) => e.type === 'content_block_stop');
    expect(stops.map((e) => e.type === 'content_block_stop' && e.block)).toEqual([
      { type: 'text', text: 'Two reads.' },
      { type: 'tool_use', id: 'call_a', name: 'Read', input: { file_path: '/a' } },
      { type: 'tool_use', id: 'call_b', name: 'Read', input: { file_path: '/b', limit: 5 } },
    ]);
    const firstToolStop = events.findIndex((e) => e.type === 'content_block_stop' && e.index === 1);
    const secondToolArgs = events.findIndex((e) => e.type === 'input_json_delta' && e.index === 2);
    expect(firstToolStop).toBeLessThan(secondToolArgs);
    expect(stopOf(events).stopReason).toBe('tool_use');
  });

  it('maps the conversation to OpenAI messages: system, tool_calls, role:tool results, images, thinking dropped', async () => {
    const { client, fake } = await setup({ script: [reply.text('ok')] });
    const png = { type: 'base64' as const, media_type: 'image/png' as const, data: 'iVBORw0KGgo=' };
    const history: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look at this.' },
          { type: 'image', source: png },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hmm', signature: 'sig' },
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'call_1', name: 'Read', input: { file_path: '/a' } },
          { type: 'tool_use', id: 'call_2', name: 'Read', input: { file_path: '/b' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_2', content: 'B contents' },
          {
            type: 'tool_result',
            tool_use_id: 'call_1',
            content: [
              { type: 'text', text: 'A contents' },
              { type: 'image', source: png },
            ],
            is_error: false,
          },
          { type: 'text', text: 'Anything else?' },
        ],
      },
    ];
    await collect(client.stream(request(history)));
    const body = fake.modelRequests[0]!.body;
    const dataUrl = 'data:image/png;base64,iVBORw0KGgo=';
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are a test agent.\n\nBe brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look at this.' },
          { type: 'image_url', image_url: { url: dataUrl } },
        ],
      },
      {
        role: 'assistant',
        content: 'Reading.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'Read', arguments: '{"file_path":"/a"}' } },
          { id: 'call_2', type: 'function', function: { name: 'Read', arguments: '{"file_path":"/b"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_2', content: 'B contents' },
      {
        role: 'tool',
        tool_call_id: 'call_1',
        content: 'A contents\n[1 attachment(s) follow in the next user message]',
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Attachments of tool call call_1:' },
          { type: 'image_url', image_url: { url: dataUrl } },
          { type: 'text', text: 'Anything else?' },
        ],
      },
    ]);
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'Read', description: 'Reads a file.', parameters: READ_TOOL.input_schema },
      },
    ]);
  });

  it('round-trips tool calls: the returned message goes back as the same tool_calls', async () => {
    const { client, fake } = await setup({
      script: [reply.toolUse('Read', { file_path: '/x' }, { id: 'call_x' }), reply.text('done')],
    });
    const stop = stopOf(await collect(client.stream(request())));
    const history: Message[] = [
      { role: 'user', content: 'Hello' },
      stop.message,
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_x', content: 'X' }] },
    ];
    await collect(client.stream(request(history)));
    expect(fake.modelRequests[1]!.body.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_x', type: 'function', function: { name: 'Read', arguments: '{"file_path":"/x"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_x', content: 'X' },
    ]);
  });

  it.each([
    { field: 'reasoning_content' as const, why: 'vLLM / DeepSeek style' },
    { field: 'reasoning' as const, why: 'Ollama / OpenRouter style' },
  ])('reads $field deltas as thinking with an empty signature ($why)', async ({ field }) => {
    const { client } = await setup({
      script: [reply.message([thinking('Let me see.'), text('Answer.')])],
      reasoningField: field,
    });
    const events = await collect(client.stream(request()));
    expect(stopOf(events).message.content).toEqual([
      { type: 'thinking', thinking: 'Let me see.', signature: '' },
      { type: 'text', text: 'Answer.' },
    ]);
    expect(events.some((e) => e.type === 'thinking_delta')).toBe(true);
  });

  it('maps finish_reason length to max_tokens', async () => {
    const { client } = await setup({ script: [reply.text('cut off', { stopReason: 'max_tokens' })] });
    expect(stopOf(await collect(client.stream(request()))).stopReason).toBe('max_tokens');
  });

  it('flags tool call arguments that are not JSON', async () => {
    const { client } = await setup({
      script: [reply.message([toolUse('Read', {}, { rawJson: '{"file_path":' })])],
    });
    const events = await collect(client.stream(request()));
    expect(events.find((e) => e.type === 'content_block_stop')).toMatchObject({
      block: { type: 'tool_use', input: '{"file_path":' },
      inputError: expect.stringContaining('not valid JSON'),
    });
  });

  it('sends no Authorization header to a local endpoint configured without a key', async () => {
    fake = await startFakeOpenAIServer({ script: [reply.text('local')] });
    const client = new OpenAIModelClient({ baseURL: `${fake.url}/v1` });
    const stop = stopOf(await collect(client.stream(request())));
    expect(stop.message.content).toEqual([{ type: 'text', text: 'local' }]);
    expect(fake.modelRequests[0]!.headers).not.toHaveProperty('authorization');
  });

  it('needs a key or a base URL', () => {
    expect(() => new OpenAIModelClient({})).toThrow(/needs an apiKey, or a baseURL/);
  });

  it('uses max_completion_tokens when told to (OpenAI reasoning models)', async () => {
    const { client, fake } = await setup(
      { script: [reply.text('ok')] },
      { maxTokensField: 'max_completion_tokens' },
    );
    await collect(
      client.stream(request(undefined, { extra: { openai: { seed: 7 }, metadata: { user_id: 'x' } } })),
    );
    const body = fake.modelRequests[0]!.body;
    expect(body.max_completion_tokens).toBe(500);
    expect(body).not.toHaveProperty('max_tokens');
    expect(body.seed).toBe(7);
    expect(body).not.toHaveProperty('metadata');
  });

  it('estimates countTokens as chars/4 without a request', async () => {
    const { client, fake } = await setup({});
    const n = await client.countTokens(request());
    expect(n).toBeGreaterThan(20);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('OpenAIModelClient errors and abort', () => {
  it('a refused key (401) is an authentication error, not retried', async () => {
    fake = await startFakeOpenAIServer({ apiKey: 'right' });
    const client = new OpenAIModelClient({ apiKey: 'wrong', baseURL: `${fake.url}/v1` });
    const { error } = await failure(client.stream(request()));
    expect(error.kind).toBe('authentication');
    expect(error.message).toContain('OPENAI_API_KEY');
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a 429 with retry-after-ms and a 500, reporting both', async () => {
    const { client, fake } = await setup({
      script: [reply.rateLimited({ ms: 20 }), reply.error(500), reply.text('ok')],
    });
    const events = await collect(client.stream(request()));
    expect(events.filter((e) => e.type === 'retry')).toMatchObject([
      { attempt: 1, delayMs: 20, status: 429, kind: 'rate_limit' },
      { attempt: 2, status: 500, kind: 'server' },
    ]);
    expect(fake.modelRequests).toHaveLength(3);
  });

  it('a 400 about the context length → prompt_too_long', async () => {
    const { client } = await setup({
      script: [
        reply.error(400, {
          errorType: 'context_length_exceeded',
          message: "This model's maximum context length is 8192 tokens.",
        }),
      ],
    });
    expect((await failure(client.stream(request()))).error.kind).toBe('prompt_too_long');
  });

  it('a malformed stream → malformed_response', async () => {
    const { client } = await setup({ script: [reply.malformed()] });
    expect((await failure(client.stream(request()))).error.kind).toBe('malformed_response');
  });

  it('an error object inside the stream after data is final', async () => {
    const { client, fake } = await setup({
      script: [
        reply.message([text('partial text here')], {
          errorAfterEvents: { events: 2, errorType: 'server_error' },
        }),
      ],
    });
    const { error, events } = await failure(client.stream(request()));
    expect(error.kind).toBe('server');
    expect(events[0]!.type).toBe('message_start');
    expect(fake.modelRequests).toHaveLength(1);
  });

  it('aborting mid-stream ends with kind aborted and closes the connection', async () => {
    const { client, fake } = await setup({ script: [reply.stall({ afterEvents: 2 })] });
    const controller = new AbortController();
    const run = (async () => {
      for await (const e of client.stream(request(), { signal: controller.signal })) {
        if (e.type === 'text_delta') controller.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ kind: 'aborted' });
    await vi.waitFor(() => expect(fake.modelRequests[0]!.clientClosed).toBe(true));
  });
});

describe('OpenAIModelClient (Responses API)', () => {
  it('maps the request to instructions + input items and streams text and a function call', async () => {
    const { client, fake } = await setup(
      {
        script: [
          reply.message([text('Checking.'), toolUse('Read', { file_path: '/r' }, { id: 'call_r' })]),
          reply.text('All good.'),
        ],
      },
      { api: 'responses' },
    );
    const events = await collect(client.stream(request()));
    const stop = stopOf(events);
    expect(stop.message.content).toEqual([
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'call_r', name: 'Read', input: { file_path: '/r' } },
    ]);
    expect(stop.stopReason).toBe('tool_use');
    const first = fake.modelRequests[0]!;
    expect(first.endpoint).toBe('responses');
    expect(first.body).toMatchObject({
      model: 'qwen-coder',
      instructions: 'You are a test agent.\n\nBe brief.',
      input: [{ role: 'user', content: 'Hello' }],
      tools: [
        {
          type: 'function',
          name: 'Read',
          description: 'Reads a file.',
          parameters: READ_TOOL.input_schema,
          strict: false,
        },
      ],
      max_output_tokens: 500,
      store: false,
      stream: true,
    });
    const history: Message[] = [
      { role: 'user', content: 'Hello' },
      stop.message,
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_r', content: 'R' }] },
    ];
    const stop2 = stopOf(await collect(client.stream(request(history))));
    expect(fake.modelRequests[1]!.body.input).toEqual([
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Checking.' },
      { type: 'function_call', call_id: 'call_r', name: 'Read', arguments: '{"file_path":"/r"}' },
      { type: 'function_call_output', call_id: 'call_r', output: 'R' },
    ]);
    expect(stop2.usage.cache_read_input_tokens).toBeGreaterThan(0);
    expect(stop2.usage).toEqual(fake.modelRequests[1]!.usage);
  });

  it('maps an incomplete response (max_output_tokens) to max_tokens', async () => {
    const { client } = await setup(
      { script: [reply.text('trunc', { stopReason: 'max_tokens' })] },
      { api: 'responses' },
    );
    expect(stopOf(await collect(client.stream(request()))).stopReason).toBe('max_tokens');
  });

  it('an error event in the stream is classified by its code', async () => {
    const { client } = await setup(
      {
        script: [
          reply.message([text('x')], { errorAfterEvents: { events: 3, errorType: 'rate_limit_exceeded' } }),
        ],
      },
      { api: 'responses' },
    );
    expect((await failure(client.stream(request()))).error.kind).toBe('rate_limit');
  });
});
