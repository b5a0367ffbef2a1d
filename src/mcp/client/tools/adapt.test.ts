/**
 * Adapting MCP tools without a server: model-visible names, the schema the model sees, hints,
 * `_meta`, and effects read from argument names. docs/mcp-client.md "Adapting tools" and
 * "Effects from schemas".
 */
import path from 'node:path';
import type { Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { modelMcpToolName } from '../../../core/mcp-names.js';
import { fsPathResolver } from '../../../core/paths.js';
import { allowAllDecider } from '../../../runtime/deciders.js';
import { createToolRuntime } from '../../../runtime/index.js';
import { makeTestSession } from '../../../testing/tool-harness.js';
import { adaptMcpTool, MAX_MCP_DESCRIPTION_CHARS, modelInputSchema } from './adapt.js';
import { argumentRoles, describeMcpCall } from './describe.js';

const backend = { callTool: async () => ({ content: [] }), toolTimeoutMs: 1000 };
const adapt = (tool: Partial<SdkTool> & { name: string }, serverName = 'srv') =>
  adaptMcpTool({ inputSchema: { type: 'object' }, ...tool } as SdkTool, {
    serverName,
    backend,
    maxOutputTokens: 25_000,
  });

describe('model-visible names', () => {
  it.each([
    [
      'gen',
      'odd.name with spaces/and-slash',
      'mcp__gen__odd_name_with_spaces_and-slash',
      'each character outside [A-Za-z0-9_-] becomes _',
    ],
    ['gen', 'ünïcödé_tööl', 'mcp__gen___n_c_d__t__l', 'one _ per non-ASCII character'],
    ['everything', 'get-sum', 'mcp__everything__get-sum', 'hyphens are kept'],
    ['my server', 'x', 'mcp__my_server__x', 'the server part too'],
    ['s', 'a'.repeat(70), `mcp__s__${'a'.repeat(70)}`, 'long names are not cut'],
  ])('%s / %s → %s (%s)', (server, tool, expected, _why) => {
    expect(modelMcpToolName(server, tool)).toBe(expected);
    expect(adapt({ name: tool }, server).name).toBe(expected);
  });
});

describe('the adapted tool', () => {
  it('passes an object schema through verbatim and flattens a root anyOf for the model', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      $schema: 'http://json-schema.org/draft-07/schema#',
    };
    expect(adapt({ name: 't', inputSchema: schema as SdkTool['inputSchema'] }).inputJSONSchema).toBe(schema);
    expect(
      modelInputSchema({
        anyOf: [
          { type: 'object', properties: { a: { type: 'string' } } },
          { type: 'object', properties: { b: { type: 'number' } } },
        ],
      }),
    ).toEqual({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } });
  });

  it('validates against the server schema', () => {
    const t = adapt({
      name: 't',
      inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    });
    expect(t.inputSchema.safeParse({ n: 1 }).success).toBe(true);
    expect(t.inputSchema.safeParse({ n: 'x' }).success).toBe(false);
  });

  it.each([
    [{}, { readOnly: false, safe: false, destructive: false, openWorld: false }, 'no hints: fail closed'],
    [
      { readOnlyHint: true },
      { readOnly: true, safe: true, destructive: false, openWorld: false },
      'read-only is also concurrency-safe',
    ],
    [
      { destructiveHint: true, openWorldHint: true },
      { readOnly: false, safe: false, destructive: true, openWorld: true },
      'destructive and open world',
    ],
  ])('hints %j → %j (%s)', (annotations, expected, _why) => {
    const t = adapt({ name: 't', annotations });
    expect({
      readOnly: t.isReadOnly({}),
      safe: t.isConcurrencySafe({}),
      destructive: t.isDestructive({}),
      openWorld: t.isOpenWorld?.({}),
    }).toEqual(expected);
  });

  it('honours _meta and cuts long descriptions', () => {
    const t = adapt({
      name: 't',
      description: 'd'.repeat(5000),
      _meta: {
        'anthropic/alwaysLoad': true,
        'anthropic/searchHint': 'hint words',
        'anthropic/maxResultSizeChars': 900_000,
      },
    });
    expect(t.alwaysLoad).toBe(true);
    expect(t.searchHint).toBe('hint words');
    expect(t.maxResultSizeChars).toBe(Number.POSITIVE_INFINITY);
    expect(t.description.length).toBe(MAX_MCP_DESCRIPTION_CHARS);
    expect(adapt({ name: 'u' }).maxResultSizeChars).toBe(100_000);
    expect(
      adaptMcpTool(
        { name: 'v', inputSchema: { type: 'object' } },
        { serverName: 's', backend, maxOutputTokens: 1, serverAlwaysLoad: true },
      ).alwaysLoad,
    ).toBe(true);
  });
});

