/**
 * Deferred loading for a session: ENABLE_TOOL_SEARCH, the first request (names only), loading
 * through ToolSearch (in place with defer_loading for Anthropic; appended for providers without
 * tool references), the deferred-names section and its delta, and that exposure is not authority:
 * a deferred tool called without being loaded passes the same permission steps.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyTool, buildTool, type PermissionRequest } from '../../core/index.js';
import { engineWith } from '../../permissions/test-support.js';
import { createToolRuntime } from '../../runtime/index.js';
import { makeTempDir } from '../../testing/tool-harness.js';
import { getAllBaseTools } from '../../tools/index.js';
import { decideToolSearch, estimateDefinitionTokens, parseToolSearchSetting } from './activation.js';
import { renderDeferredToolsDelta, renderDeferredToolsSection } from './deferred-section.js';
import { createSessionToolPool } from './session-pool.js';

/** Every full tool name the section lets the model form (the parsing a reader of the section does). */
function namesInSection(section: string): string[] {
  const out: string[] = [];
  for (const line of section.split('\n').slice(2)) {
    if (line.startsWith('MCP tools,')) continue;
    const grouped = /^([A-Za-z0-9_-]+): (.+)$/.exec(line);
    if (grouped) for (const t of (grouped[2] as string).split(' ')) out.push(`mcp__${grouped[1]}__${t}`);
    else out.push(line);
  }
  return out;
}

function tool(name: string, extra: Record<string, unknown> = {}): AnyTool {
  return buildTool({
    name,
    description: `${name} does things with a long enough description to count.`,
    inputSchema: z.strictObject({ x: z.string().optional() }),
    async *call() {
      return { data: 'ran' };
    },
    ...extra,
  });
}
const mcp = (server: string, name: string) =>
  tool(`mcp__${server}__${name}`, { isMcp: true, mcpInfo: { serverName: server, toolName: name } });

/** A stand-in for the MCP client manager: the pool only reads `tools()`, `resourceTools()` and `start()`. */
function fakeManager(tools: AnyTool[]) {
  return { tools: () => tools, resourceTools: () => [], start: async () => undefined } as never;
}

describe('ENABLE_TOOL_SEARCH', () => {
  it.each([
    [undefined, { mode: 'on' }, 'unset: on'],
    ['true', { mode: 'on' }, 'true: on'],
    ['false', { mode: 'off' }, 'false: off'],
    ['auto', { mode: 'auto', percent: 10 }, 'auto: 10 %'],
    ['auto:1', { mode: 'auto', percent: 1 }, 'auto:N'],
    ['AUTO:25', { mode: 'auto', percent: 25 }, 'case-insensitive'],
  ])('%j → %j (%s)', (raw, setting, _why) => {
    expect(parseToolSearchSetting(raw).setting).toEqual(setting);
  });
  it('an unknown value warns and keeps the default', () => {
    const r = parseToolSearchSetting('auto:500');
    expect(r.setting).toEqual({ mode: 'on' });
    expect(r.warning).toMatch(/auto:500/);
  });
  it('auto defers once the deferrable definitions reach N % of the window', () => {
    const tools = [tool('Bash'), ...Array.from({ length: 50 }, (_, i) => mcp('srv', `t${i}`))];
    const tokens = estimateDefinitionTokens(tools.slice(1));
    expect(decideToolSearch({ mode: 'auto', percent: 10 }, tools, tokens * 10 - 10).enabled).toBe(true);
    expect(decideToolSearch({ mode: 'auto', percent: 10 }, tools, tokens * 10 + 100).enabled).toBe(false);
    expect(decideToolSearch({ mode: 'auto', percent: 1 }, tools, tokens * 10 + 100).enabled).toBe(true);
    expect(decideToolSearch({ mode: 'off' }, tools, 1).enabled).toBe(false);
  });
});

