/**
 * The fake model servers themselves: wire framing as the real APIs send it (read with plain
 * fetch, no SDK), scripting (routes, functions, exhaustion), recording, and the simulated
 * prompt cache's rules.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from './fake-anthropic-server.js';
import { agentIdOf, lastUserText, reply, systemText, text, toolUse } from './fake-model-script.js';
import { type FakeOpenAIServer, startFakeOpenAIServer } from './fake-openai-server.js';
import { anthropicCacheUnits, canonicalJson, FakePromptCache } from './fake-prompt-cache.js';

let anthropic: FakeAnthropicServer | undefined;
let openai: FakeOpenAIServer | undefined;
afterEach(async () => {
  await anthropic?.close();
  await openai?.close();
  anthropic = undefined;
  openai = undefined;
});

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

const userBody = (content: string, extra: Record<string, unknown> = {}) => ({
  model: 'claude-test',
  max_tokens: 10,
  stream: true,
  messages: [{ role: 'user', content }],
  ...extra,
});

describe('fake Anthropic server: wire format', () => {
  it('streams event/data SSE frames in the Messages API order', async () => {
    anthropic = await startFakeAnthropicServer({
      script: [
        reply.message([text('hi'), toolUse('Read', { a: 1 }, { id: 'toolu_1' })], { chunkChars: 100 }),
      ],
    });
    const res = await post(`${anthropic.url}/v1/messages?beta=true`, userBody('x'));
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const raw = await res.text();
    const frames = raw.trim().split('\n\n');
    const names = frames.map((f) => f.split('\n')[0]);
    expect(names).toEqual([
      'event: message_start',
      'event: ping',
      'event: content_block_start',
      'event: content_block_delta',
      'event: content_block_stop',
      'event: content_block_start',
      'event: content_block_delta',
      'event: content_block_stop',
      'event: message_delta',
      'event: message_stop',
    ]);
    const data = frames.map((f) => JSON.parse(f.split('\n')[1]!.slice('data: '.length)));
    expect(data.map((d) => d.type)).toEqual(names.map((n) => n!.slice('event: '.length)));
    expect(data[5].content_block).toEqual({ type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} });
    expect(data[6].delta).toEqual({ type: 'input_json_delta', partial_json: '{"a":1}' });
    expect(data[8].delta.stop_reason).toBe('tool_use');
  });

  it('answers stream:false with the whole message, count_tokens with an estimate, unknown paths with 404', async () => {
    anthropic = await startFakeAnthropicServer({ script: [reply.text('whole')] });
    const whole = await (await post(`${anthropic.url}/v1/messages`, userBody('x', { stream: false }))).json();
    expect(whole).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'whole' }],
    });
    const count = (await (
      await post(`${anthropic.url}/v1/messages/count_tokens`, userBody('x'.repeat(400)))
    ).json()) as any;
    expect(count.input_tokens).toBeGreaterThanOrEqual(100);
    const missing = await post(`${anthropic.url}/v1/other`, {});
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).error.type).toBe('not_found_error');
  });

  it('requires the key when one is configured (x-api-key or bearer)', async () => {
    anthropic = await startFakeAnthropicServer({ apiKey: 'k1', script: [reply.text('a'), reply.text('b')] });
    expect((await post(`${anthropic.url}/v1/messages`, userBody('x'))).status).toBe(401);
    expect((await post(`${anthropic.url}/v1/messages`, userBody('x'), { 'x-api-key': 'k1' })).status).toBe(
      200,
    );
    expect(
      (await post(`${anthropic.url}/v1/messages`, userBody('x'), { authorization: 'Bearer k1' })).status,
    ).toBe(200);
  });

  it('sends scripted HTTP errors with the API’s error body and headers', async () => {
    anthropic = await startFakeAnthropicServer({ script: [reply.rateLimited({ seconds: 7 })] });
    const res = await post(`${anthropic.url}/v1/messages`, userBody('x'));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.headers.get('request-id')).toMatch(/^req_fake_/);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });
});

describe('fake servers: scripting and recording', () => {
  it('routes by agent id and system prompt, calls script functions with the request, and fails loudly when exhausted', async () => {
    anthropic = await startFakeAnthropicServer({
      script: [(r) => reply.text(`main saw: ${lastUserText(r.body)}`)],
      routes: [
        {
          name: 'subagent',
          when: (r) => agentIdOf(r) === 'a1',
          script: [reply.text('sub 1'), reply.text('sub 2')],
        },
        {
          name: 'reviewer',
          when: (r) => systemText(r.body).includes('reviewer'),
          script: () => reply.text('reviewed'),
        },
      ],
    });
    const send = async (body: unknown, headers: Record<string, string> = {}) =>
      (await (
        await post(`${anthropic!.url}/v1/messages`, { ...(body as object), stream: false }, headers)
      ).json()) as any;
    expect((await send(userBody('hello'))).content[0].text).toBe('main saw: hello');
    expect((await send(userBody('x'), { 'x-claude-code-agent-id': 'a1' })).content[0].text).toBe('sub 1');
    expect((await send(userBody('x'), { 'x-gantry-agent-id': 'a1' })).content[0].text).toBe('sub 2');
    expect(
      (await send(userBody('x', { system: [{ type: 'text', text: 'You are a reviewer.' }] }))).content[0]
        .text,
    ).toBe('reviewed');
    const exhausted = await send(userBody('x'));
    expect(exhausted.error.message).toContain('script has no reply left');
    const routeOut = await send(userBody('x'), { 'x-gantry-agent-id': 'a1' });
    expect(routeOut.error.message).toContain('route "subagent" has no reply left');
    expect(anthropic.messageRequests.map((r) => r.route ?? 'main')).toEqual([
      'main',
      'subagent',
      'subagent',
      'reviewer',
      'main',
      'subagent',
    ]);
    expect(anthropic.messageRequests[1]!.headers['x-claude-code-agent-id']).toBe('a1');
  });

  it('enqueue appends to the main script', async () => {
    anthropic = await startFakeAnthropicServer();
    anthropic.enqueue(reply.text('late'));
    expect(anthropic.remaining).toBe(1);
    const res = (await (
      await post(`${anthropic.url}/v1/messages`, userBody('x', { stream: false }))
    ).json()) as any;
    expect(res.content[0].text).toBe('late');
    expect(anthropic.remaining).toBe(0);
  });
});

describe('fake OpenAI server: wire format', () => {
  it('streams data-only chunks, a usage chunk only when asked, then [DONE]', async () => {
    openai = await startFakeOpenAIServer({ script: [reply.text('hey'), reply.text('again')] });
    const body = { model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] };
    const withUsage = await (
      await post(`${openai.url}/v1/chat/completions`, { ...body, stream_options: { include_usage: true } })
    ).text();
    const frames = withUsage.trim().split('\n\n');
    expect(frames.every((f) => f.startsWith('data: '))).toBe(true);
    expect(frames.at(-1)).toBe('data: [DONE]');
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.slice(6)));
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) } });
    const without = await (await post(`${openai.url}/chat/completions`, body)).text();
    expect(without).not.toContain('"usage"');
  });

  it('streams Responses API events with event names', async () => {
    openai = await startFakeOpenAIServer({ script: [reply.toolUse('Read', { p: 1 }, { id: 'call_1' })] });
    const raw = await (
      await post(`${openai.url}/v1/responses`, { model: 'm', stream: true, input: 'x' })
    ).text();
    const types = raw
      .trim()
      .split('\n\n')
      .map((f) => f.split('\n')[0]);
    expect(types).toEqual([
      'event: response.created',
      'event: response.in_progress',
      'event: response.output_item.added',
      'event: response.function_call_arguments.delta',
      'event: response.function_call_arguments.done',
      'event: response.output_item.done',
      'event: response.completed',
    ]);
  });
});

describe('simulated prompt cache', () => {
  it('canonical JSON sorts keys, ignores cache_control, and a string message equals its one-block form', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}');
    const asString = anthropicCacheUnits({ messages: [{ role: 'user', content: 'hi' }] });
    const asBlock = anthropicCacheUnits({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] },
      ],
    });
    expect(asString.map((u) => u.key)).toEqual(asBlock.map((u) => u.key));
    expect(asBlock[0]!.breakpoint).toBe(true);
  });

  const body = (n: number, markLast: boolean) => ({
    system: [{ type: 'text', text: 'system prompt '.repeat(50), cache_control: { type: 'ephemeral' } }],
    messages: [
      {
        role: 'user',
        content: Array.from({ length: n }, (_, i) => ({
          type: 'text',
          text: `block ${i} `.repeat(10),
          ...(markLast && i === n - 1 ? { cache_control: { type: 'ephemeral' } } : {}),
        })),
      },
    ],
  });

  it('reads a prefix cached by an earlier request within 20 blocks of a breakpoint', () => {
    const cache = new FakePromptCache();
    const first = cache.explicit('m', anthropicCacheUnits(body(5, true)));
    expect(first.cache_read_input_tokens).toBe(0);
    expect(first.cache_creation_input_tokens).toBe(first.total_tokens);
    const second = cache.explicit('m', anthropicCacheUnits(body(20, true)));
    expect(second.cache_read_input_tokens).toBe(first.total_tokens);
    expect(second.input_tokens).toBe(0);
    expect(second.cache_read_input_tokens + second.cache_creation_input_tokens).toBe(second.total_tokens);
  });

  it('misses the earlier prefix when the new breakpoint is more than 20 blocks past it (falls back to the system breakpoint)', () => {
    const cache = new FakePromptCache();
    const system = cache.explicit('m', anthropicCacheUnits(body(0, false)));
    cache.explicit('m', anthropicCacheUnits(body(2, true)));
    const far = cache.explicit('m', anthropicCacheUnits(body(30, true)));
    expect(far.cache_read_input_tokens).toBe(system.total_tokens);
  });

  it('a different model, or a prefix below minCacheableTokens, is never read', () => {
    const cache = new FakePromptCache({ minCacheableTokens: 100_000 });
    cache.explicit('m', anthropicCacheUnits(body(3, true)));
    expect(cache.explicit('m', anthropicCacheUnits(body(3, true))).cache_read_input_tokens).toBe(0);
    const plain = new FakePromptCache();
    plain.explicit('m', anthropicCacheUnits(body(3, true)));
    expect(plain.explicit('other', anthropicCacheUnits(body(3, true))).cache_read_input_tokens).toBe(0);
    expect(plain.explicit('m', anthropicCacheUnits(body(3, true))).cache_read_input_tokens).toBeGreaterThan(
      0,
    );
  });

  it('without breakpoints nothing is read or written', () => {
    const cache = new FakePromptCache();
    const unmarked = { messages: [{ role: 'user', content: 'x'.repeat(400) }] };
    cache.explicit('m', anthropicCacheUnits(unmarked));
    const again = cache.explicit('m', anthropicCacheUnits(unmarked));
    expect(again).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
    expect(again.input_tokens).toBe(again.total_tokens);
  });
});