describe('effects from schemas', () => {
  const world = { cwd: '/p', home: '/h', resolver: fsPathResolver };
  const schema = (properties: Record<string, unknown>) => ({ type: 'object', properties });
  const info = (
    props: Record<string, unknown>,
    extra: { name?: string; description?: string; readOnly?: boolean } = {},
  ) => ({
    toolName: extra.name ?? 'do_it',
    toolDescription: extra.description ?? '',
    inputSchema: schema(props),
    readOnlyHint: extra.readOnly === true,
  });
  const effects = (i: ReturnType<typeof info>, input: Record<string, unknown>) =>
    describeMcpCall(i, input, world).effects.map((e) => [e.kind, e.target, e.certainty]);

  it.each([
    [
      { path: { type: 'string' } },
      { path: '.env' },
      {},
      [['write', '/p/.env', 'known']],
      'path of a tool without a read-only hint: write',
    ],
    [
      { path: { type: 'string' } },
      { path: 'a.txt' },
      { readOnly: true },
      [['read', '/p/a.txt', 'known']],
      'read-only hint: read',
    ],
    [{ file_path: {} }, { file_path: '~/x' }, {}, [['write', '/h/x', 'known']], 'file_path, with ~'],
    [{ filePath: {} }, { filePath: '/abs' }, {}, [['write', '/abs', 'known']], 'camelCase filePath'],
    [
      { paths: { type: 'array' } },
      { paths: ['a', 'b'] },
      { readOnly: true },
      [
        ['read', '/p/a', 'known'],
        ['read', '/p/b', 'known'],
      ],
      'an array of paths',
    ],
    [{ directory: {} }, { directory: 'd' }, {}, [['write', '/p/d', 'known']], 'directory'],
    [
      { source: {}, destination: {} },
      { source: 'a', destination: 'b' },
      { name: 'move_file' },
      [
        ['write', '/p/a', 'known'],
        ['write', '/p/b', 'known'],
      ],
      'source/destination when the tool is about files',
    ],
    [
      { source: {}, destination: {} },
      { source: 'a', destination: 'b' },
      { name: 'convert_currency' },
      [],
      'source/destination of a tool not about files',
    ],
    [
      { target: { description: 'Directory to create' } },
      { target: 'x' },
      {},
      [['write', '/p/x', 'known']],
      'target described as a directory',
    ],
    [
      { url: {} },
      { url: 'https://api.example.com/v1' },
      {},
      [['network', 'api.example.com', 'known']],
      'a URL is a network effect on its host',
    ],
    [
      { uri: {} },
      { uri: 'file:///etc/passwd' },
      { readOnly: true },
      [['read', '/etc/passwd', 'known']],
      'a file: URI is a file effect',
    ],
    [
      { uri: {} },
      { uri: 'demo://resource/1' },
      {},
      [],
      "a server's own scheme names nothing on this machine",
    ],
    [
      { path: {} },
      { path: { nested: 1 } },
      {},
      [['write', '{"nested":1}', 'unknown']],
      'a path that is not a string: unknown (asks)',
    ],
    [{ path: {} }, { path: '' }, {}, [['write', '', 'unknown']], 'an empty path: unknown'],
    [{ path: {} }, {}, {}, [], 'absent: nothing'],
    [{ query: {} }, { query: '/etc/passwd' }, {}, [], 'other names are not paths, whatever their value'],
  ])('%#: %$', (props, input, extra, expected, _why) => {
    expect(effects(info(props, extra), input)).toEqual(expected);
  });

  it('never describes a call as read-only, and names the arguments in the summary', () => {
    const d = describeMcpCall(info({ path: {} }, { readOnly: true }), { path: 'a' }, world);
    expect(d.readOnly).toBe(false);
    expect(d.summary).toBe('do_it path=a');
    expect([...argumentRoles(info({ path: {}, urls: {}, n: {} })).entries()]).toEqual([
      ['path', 'path'],
      ['urls', 'url-list'],
    ]);
    expect(path.isAbsolute(d.effects[0]?.target ?? '')).toBe(true);
  });
});

describe('progress is asked for only when someone reads it', () => {
  // The request carries a progress token (the backend gets `onProgress`) only when the call's
  // progress reaches someone: the host's `onProgress` sink or a streamed turn's updates. A
  // one-call `runToolsToCompletion` without a sink asks for none (docs/mcp-client.md §8.3).
  const progressBackend = (asked: boolean[]) => ({
    toolTimeoutMs: 1000,
    callTool: async (
      _name: string,
      _args: Record<string, unknown>,
      options: { onProgress?: (p: { progress: number; total?: number }) => void },
    ) => {
      asked.push(options.onProgress !== undefined);
      options.onProgress?.({ progress: 1, total: 2 });
      await new Promise((r) => setTimeout(r, 5));
      return { content: [{ type: 'text' as const, text: 'done' }] };
    },
  });
  const setup = async (onProgress?: (e: unknown) => void) => {
    const session = await makeTestSession();
    const asked: boolean[] = [];
    const t = adaptMcpTool({ name: 'work', inputSchema: { type: 'object' } } as SdkTool, {
      serverName: 'srv',
      backend: progressBackend(asked),
      maxOutputTokens: 25_000,
    });
    const runtime = createToolRuntime({
      tools: [t],
      cwd: session.root,
      sessionDir: session.sessionDir,
      decide: allowAllDecider,
      env: {},
      ...(onProgress ? { onProgress } : {}),
    });
    return { session, asked, runtime };
  };
  const use = (id: string) => ({ type: 'tool_use' as const, id, name: 'mcp__srv__work', input: {} });

  it.each([
    ['runToolsToCompletion, no sink', false, false, 'nobody sees progress: none is asked for'],
    ['runToolsToCompletion, a host sink', true, false, 'the sink gets the events'],
    ['runTools (streamed), no sink', false, true, 'the update stream carries the events'],
  ] as const)('%s', async (_label, withSink, streamed, _why) => {
    const seen: unknown[] = [];
    const { session, asked, runtime } = await setup(withSink ? (e) => seen.push(e) : undefined);
    try {
      if (streamed) {
        const gen = runtime.runTools([use('toolu_1'), use('toolu_2')]);
        for (let step = await gen.next(); !step.done; step = await gen.next())
          if (step.value.type === 'progress') seen.push(step.value.event);
      } else {
        const turn = await runtime.runToolsToCompletion([use('toolu_1')]);
        expect(turn.results[0]?.is_error).toBeUndefined();
      }
      const observed = withSink || streamed;
      expect(asked.every((a) => a === observed)).toBe(true);
      expect(seen.length > 0).toBe(observed);
    } finally {
      await session.cleanup();
    }
  });
});
