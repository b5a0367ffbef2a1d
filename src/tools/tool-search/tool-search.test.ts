/**
 * ToolSearch: the deferral order, the scoring table (weights per signal, ties), `select:`, `+`
 * terms, and the tool's result shape (tool_reference blocks, the sibling text, the miss text,
 * `discoveredToolNames`). docs/mcp-client.md "ToolSearch scoring".
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyTool, buildTool } from '../../core/index.js';
import { allowAllDecider, createToolRuntime } from '../../runtime/index.js';
import { makeTempDir } from '../../testing/tool-harness.js';
import { isDeferredTool } from './is-deferred.js';
import { nameParts, parseQuery, searchEntry, searchTools, termScore, WEIGHTS } from './scoring.js';
import { createToolSearchTool, NO_MATCH_TEXT, ToolSearchTool } from './tool-search.tool.js';

function tool(name: string, extra: Record<string, unknown> = {}): AnyTool {
  return buildTool({
    name,
    description: `${name} tool.`,
    inputSchema: z.strictObject({}),
    async *call() {
      return { data: '' };
    },
    ...extra,
  });
}
const mcp = (server: string, name: string, description = '', extra: Record<string, unknown> = {}) =>
  tool(`mcp__${server}__${name}`, {
    isMcp: true,
    description,
    mcpInfo: { serverName: server, toolName: name },
    ...extra,
  });

describe('isDeferredTool, in order', () => {
  it.each([
    [mcp('s', 'a', '', { alwaysLoad: true }), {}, false, 'alwaysLoad wins even for an MCP tool'],
    [mcp('s', 'a'), {}, true, 'MCP tools defer'],
    [tool('ToolSearch', { shouldDefer: true }), {}, false, 'ToolSearch never defers, whatever it declares'],
    [
      tool('Agent', { shouldDefer: true }),
      { forkSubagentEnabled: true },
      false,
      'Agent is needed on turn 1 with forks',
    ],
    [tool('Agent', { shouldDefer: true }), {}, true, 'without forks, Agent follows shouldDefer'],
    [tool('NotebookEdit', { shouldDefer: true }), {}, true, 'low-use built-ins defer by shouldDefer'],
    [tool('Bash'), {}, false, 'core built-ins do not defer'],
  ])('%#: %$', (t, options, expected, _why) => {
    expect(isDeferredTool(t as AnyTool, options)).toBe(expected);
  });
});

describe('name parts', () => {
  it.each([
    ['mcp__github__create_pull_request', ['github', 'create', 'pull', 'request'], 'server and tool parts'],
    ['NotebookEdit', ['notebook', 'edit'], 'camel case'],
    ['mcp__everything__get-sum', ['everything', 'get', 'sum'], 'hyphens'],
    ['WebFetch', ['web', 'fetch'], 'two words'],
    ['mcp__srv__HTTPRequest', ['srv', 'http', 'request'], 'an acronym before a word'],
  ])('%s → %j (%s)', (name, parts, _why) => {
    expect(nameParts(name)).toEqual(parts);
  });
});

describe('scoring weights, one term at a time', () => {
  const slack = searchEntry(mcp('slack', 'send_message', 'Send a message to a channel.'));
  const notebook = searchEntry(tool('NotebookEdit', { description: 'Edit a Jupyter notebook cell.' }));
  const hinted = searchEntry(mcp('kb', 'lookup', '', { searchHint: 'wiki knowledge base' }));
  it.each([
    [slack, 'send', WEIGHTS.exactPartMcp + WEIGHTS.descriptionWord, 'exact MCP part + description word'],
    [slack, 'slack', WEIGHTS.exactPartMcp, 'the server name is a part'],
    [slack, 'mess', WEIGHTS.partialPartMcp, 'partial MCP part; "mess" is not a word of the description'],
    [slack, 'channel', WEIGHTS.descriptionWord, 'description only'],
    [slack, 'chan', 0, 'a partial word of the description does not count'],
    [slack, 'send_message', WEIGHTS.fullName, 'a term spanning parts matches the full name'],
    [notebook, 'notebook', WEIGHTS.exactPartBuiltIn + WEIGHTS.descriptionWord, 'exact built-in part'],
    [notebook, 'note', WEIGHTS.partialPartBuiltIn, 'partial built-in part'],
    [notebook, 'jupyter', WEIGHTS.descriptionWord, 'built-in description'],
    [hinted, 'wiki', WEIGHTS.searchHint, 'search hint word'],
    [hinted, 'zzz', 0, 'nothing matches'],
  ])('%#: %$', (entry, term, expected, _why) => {
    expect(termScore(entry, term as string)).toBe(expected);
  });
  it('the weights are the documented ones', () => {
    expect(WEIGHTS).toEqual({
      exactPartMcp: 12,
      exactPartBuiltIn: 10,
      partialPartMcp: 6,
      partialPartBuiltIn: 5,
      searchHint: 4,
      fullName: 3,
      descriptionWord: 2,
    });
  });
});

describe('queries', () => {
  const tools = [
    mcp('github', 'create_pull_request', 'Open a pull request.'),
    mcp('github', 'merge_pull_request', 'Merge a pull request.'),
    mcp('github', 'create_issue', 'Open an issue.'),
    mcp('gitlab', 'create_merge_request', 'Open a merge request.'),
    mcp('slack', 'send_message', 'Send a message.'),
    mcp('weather', 'forecast', 'Weather forecast for a city.', { searchHint: 'rain temperature' }),
    tool('NotebookEdit', { description: 'Edit a Jupyter notebook.' }),
    tool('WebFetch', { description: 'Fetch a URL.' }),
  ];
  const run = (q: string, max = 5) => searchTools(tools, q, max).map((r) => r.tool.name);
  it.each([
    [
      'pull request',
      [
        'mcp__github__create_pull_request',
        'mcp__github__merge_pull_request',
        'mcp__gitlab__create_merge_request',
      ],
      'both words score (28 each, tie by name); "request" alone scores 14',
    ],
    [
      'merge',
      ['mcp__github__merge_pull_request', 'mcp__gitlab__create_merge_request'],
      '14 each: tie broken by name',
    ],
    [
      '+github create',
      ['mcp__github__create_issue', 'mcp__github__create_pull_request'],
      '+ keeps github tools only',
    ],
    ['+slack', ['mcp__slack__send_message'], 'only required terms also rank'],
    ['+nothing create', [], 'a required term no name has'],
    ['rain', ['mcp__weather__forecast'], 'found by its search hint'],
    ['notebook jupyter', ['NotebookEdit'], 'built-in by name and description'],
    ['SEND', ['mcp__slack__send_message'], 'case-insensitive'],
    ['', [], 'an empty query finds nothing'],
    [
      'select:WebFetch,mcp__slack__send_message',
      ['WebFetch', 'mcp__slack__send_message'],
      'select keeps the given order',
    ],
    [
      'select:nope, WebFetch ,WebFetch',
      ['WebFetch'],
      'unknown names skipped, duplicates once, spaces trimmed',
    ],
    ['select:webfetch', ['WebFetch'], 'select falls back to a case-insensitive name'],
    [
      'select:slack__send_message',
      ['mcp__slack__send_message'],
      'server__tool (as the names section groups by server) is the full name without mcp__',
    ],
    ['select:forecast', ['mcp__weather__forecast'], 'a tool part only one server has'],
    [
      'select:create_issue,Forecast',
      ['mcp__github__create_issue', 'mcp__weather__forecast'],
      'short names, any case',
    ],
    ['select:mcp__nope__forecast', [], 'a wrong full name is not guessed at'],
  ])('%j → %j (%s)', (q, expected, _why) => {
    expect(run(q)).toEqual(expected);
  });
  it('an ambiguous short name selects nothing', () => {
    const twice = [mcp('a', 'list'), mcp('b', 'list'), mcp('a', 'get')];
    expect(searchTools(twice, 'select:list', 5)).toEqual([]);
    expect(searchTools(twice, 'select:b__list', 5).map((r) => r.tool.name)).toEqual(['mcp__b__list']);
  });
  it('max_results caps the list, best first', () => {
    expect(run('create', 2)).toEqual(['mcp__github__create_issue', 'mcp__github__create_pull_request']);
  });
  it('parses + and select', () => {
    expect(parseQuery('+a b')).toEqual({ required: ['a'], ranking: ['b'] });
    expect(parseQuery('select:x')).toEqual({ select: ['x'], required: [], ranking: [] });
  });
});

describe('the ToolSearch tool', () => {
  const deferredTools = [
    mcp('github', 'create_issue', 'Open an issue.'),
    tool('NotebookEdit', { shouldDefer: true }),
    tool('Bash'),
  ];
  const call = async (runtime: ReturnType<typeof createToolRuntime>, query: string, name = 'ToolSearch') => {
    const turn = await runtime.runToolsToCompletion([
      { type: 'tool_use', id: `toolu_${query.length}_${Math.random()}`, name, input: { query } },
    ]);
    return { block: turn.results[0], call: turn.calls[0] };
  };

  it('answers with tool_reference blocks, a sibling text, and records the loaded names', async () => {
    const temp = await makeTempDir('gantry-toolsearch-');
    try {
      const runtime = createToolRuntime({
        tools: [...deferredTools, ToolSearchTool],
        cwd: temp.dir,
        decide: allowAllDecider,
        env: {},
      });
      const hit = await call(runtime, 'issue');
      expect(hit.block?.content).toEqual([
        { type: 'tool_reference', tool_name: 'mcp__github__create_issue' },
      ]);
      expect(hit.call?.newMessages).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'Tool loaded.' }] },
      ]);
      expect(runtime.context.getAppState().discoveredToolNames).toEqual(['mcp__github__create_issue']);
      await call(runtime, 'select:NotebookEdit,mcp__github__create_issue');
      expect(runtime.context.getAppState().discoveredToolNames).toEqual([
        'mcp__github__create_issue',
        'NotebookEdit',
      ]);
      const miss = await call(runtime, 'select:Bash');
      expect(miss.block?.is_error).not.toBe(true);
      expect(miss.block?.content).toBe(NO_MATCH_TEXT);
      expect(miss.call?.newMessages).toEqual([]);
    } finally {
      await temp.cleanup();
    }
  });

  it('waits for servers still connecting before searching', async () => {
    const temp = await makeTempDir('gantry-toolsearch-');
    try {
      const late = mcp('late', 'arrival', 'Arrived late.');
      let arrived = false;
      const search = createToolSearchTool({
        waitForServers: async () => {
          await new Promise((r) => setTimeout(r, 20));
          arrived = true;
        },
      });
      const runtime = createToolRuntime({
        tools: [late, search],
        cwd: temp.dir,
        decide: allowAllDecider,
        env: {},
      });
      const hit = await call(runtime, 'arrival');
      expect(arrived).toBe(true);
      expect(hit.block?.content).toEqual([{ type: 'tool_reference', tool_name: 'mcp__late__arrival' }]);
    } finally {
      await temp.cleanup();
    }
  });
});
