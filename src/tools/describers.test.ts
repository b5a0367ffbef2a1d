/**
 * The tool describers (src/tools/<name>/describe.ts): what `gantry check`/`hook`/`replay` and the
 * tools' own `describeCall` say a call does, and the agreement between the tool objects, the trait
 * table (core/tool-traits.ts) and the describer registry.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWorldOf } from '../core/call-describer.js';
import { fsPathResolver, mapPathResolver } from '../core/paths.js';
import { TOOL_TRAITS, traitsOf } from '../core/tool-traits.js';
import { createToolRuntime } from '../runtime/index.js';
import { makeTempDir } from '../testing/runtime-fixtures.js';
import { createToolDescribers, toolDescriberFor } from './describers.js';
import { FEATURE_FLAGS, getAllBaseTools } from './index.js';

/** Every conditional tool switched on. */
const allFeatures = Object.fromEntries(FEATURE_FLAGS.map((f) => [f, true]));

const world = { cwd: '/home/user/project', home: '/home/user', resolver: mapPathResolver({}) };
const describers = createToolDescribers({
  describeCommand: (command) => ({
    ruleContents: [command],
    effects: [],
    findings: [],
    readOnly: false,
    summary: command,
  }),
});
const effectsOf = async (tool: string, input: Record<string, unknown>, w = world) =>
  (
    await (toolDescriberFor(tool, describers)?.describe(input, w) ?? Promise.reject(new Error(tool)))
  ).effects.map((e) => `${e.kind} ${e.target} ${e.certainty}`);

describe('tool describers', () => {
  it.each([
    [
      'Read',
      { file_path: 'src/a.ts' },
      ['read /home/user/project/src/a.ts known'],
      'relative path against the cwd',
    ],
    ['Read', { file_path: '~/x' }, ['read /home/user/x known'], '~ is home'],
    ['Read', { file_path: 'file:///etc/passwd' }, ['read /etc/passwd known'], 'file:// URL'],
    [
      'Write',
      { file_path: '/home/user/project/a', content: '' },
      ['write /home/user/project/a known'],
      'write',
    ],
    [
      'Edit',
      { file_path: 'a', old_string: 'x', new_string: 'y' },
      ['write /home/user/project/a known'],
      'edit is a write',
    ],
    [
      'NotebookEdit',
      { notebook_path: 'n.ipynb' },
      ['write /home/user/project/n.ipynb known'],
      'notebook path',
    ],
    ['Grep', { pattern: 'x' }, ['read /home/user/project known'], 'no path: the cwd'],
    ['Glob', { pattern: '**/*.ts' }, ['read /home/user/project known'], 'wildcard first: the root'],
    ['Glob', { pattern: '../../etc/*' }, ['read /home/etc known'], 'the pattern leaves the root'],
    ['Glob', { pattern: '/etc/*.conf' }, ['read /etc known'], 'absolute pattern'],
    [
      'Glob',
      { pattern: 'src/**/*.ts', path: 'lib' },
      ['read /home/user/project/lib/src known'],
      'fixed segments below the path',
    ],
    ['Read', {}, ['read undefined unknown'], 'a missing path is unknown (never allows)'],
    ['Read', { file_path: 42 }, ['read 42 unknown'], 'a mistyped path (unchecked host input) is unknown'],
    ['Write', { file_path: '' }, ['write  unknown'], 'an empty path is unknown'],
    ['Glob', { pattern: 7 }, ['read 7 unknown'], 'a mistyped pattern is unknown'],
    ['Grep', { pattern: 'x', path: ['a'] }, ['read a unknown'], 'a mistyped path is unknown'],
    ['KillBash', { shell_id: 'b1' }, [], 'an alias reaches the TaskStop describer'],
    ['BashOutput', { bash_id: 'b1' }, [], 'an alias reaches the TaskOutput describer'],
  ])('%s %j → %j (%s)', async (tool, input, effects, _why) => {
    expect(await effectsOf(tool, input)).toEqual(effects);
  });

  it('a path through a symlink names both the target and the link', async () => {
    const w = { ...world, resolver: mapPathResolver({ '/home/user/project/link': '/etc' }) };
    const d = await toolDescriberFor('Read', describers)?.describe({ file_path: 'link/passwd' }, w);
    expect(d?.ruleContents).toEqual(['/etc/passwd', '/home/user/project/link/passwd']);
  });

  it('Bash and Monitor use the injected shell analysis; a missing command is an ask-level finding', async () => {
    const bash = await toolDescriberFor('Bash', describers)?.describe({ command: 'ls' }, world);
    expect(bash?.ruleContents).toEqual(['ls']);
    const monitor = await toolDescriberFor('Monitor', describers)?.describe({ command: 'tail -f x' }, world);
    expect(monitor?.ruleContents).toEqual(['tail -f x']);
    const bad = await toolDescriberFor('Bash', describers)?.describe({ command: ['ls'] }, world);
    expect(bad?.findings.map((f) => [f.id, f.behavior])).toEqual([['INVALID_INPUT', 'ask']]);
  });

  it.each([
    [
      { ws: { url: 'wss://Events.Example.com:8443/feed' } },
      'events.example.com',
      [],
      'a WebSocket: its host as a network effect',
    ],
    [{ ws: { url: 'not a url' } }, undefined, [['INVALID_INPUT', 'ask']], 'an unusable URL'],
    [{ ws: 'wss://x.example' }, undefined, [['INVALID_INPUT', 'ask']], 'ws not an object'],
    [{ description: 'x' }, undefined, [['INVALID_INPUT', 'ask']], 'no source at all'],
  ])('Monitor %j → network %s, findings %j (%s)', async (input, host, findings, _why) => {
    const d = await toolDescriberFor('Monitor', describers)!.describe(input, world);
    expect(d.readOnly).toBe(false);
    expect(d.effects.filter((e) => e.kind === 'network').map((e) => e.target)).toEqual(host ? [host] : []);
    expect(d.findings.map((f) => [f.id, f.behavior])).toEqual(findings);
  });

  it.each(['constructor', '__proto__', 'toString', 'TodoRead', 'mcp__x__y'])(
    'has no describer for %s (the host describer takes it)',
    (name) => {
      expect(toolDescriberFor(name, describers)).toBeUndefined();
    },
  );

  it('classifier texts never throw on unchecked input', () => {
    for (const [name, entry] of describers) {
      for (const input of [{}, { file_path: 1, content: null, new_string: {}, command: [] }])
        expect(typeof entry.toAutoClassifierInput?.(input as Record<string, unknown>), name).not.toBe(
          'object',
        );
    }
  });
});

