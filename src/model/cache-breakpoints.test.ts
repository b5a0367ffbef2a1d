/**
 * Breakpoint placement (pure) and its effect on the simulated prompt cache through the real SDK:
 * the marker moves to the last block each turn and the second request reads the first one's prefix.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Message, SystemBlock } from '../core/messages.js';
import type { ModelRequest } from '../core/model-client.js';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../testing/fake-anthropic-server.js';
import { reply } from '../testing/fake-model-script.js';
import { AnthropicModelClient } from './anthropic/client.js';
import { placeCacheBreakpoints } from './cache-breakpoints.js';

const EPH = { type: 'ephemeral' };

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object') {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

describe('placeCacheBreakpoints', () => {
  const system: SystemBlock[] = [
    { type: 'text', text: 'identity' },
    { type: 'text', text: 'main prompt' },
  ];

  it('marks the last system block when the caller marked none, and a single-string last message as a one-block array', () => {
    const messages: Message[] = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: [{ type: 'text', text: 'reply' }] },
      { role: 'user', content: 'second' },
    ];
    const out = placeCacheBreakpoints(deepFreeze(system), deepFreeze(messages));
    expect(out.system).toEqual([
      { type: 'text', text: 'identity' },
      { type: 'text', text: 'main prompt', cache_control: EPH },
    ]);
    expect(out.messages).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: [{ type: 'text', text: 'reply' }] },
      { role: 'user', content: [{ type: 'text', text: 'second', cache_control: EPH }] },
    ]);
    expect(out.breakpoints).toEqual([
      ['system', 1],
      ['messages', 2, 'content', 0],
    ]);
  });

  it.each([
    {
      why: 'a tool_result message: the last tool_result carries the marker, stale markers elsewhere are removed',
      last: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'a', content: 'x', cache_control: EPH },
          { type: 'tool_result', tool_use_id: 'b', content: 'y' },
        ],
      },
      expected: [
        { type: 'tool_result', tool_use_id: 'a', content: 'x' },
        { type: 'tool_result', tool_use_id: 'b', content: 'y', cache_control: EPH },
      ],
      at: 1,
    },
    {
      why: 'a tool_result followed by a text sibling: the trailing text carries it',
      last: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'a', content: 'x' },
          { type: 'text', text: 'Tool loaded.' },
        ],
      },
      expected: [
        { type: 'tool_result', tool_use_id: 'a', content: 'x' },
        { type: 'text', text: 'Tool loaded.', cache_control: EPH },
      ],
      at: 1,
    },
    {
      why: 'thinking blocks and empty text cannot carry a marker: the last block that can does',
      last: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'prefill' },
          { type: 'thinking', thinking: 't', signature: 's' },
          { type: 'text', text: '' },
        ],
      },
      expected: [
        { type: 'text', text: 'prefill', cache_control: EPH },
        { type: 'thinking', thinking: 't', signature: 's' },
        { type: 'text', text: '' },
      ],
      at: 0,
    },
  ])('$why', ({ last, expected, at }) => {
    const messages = [{ role: 'user', content: 'hi' }, last] as unknown as Message[];
    const out = placeCacheBreakpoints(system, deepFreeze(messages));
    expect(out.messages[1]!.content).toEqual(expected);
    expect(out.breakpoints.at(-1)).toEqual(['messages', 1, 'content', at]);
  });

  it('keeps the caller’s system markers (at most the last 3) and places no default one', () => {
    const marked: SystemBlock[] = [
      { type: 'text', text: 'a', cache_control: { type: 'ephemeral', ttl: '1h' } },
      { type: 'text', text: 'b', cache_control: EPH as SystemBlock['cache_control'] },
      { type: 'text', text: 'c', cache_control: EPH as SystemBlock['cache_control'] },
      { type: 'text', text: 'd', cache_control: EPH as SystemBlock['cache_control'] },
      { type: 'text', text: 'volatile' },
    ];
    const out = placeCacheBreakpoints(marked, [{ role: 'user', content: 'x' }]);
    expect(out.system.map((b) => b.cache_control ?? null)).toEqual([null, EPH, EPH, EPH, null]);
    expect(out.breakpoints).toHaveLength(4);
  });

  it('enabled: false strips every marker and converts nothing', () => {
    const out = placeCacheBreakpoints(
      [{ type: 'text', text: 's', cache_control: EPH as SystemBlock['cache_control'] }],
      [{ role: 'user', content: 'x' }],
      { enabled: false },
    );
    expect(out.system).toEqual([{ type: 'text', text: 's' }]);
    expect(out.messages).toEqual([{ role: 'user', content: 'x' }]);
    expect(out.breakpoints).toEqual([]);
  });

  it('sharedPrefixEnd keeps a second message marker before the moving one, and the system keeps at most 2', () => {
    const system: SystemBlock[] = ['a', 'b', 'c'].map((text) => ({
      type: 'text' as const,
      text,
      cache_control: EPH as SystemBlock['cache_control'],
    }));
    const messages = deepFreeze([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Agent', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'placeholder' },
          { type: 'text', text: 'Your directive: count' },
        ],
      },
    ]) as unknown as Message[];
    const out = placeCacheBreakpoints(system, messages, { sharedPrefixEnd: { message: 2, block: 0 } });
    expect(out.breakpoints).toEqual([
      ['system', 1],
      ['system', 2],
      ['messages', 2, 'content', 0],
      ['messages', 2, 'content', 1],
    ]);
    expect(JSON.stringify(out).split('"cache_control"').length - 1).toBe(4);
    expect((out.messages[2]!.content as any[])[0].cache_control).toEqual(EPH);
  });

  it.each([
    ['the block is the moving marker itself', { message: 2, block: 1 }],
    ['the block lies after the moving marker', { message: 2, block: 5 }],
    ['the message does not exist (after a compaction)', { message: 9, block: 0 }],
  ])('sharedPrefixEnd is ignored when %s', (_reason, at) => {
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
    ] as unknown as Message[];
    const out = placeCacheBreakpoints([{ type: 'text', text: 's' }], messages, { sharedPrefixEnd: at });
    expect(out.breakpoints).toEqual([
      ['system', 0],
      ['messages', 2, 'content', 1],
    ]);
  });

  it('an empty last message gets no marker', () => {
    const out = placeCacheBreakpoints([], [{ role: 'user', content: '' }]);
    expect(out.messages).toEqual([{ role: 'user', content: '' }]);
    expect(out.breakpoints).toEqual([]);
  });
});

describe('prompt caching across turns (real SDK, simulated cache)', () => {
  let fake: FakeAnthropicServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('moves the breakpoint each turn and the next request reads the previous prefix from the cache', async () => {
    fake = await startFakeAnthropicServer({
      script: [reply.toolUse('Read', { file_path: '/a' }, { id: 'toolu_1' }), reply.text('done')],
    });
    const client = new AnthropicModelClient({ apiKey: 'k', baseURL: fake.url });
    const base: Omit<ModelRequest, 'messages'> = {
      model: 'sonnet',
      system: [
        { type: 'text', text: 'You are Gantry, a coding agent.' },
        { type: 'text', text: 'Long stable guidance. '.repeat(200) },
      ],
      tools: [
        {
          name: 'Read',
          description: 'Read a file.',
          input_schema: { type: 'object', properties: { file_path: { type: 'string' } } },
        },
      ],
      maxTokens: 1000,
    };
    const history: Message[] = [{ role: 'user', content: 'Read /a please.' }];
    let first: Message | undefined;
    for await (const e of client.stream({ ...base, messages: history })) {
      if (e.type === 'message_stop') first = e.message;
    }
    history.push(first!, {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'file contents' }],
    });
    for await (const _ of client.stream({ ...base, messages: history })) {
      // drain
    }
    const [r1, r2] = fake.messageRequests;
    // Turn 1: the prompt is a one-block array with the marker; turn 2: back to a string, marker on the tool_result.
    expect(r1!.body.messages[0]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Read /a please.', cache_control: EPH }],
    });
    expect(r2!.body.messages[0]).toEqual({ role: 'user', content: 'Read /a please.' });
    expect(r2!.body.messages[2].content[0].cache_control).toEqual(EPH);
    const markers = (body: unknown) => JSON.stringify(body).split('"cache_control"').length - 1;
    expect(markers(r1!.body)).toBe(2);
    expect(markers(r2!.body)).toBe(2);
    // Turn 1 writes everything up to its last breakpoint; turn 2 reads exactly that back.
    expect(r1!.usage!.cache_read_input_tokens).toBe(0);
    expect(r1!.usage!.cache_creation_input_tokens).toBeGreaterThan(400);
    expect(r2!.usage!.cache_read_input_tokens).toBe(r1!.usage!.cache_creation_input_tokens);
    expect(r2!.usage!.cache_creation_input_tokens).toBeGreaterThan(0);
    const total2 =
      r2!.usage!.input_tokens + r2!.usage!.cache_creation_input_tokens + r2!.usage!.cache_read_input_tokens;
    expect(r2!.usage!.cache_read_input_tokens / total2).toBeGreaterThan(0.9);
  });
});
