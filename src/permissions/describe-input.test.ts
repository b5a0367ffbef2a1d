import { describe, expect, it } from 'vitest';
import { describeToolInput } from './describe-input.js';

const world = { cwd: '/home/user/project', home: '/home/user' };
const effectsOf = (tool: string, input: Record<string, unknown>) =>
  describeToolInput(tool, input, world).effects.map((e) => `${e.kind} ${e.target} ${e.certainty}`);

describe('describeToolInput', () => {
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
    [
      'WebFetch',
      { url: 'https://docs.example.com/a' },
      ['network https://docs.example.com/a known'],
      'network',
    ],
    ['Agent', { subagent_type: 'Explore' }, [], 'no effects'],
  ])('%s %j → %j (%s)', (tool, input, effects, _why) => {
    expect(effectsOf(tool, input)).toEqual(effects);
  });

  it('rule contents: domain for WebFetch, agent type for Agent', () => {
    expect(describeToolInput('WebFetch', { url: 'https://Docs.Example.com/' }, world).ruleContents).toEqual([
      'domain:docs.example.com',
    ]);
    expect(describeToolInput('Agent', { subagent_type: 'Explore' }, world).ruleContents).toEqual(['Explore']);
  });
});

describe('host tools without effects', () => {
  it.each([
    ['TodoWrite', true, 'to-do state only'],
    ['AskUserQuestion', true, 'asks the user'],
    ['TaskOutput', true, 'reads a background task output'],
    ['WebSearch', false, 'network: left to the rules'],
    ['mcp__x__y', false, 'unknown tool: not read-only'],
    ['Task', false, 'starting a sub-agent is left to the rules'],
  ])('%s read-only=%s (%s)', (tool, readOnly, _why) => {
    expect(describeToolInput(tool, {}, { cwd: '/p', home: '/h' }).readOnly).toBe(readOnly);
  });
});

describe('describeToolInput: a path no file can have', () => {
  it.each([
    [
      'Read',
      'file_path',
      '/home/user/project/a.ts\0/etc/passwd',
      /NUL/,
      'NUL: the system would cut the path there',
    ],
    ['Write', 'file_path', '/home/user/project/\ud800x', /unpaired UTF-16 surrogate/, 'a lone surrogate'],
    ['NotebookEdit', 'notebook_path', 'n\0.ipynb', /notebook_path contains a NUL/, 'named field'],
  ])('%s %s %j asks, naming the field (%s)', (tool, field, value, message, _why) => {
    const d = describeToolInput(tool, { [field]: value }, world);
    expect(d.findings).toEqual([
      { id: 'INVALID_PATH', message: expect.stringMatching(message), behavior: 'ask' },
    ]);
    expect(d.effects.every((e) => e.certainty === 'unknown')).toBe(true);
    expect(d.findings[0]?.message).toContain(field);
  });
});