const AGENTS_ROOM_TOOLS = new Set(['Agent', 'SendMessage', 'TeamCreate', 'TeamDelete', 'ListPeers']);

describe('tool objects, the trait table and the describers agree', () => {
  it('every registered tool has a gantry row with the same aliases, and a describer', async () => {
    // Both to-do sets: the Task tools by default, TodoWrite with CLAUDE_CODE_ENABLE_TASKS=0.
    const tools = [
      ...new Map(
        [
          ...(await getAllBaseTools({ features: allFeatures, env: {} })),
          ...(await getAllBaseTools({ features: allFeatures, env: { CLAUDE_CODE_ENABLE_TASKS: '0' } })),
        ].map((t) => [t.name, t]),
      ).values(),
    ];
    for (const tool of tools) {
      const traits = traitsOf(tool.name);
      expect(traits?.name, tool.name).toBe(tool.name);
      expect(traits?.shippedBy, tool.name).toBe('gantry');
      expect([...tool.aliases], tool.name).toEqual([...(traits?.aliases ?? [])]);
      expect(toolDescriberFor(tool.name)?.name, tool.name).toBe(tool.name);
    }
    // The Agent tool and the messaging / team tools ship from src/agents (they reach other loops, a
    // room above the registry).
    const shipped = [...TOOL_TRAITS.values()]
      .filter((t) => t.shippedBy === 'gantry' && !AGENTS_ROOM_TOOLS.has(t.name))
      .map((t) => t.name);
    expect(shipped.sort()).toEqual(tools.map((t) => t.name).sort());
  });

  describe('describeCall is the describer, in the session world', () => {
    let temp: { dir: string; cleanup(): Promise<void> };
    let cwd: string;
    beforeAll(async () => {
      temp = await makeTempDir('gantry-describers-');
      cwd = realpathSync(temp.dir);
      mkdirSync(path.join(cwd, 'src'));
      writeFileSync(path.join(cwd, 'src', 'a.ts'), 'x');
      symlinkSync(path.join(cwd, 'src'), path.join(cwd, 'link'));
    });
    afterAll(() => temp.cleanup());

    it.each([
      ['Read', { file_path: 'link/a.ts' }],
      ['Write', { file_path: 'src/b.ts', content: 'y' }],
      ['Edit', { file_path: 'src/a.ts', old_string: 'x', new_string: 'z' }],
      ['NotebookEdit', { notebook_path: 'n.ipynb', new_source: 'x' }],
      ['Glob', { pattern: 'link/**/*.ts' }],
      ['Grep', { pattern: 'x', path: 'link' }],
      ['TaskOutput', { task_id: 'b1' }],
      ['TaskStop', { task_id: 'b1' }],
      ['Sleep', { duration_ms: 10 }],
      ['LSP', { operation: 'hover', filePath: 'link/a.ts', line: 1, character: 1 }],
    ])('%s %j', async (name, input) => {
      const tools = await getAllBaseTools({ features: { SLEEP: true, LSP: true } });
      const tool = tools.find((t) => t.name === name);
      if (!tool) throw new Error(`no tool ${name}`);
      const runtime = createToolRuntime({
        tools,
        cwd,
        decide: async () => ({ behavior: 'deny', reason: { type: 'default', message: 'no' } }),
      });
      const result = tool.inputSchema.safeParse(input);
      if (!result.success) throw new Error(`bad sample input for ${name}`);
      const parsed = result.data;
      const fromTool = await tool.describeCall(parsed, runtime.context);
      const entry = toolDescriberFor(name);
      const world = { ...describeWorldOf(runtime.context), resolver: fsPathResolver };
      expect(fromTool).toEqual(await entry?.describe(parsed, world));
      expect(tool.toAutoClassifierInput(parsed)).toBe(entry?.toAutoClassifierInput?.(parsed));
      if (entry?.isReadOnly) expect(tool.isReadOnly(parsed)).toBe(entry.isReadOnly(parsed));
    });
  });
});
