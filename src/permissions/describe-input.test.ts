import { describe, expect, it } from 'vitest';
import { describeToolInput, hostToolDescriber } from './describe-input.js';

const world = { cwd: '/home/user/project', home: '/home/user' };
const effectsOf = (tool: string, input: Record<string, unknown>) =>
  describeToolInput(tool, input, world).effects.map((e) => `${e.kind} ${e.target} ${e.certainty}`);

describe('describeToolInput (host tools Gantry has no tool for)', () => {
  it.each([
    [
      'MultiEdit',
      { file_path: 'src/a.ts', edits: [] },
      ['write /home/user/project/src/a.ts known'],
      'a writer',
    ],
    ['MultiEdit', {}, ['write undefined unknown'], 'a missing path is unknown (never allows)'],
    ['LS', { path: '~/x' }, ['read /home/user/x known'], '~ is home'],
    ['LS', {}, ['read /home/user/project known'], 'no path: the cwd'],
    [
      'NotebookRead',
      { notebook_path: 'n.ipynb' },
      ['read /home/user/project/n.ipynb known'],
      'notebook path',
    ],
    [
      'LSP',
      { operation: 'workspaceSymbol', query: 'x' },
      ['exec LSP unknown'],
      'Gantry ships LSP (behind its flag): its own describer decides, as for WebFetch',
    ],
    [
      'WebFetch',
      { url: 'https://docs.example.com/a' },
      ['exec WebFetch unknown'],
      'Gantry ships WebFetch: its own describer decides; from traits alone the call cannot be proven safe',
    ],
    [
      'Agent',
      { subagent_type: 'Explore' },
      ['exec Agent unknown'],
      'Gantry ships Agent: same, its own describer',
    ],
    ['TodoRead', {}, [], 'no effects'],
    ['mcp__x__y', { path: '/etc/passwd' }, [], 'unknown tools: nothing known'],
    ['constructor', { file_path: '/etc/passwd' }, [], 'a prototype name is an unknown tool'],
  ])('%s %j → %j (%s)', (tool, input, effects, _why) => {
    expect(effectsOf(tool, input)).toEqual(effects);
  });

  it('rule contents: command name for SlashCommand; tools Gantry ships leave them to their own describer', () => {
    expect(describeToolInput('SlashCommand', { command: 'pdf' }, world).ruleContents).toEqual(['pdf']);
    expect(describeToolInput('WebFetch', { url: 'https://Docs.Example.com/' }, world).ruleContents).toEqual(
      [],
    );
    expect(describeToolInput('Task', { subagent_type: 'Explore' }, world).ruleContents).toEqual([]);
  });

  it('no host description claims read-only without a read of a known path', () => {
    for (const tool of ['TodoWrite', 'AskUserQuestion', 'WebSearch', 'mcp__x__y', 'Task', 'constructor'])
      expect(describeToolInput(tool, {}, world).readOnly, tool).toBe(false);
  });

  it('classifier text is the field rules are about, never the raw JSON', () => {
    expect(hostToolDescriber('WebFetch').toAutoClassifierInput?.({ url: 'https://a.example/' })).toBe(
      'WebFetch https://a.example/',
    );
    expect(hostToolDescriber('Agent').toAutoClassifierInput?.({ subagent_type: 'Plan' })).toBe('Agent Plan');
    expect(hostToolDescriber('mcp__x__y').toAutoClassifierInput?.({ a: 1 })).toBe('');
  });
});

describe('Gantry tools are not described from traits', () => {
  it.each(['Read', 'Glob', 'Bash', 'Write'])('%s asks (its own describer knows more)', (tool) => {
    const d = describeToolInput(tool, { file_path: '/home/user/project/a', pattern: '../../etc/*' }, world);
    expect(d.readOnly).toBe(false);
    expect(d.effects.map((e) => e.certainty)).toEqual(['unknown']);
  });
});

describe('describeToolInput: a path no file can have', () => {
  it.each([
    [
      'LS',
      'path',
      '/home/user/project\0/etc',
      /path contains a NUL/,
      'NUL: the system would cut the path there',
    ],
    ['MultiEdit', 'file_path', '/home/user/project/\ud800x', /unpaired UTF-16 surrogate/, 'a lone surrogate'],
  ])('%s %s %j asks, naming the field (%s)', (tool, field, value, message, _why) => {
    const d = describeToolInput(tool, { [field]: value }, world);
    expect(d.findings).toEqual([
      { id: 'INVALID_PATH', message: expect.stringMatching(message), behavior: 'ask' },
    ]);
    expect(d.effects.every((e) => e.certainty === 'unknown')).toBe(true);
    expect(d.findings[0]?.message).toContain(field);
  });
});