describe('the session pool', () => {
  const mcpTools = [mcp('zeta', 'b'), mcp('alpha', 'a'), mcp('zeta', 'a')];

  it('first request: no MCP definitions, deferred names listed; ToolSearch sent in full', async () => {
    const builtIn = await getAllBaseTools();
    const session = createSessionToolPool({
      builtIn,
      mcp: fakeManager(mcpTools),
      toolSearch: true,
      provider: 'anthropic',
    });
    const pool = session.pool();
    const defs = pool.definitions().map((d) => d.name);
    expect(defs).toContain('ToolSearch');
    expect(defs.some((n) => n.startsWith('mcp__'))).toBe(false);
    expect(defs).not.toContain('NotebookEdit');
    expect(pool.deferred.map((t) => t.name)).toEqual([
      'NotebookEdit',
      'TaskStop',
      'WebFetch',
      'mcp__zeta__b',
      'mcp__alpha__a',
      'mcp__zeta__a',
    ]);
    expect(pool.callable.map((t) => t.name)).toContain('mcp__alpha__a');
    const section = session.deferredSection();
    expect(section.split('\n').slice(2)).toEqual([
      'NotebookEdit',
      'TaskStop',
      'WebFetch',
      'MCP tools, one line per server, "<server>: <tool> <tool> …". Full name: mcp__<server>__<tool> (e.g. mcp__zeta__b); select and call tools by it.',
      'zeta: b a',
      'alpha: a',
    ]);
    expect(namesInSection(section).sort()).toEqual(pool.deferred.map((t) => t.name).sort());
  });

  it('Anthropic: a loaded tool is sent in place with defer_loading', () => {
    const session = createSessionToolPool({
      builtIn: [tool('Bash'), tool('Read')],
      mcp: fakeManager(mcpTools),
      toolSearch: true,
      provider: 'anthropic',
    });
    const defs = session.pool(['mcp__zeta__b', 'mcp__alpha__a']).definitions();
    expect(defs.map((d) => [d.name, d.defer_loading ?? false])).toEqual([
      ['Bash', false],
      ['Read', false],
      ['ToolSearch', false],
      ['mcp__zeta__b', true],
      ['mcp__alpha__a', true],
    ]);
  });

  it('without tool references: loaded tools are appended in load order; the earlier bytes do not change', () => {
    const session = createSessionToolPool({
      builtIn: [tool('Bash'), tool('Read')],
      mcp: fakeManager(mcpTools),
      toolSearch: true,
      provider: 'openai',
    });
    const first = JSON.stringify(session.pool().definitions());
    const afterOne = session.pool(['mcp__zeta__a']).definitions();
    const afterTwo = session.pool(['mcp__zeta__a', 'mcp__alpha__a']).definitions();
    expect(afterTwo.map((d) => d.name)).toEqual([
      'Bash',
      'Read',
      'ToolSearch',
      'mcp__zeta__a',
      'mcp__alpha__a',
    ]);
    expect(JSON.stringify(afterOne).startsWith(first.slice(0, -1))).toBe(true);
    expect(JSON.stringify(afterTwo).startsWith(JSON.stringify(afterOne).slice(0, -1))).toBe(true);
  });

  it('tool search off: everything in full, no ToolSearch', () => {
    const session = createSessionToolPool({
      builtIn: [tool('Bash')],
      mcp: fakeManager(mcpTools),
      toolSearch: false,
      provider: 'anthropic',
    });
    const pool = session.pool();
    expect(pool.definitions().map((d) => d.name)).toEqual([
      'Bash',
      'mcp__zeta__b',
      'mcp__alpha__a',
      'mcp__zeta__a',
    ]);
    expect(pool.deferred).toEqual([]);
    expect(session.toolSearchTool).toBeUndefined();
  });

  it('announces deferred tools that appear later', () => {
    const tools = [mcp('a', 'one')];
    const session = createSessionToolPool({
      builtIn: [],
      mcp: fakeManager(tools),
      toolSearch: true,
      provider: 'anthropic',
    });
    expect(session.deferredSection()).toContain('\na: one');
    tools.push(mcp('a', 'two'));
    expect(session.deferredDelta()).toBe(renderDeferredToolsDelta(['mcp__a__two']));
    expect(session.deferredDelta()).toBe('');
    expect(renderDeferredToolsSection([])).toBe('');
  });
});

describe('exposure is not authority', () => {
  it('a deferred MCP tool called without ToolSearch goes through the engine: denied by a rule, asked otherwise', async () => {
    const temp = await makeTempDir('gantry-expose-');
    try {
      const secret = mcp('vault', 'read_secret');
      const session = createSessionToolPool({
        builtIn: [],
        mcp: fakeManager([secret, mcp('vault', 'list')]),
        toolSearch: true,
        provider: 'anthropic',
      });
      const pool = session.pool();
      expect(pool.deferred).toContain(secret);
      const seen: PermissionRequest[] = [];
      for (const [rules, expected] of [
        [{ deny: ['mcp__vault__read_secret'] }, 'deny'],
        [{}, 'ask'],
        [{ allow: ['mcp__vault'] }, 'allow'],
      ] as const) {
        const engine = engineWith(rules);
        const runtime = createToolRuntime({
          tools: pool.callable,
          cwd: temp.dir,
          decide: async (request) => {
            seen.push(request);
            return engine.decider(request);
          },
          env: {},
        });
        const turn = await runtime.runToolsToCompletion([
          { type: 'tool_use', id: `toolu_${expected}`, name: 'mcp__vault__read_secret', input: {} },
        ]);
        expect(turn.calls[0]?.decision?.behavior ?? 'deny', JSON.stringify(rules)).toBe(
          expected === 'ask' ? 'deny' : expected,
        );
        expect(turn.results[0]?.is_error === true, JSON.stringify(rules)).toBe(expected !== 'allow');
      }
      expect(seen.map((r) => [r.toolName, r.isMcp])).toEqual([
        ['mcp__vault__read_secret', true],
        ['mcp__vault__read_secret', true],
        ['mcp__vault__read_secret', true],
      ]);
    } finally {
      await temp.cleanup();
    }
  });
});
