/**
 * The tool pool: one deny filter over names and aliases (with the real permission engine's
 * bare-deny test), `isEnabled`, a fixed order whatever the input order, the callable/rendered
 * split for deferred tools, and byte-stable definitions.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyTool, buildTool } from '../core/index.js';
import { engineWith } from '../permissions/test-support.js';
import { getAllBaseTools } from '../tools/index.js';
import { assembleToolPool } from './tool-pool.js';

function tool(name: string, extra: Record<string, unknown> = {}): AnyTool {
  return buildTool({
    name,
    description: `${name} does things.`,
    inputSchema: z.strictObject({}),
    async *call() {
      return { data: '' };
    },
    ...extra,
  });
}

const mcp = (server: string, name: string, extra: Record<string, unknown> = {}) =>
  tool(`mcp__${server}__${name}`, { isMcp: true, mcpInfo: { serverName: server, toolName: name }, ...extra });

const builtIn = [
  tool('Bash'),
  tool('WebFetch'),
  tool('TaskStop', { aliases: ['KillShell', 'KillBash'] }),
  tool('Edit'),
  tool('Write'),
];
const agent = tool('Agent', { aliases: ['Task'] });
const mcpTools = [mcp('github', 'create_issue'), mcp('githubber', 'x'), mcp('github', 'list')];

const names = (tools: readonly AnyTool[]) => tools.map((t) => t.name);

describe('assembleToolPool: the deny filter', () => {
  it.each([
    [[], ['Agent', 'Bash', 'Edit', 'TaskStop', 'WebFetch', 'Write'], 'no rules keep everything'],
    [['WebFetch'], ['Agent', 'Bash', 'Edit', 'TaskStop', 'Write'], 'a bare rule removes the tool'],
    [['Task'], ['Bash', 'Edit', 'TaskStop', 'WebFetch', 'Write'], 'a legacy alias removes the current tool'],
    [
      ['KillBash'],
      ['Agent', 'Bash', 'Edit', 'WebFetch', 'Write'],
      'an alias listed only on the tool removes it',
    ],
    [
      ['Bash(rm:*)'],
      ['Agent', 'Bash', 'Edit', 'TaskStop', 'WebFetch', 'Write'],
      'a scoped rule removes nothing',
    ],
    [['bash'], ['Agent', 'Bash', 'Edit', 'TaskStop', 'WebFetch', 'Write'], 'names are case-sensitive'],
    [['Edit'], ['Agent', 'Bash', 'TaskStop', 'WebFetch'], 'a bare Edit deny covers every file writer'],
    [['*'], [], 'a bare * denies every tool'],
  ])('deny %j leaves built-ins %j (%s)', (deny, expected, _why) => {
    const engine = engineWith({ deny });
    const pool = assembleToolPool({ builtIn, agent, isDenied: (name) => engine.isToolDenied(name) });
    expect(names(pool.callable).filter((n) => !n.startsWith('mcp__'))).toEqual(expected);
  });

  it.each([
    [['mcp__github'], ['mcp__githubber__x'], 'a server rule removes that server’s tools only'],
    [['mcp__github__*'], ['mcp__githubber__x'], 'a server glob removes that server’s tools only'],
    [
      ['mcp__github__list'],
      ['mcp__github__create_issue', 'mcp__githubber__x'],
      'a full MCP tool name removes it',
    ],
    [['mcp__*'], [], 'an mcp__* glob removes every MCP tool'],
  ])('deny %j leaves MCP tools %j (%s)', (deny, expected, _why) => {
    const engine = engineWith({ deny });
    const pool = assembleToolPool({ builtIn, mcp: mcpTools, isDenied: (name) => engine.isToolDenied(name) });
    expect(names(pool.callable).filter((n) => n.startsWith('mcp__'))).toEqual(expected);
    expect(pool.removed.filter((r) => r.reason === 'denied').length).toBe(3 - expected.length);
  });

  it('leaves out disabled tools and tools whose isEnabled throws (fail closed)', () => {
    const pool = assembleToolPool({
      builtIn: [
        tool('On'),
        tool('Off', { isEnabled: () => false }),
        tool('Broken', {
          isEnabled: () => {
            throw new Error('no');
          },
        }),
      ],
    });
    expect(names(pool.callable)).toEqual(['On']);
    expect(pool.removed).toEqual([
      { name: 'Off', reason: 'disabled' },
      { name: 'Broken', reason: 'disabled' },
    ]);
  });
});

describe('assembleToolPool: order and definitions', () => {
  it('sorts built-ins by name (code-unit order), then MCP tools by name, whatever the input order', () => {
    const a = assembleToolPool({ builtIn, agent, mcp: mcpTools });
    const b = assembleToolPool({ builtIn: [...builtIn].reverse(), agent, mcp: [...mcpTools].reverse() });
    expect(names(a.callable)).toEqual([
      'Agent',
      'Bash',
      'Edit',
      'TaskStop',
      'WebFetch',
      'Write',
      'mcp__github__create_issue',
      'mcp__github__list',
      'mcp__githubber__x',
    ]);
    expect(names(b.callable)).toEqual(names(a.callable));
    expect(JSON.stringify(b.definitions())).toBe(JSON.stringify(a.definitions()));
    expect(b.definitions()[0]).toBe(a.definitions()[0]);
  });

  it('the built-in registry’s pool comes out sorted', async () => {
    const pool = assembleToolPool({ builtIn: await getAllBaseTools({ env: {} }) });
    const sorted = [...names(pool.callable)].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    expect(names(pool.callable)).toEqual(sorted);
  });

  it('refuses two tools with one name', () => {
    expect(() => assembleToolPool({ builtIn: [tool('Bash'), tool('Bash')] })).toThrow(
      /two tools are named Bash/,
    );
  });

  it('finds a pooled tool by name or alias', () => {
    const pool = assembleToolPool({ builtIn, agent });
    expect(pool.find('Task')?.name).toBe('Agent');
    expect(pool.find('KillShell')?.name).toBe('TaskStop');
    expect(pool.find('constructor')).toBeUndefined();
  });
});

describe('assembleToolPool: callable vs rendered', () => {
  const deferredBuiltIn = tool('NotebookEdit', { shouldDefer: true });
  const pinned = mcp('github', 'pinned', { alwaysLoad: true });
  const toolSearch = tool('ToolSearch');

  it('without a tool-search tool nothing is deferred', () => {
    const pool = assembleToolPool({ builtIn: [...builtIn, deferredBuiltIn], mcp: mcpTools });
    expect(pool.deferred).toEqual([]);
    expect(names(pool.rendered)).toEqual(names(pool.callable));
  });

  it('with one, deferred built-ins and MCP tools are callable but sent by name only, unless alwaysLoad', () => {
    const pool = assembleToolPool({
      builtIn: [...builtIn, deferredBuiltIn],
      mcp: [...mcpTools, pinned],
      toolSearch,
    });
    expect(names(pool.deferred)).toEqual([
      'NotebookEdit',
      'mcp__github__create_issue',
      'mcp__github__list',
      'mcp__githubber__x',
    ]);
    expect(names(pool.rendered)).toEqual([
      'Bash',
      'Edit',
      'TaskStop',
      'ToolSearch',
      'WebFetch',
      'Write',
      'mcp__github__pinned',
    ]);
    expect(pool.callable).toHaveLength(pool.rendered.length + pool.deferred.length);
  });

  it('a discovered deferred tool is rendered in its sorted place, with defer_loading: true', () => {
    const pool = assembleToolPool({
      builtIn: [...builtIn, deferredBuiltIn],
      mcp: mcpTools,
      toolSearch,
      discoveredToolNames: ['mcp__github__list', 'NotebookEdit', 'NoSuchTool'],
    });
    expect(names(pool.rendered)).toEqual([
      'Bash',
      'Edit',
      'NotebookEdit',
      'TaskStop',
      'ToolSearch',
      'WebFetch',
      'Write',
      'mcp__github__list',
    ]);
    const definitions = pool.definitions();
    expect(definitions.find((d) => d.name === 'NotebookEdit')?.defer_loading).toBe(true);
    expect(definitions.find((d) => d.name === 'Bash')).not.toHaveProperty('defer_loading');
    expect(Object.isFrozen(definitions.find((d) => d.name === 'NotebookEdit'))).toBe(true);
  });

  it('a denied tool-search tool turns deferral off', () => {
    const engine = engineWith({ deny: ['ToolSearch'] });
    const pool = assembleToolPool({
      builtIn: [deferredBuiltIn],
      toolSearch,
      isDenied: (name) => engine.isToolDenied(name),
    });
    expect(names(pool.rendered)).toEqual(['NotebookEdit']);
  });
});
