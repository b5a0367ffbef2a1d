/**
 * The Anthropic provider through the real @anthropic-ai/sdk against the scripted fake Messages API
 * (real HTTP and SSE on 127.0.0.1): streaming, tool_use assembly, thinking round trip, server-tool
 * blocks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelStreamEvent } from '../../core/model-client.js';
import { setup, request, collect, failure, last, closeFake } from './test-support.js';
import {
  redactedThinking,
  reply,
  serverToolUse,
  text,
  thinking,
  toolUse,
  webSearchResult,
} from '../../testing/fake-model-script.js';

afterEach(closeFake);

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

describe('AnthropicModelClient server-tool blocks', () => {
  it('carries server_tool_use and web_search_tool_result through in responseContent, outside the message', async () => {
    const { client, fake } = await setup({
      script: [
        reply.message([
          serverToolUse('web_search', { query: 'gantry docs' }, { id: 'srvtoolu_1' }),
          webSearchResult([{ title: 'Gantry', url: 'https://example.org/gantry', page_age: '2026-01-02' }]),
          text('Found one page.'),
          serverToolUse('web_search', { query: 'second' }, { id: 'srvtoolu_2' }),
          webSearchResult({ error_code: 'max_uses_exceeded' }),
        ]),
      ],
    });
    const tool = { type: 'web_search_20250305', name: 'web_search', max_uses: 8 };
    const events = await collect(
      client.stream(request(undefined, { tools: [], extra: { anthropic: { tools: [tool] } } })),
    );
    expect(fake.messageRequests[0]?.body.tools).toEqual([tool]);
    // Only the text block gets content_block events; the server blocks stay out of the message.
    expect(events.filter((e) => e.type === 'content_block_start').map((e) => e.index)).toEqual([2]);
    const stop = events.at(-1);
    if (stop?.type !== 'message_stop') throw new Error('no message_stop');
    expect(stop.message.content).toEqual([{ type: 'text', text: 'Found one page.' }]);
    expect(stop.responseContent).toEqual([
      { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'gantry docs' } },
      {
        type: 'web_search_tool_result',
        tool_use_id: 'srvtoolu_1',
        content: [
          {
            type: 'web_search_result',
            title: 'Gantry',
            url: 'https://example.org/gantry',
            page_age: '2026-01-02',
            encrypted_content: 'enc_fake_0',
          },
        ],
      },
      { type: 'text', text: 'Found one page.' },
      { type: 'server_tool_use', id: 'srvtoolu_2', name: 'web_search', input: { query: 'second' } },
      {
        type: 'web_search_tool_result',
        tool_use_id: 'srvtoolu_2',
        content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' },
      },
    ]);
  });

  it('a response without server blocks has no responseContent', async () => {
    const { client } = await setup({ script: [reply.text('Plain.')] });
    const stop = (await collect(client.stream(request()))).at(-1);
    expect(stop?.type === 'message_stop' && 'responseContent' in stop).toBe(false);
  });

  it('another server tool block type is still malformed', async () => {
    const { client } = await setup({
      script: [
        reply.malformed(
          JSON.stringify({
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'code_execution_tool_result' },
          }),
        ),
      ],
    });
    const { error } = await failure(client.stream(request()));
    expect(error.kind).toBe('malformed_response');
  });
});
