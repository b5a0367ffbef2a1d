import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInteractiveInvocation } from '../main.js';
import { describeCall } from './event-view.js';
import { alwaysChoice } from './permission-prompt.js';

const world = { projectRoot: '/proj', home: '/home/u' };

describe('alwaysChoice', () => {
  it.each([
    {
      why: 'a local rule goes to the project settings.local.json',
      suggestions: [
        {
          type: 'addRules',
          rules: [{ toolName: 'Bash', ruleContent: 'npm test:*' }],
          behavior: 'allow',
          destination: 'localSettings',
        },
      ],
      want: {
        rules: ['Bash(npm test:*)'],
        destination: 'localSettings',
        file: path.join('/proj', '.claude', 'settings.local.json'),
      },
    },
    {
      why: 'a user rule goes to ~/.claude/settings.json',
      suggestions: [
        {
          type: 'addRules',
          rules: [{ toolName: 'WebFetch', ruleContent: 'domain:example.com' }],
          behavior: 'allow',
          destination: 'userSettings',
        },
      ],
      want: {
        rules: ['WebFetch(domain:example.com)'],
        destination: 'userSettings',
        file: path.join('/home/u', '.claude', 'settings.json'),
      },
    },
    {
      why: 'a file-backed suggestion wins over a session one',
      suggestions: [
        { type: 'addRules', rules: [{ toolName: 'Edit' }], behavior: 'allow', destination: 'session' },
        {
          type: 'addRules',
          rules: [{ toolName: 'Edit', ruleContent: '/proj/**' }],
          behavior: 'allow',
          destination: 'projectSettings',
        },
      ],
      want: {
        rules: ['Edit(/proj/**)'],
        destination: 'projectSettings',
        file: path.join('/proj', '.claude', 'settings.json'),
      },
    },
    {
      why: 'a session-only suggestion has no file',
      suggestions: [
        { type: 'addRules', rules: [{ toolName: 'Edit' }], behavior: 'allow', destination: 'session' },
      ],
      want: { rules: ['Edit'], destination: 'session' },
    },
    { why: 'no suggestion: no "always" choice', suggestions: [], want: undefined },
    {
      why: 'a mode change is not a rule to save',
      suggestions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }],
      want: undefined,
    },
  ] as const)('$why', ({ suggestions, want }) => {
    expect(alwaysChoice(suggestions as never, world)).toEqual(want);
  });
});

describe('describeCall', () => {
  it.each([
    { why: 'Bash shows the command', name: 'Bash', input: { command: 'npm test' }, want: 'Bash(npm test)' },
    {
      why: 'file tools show the path',
      name: 'Edit',
      input: { file_path: '/a/b.ts', old_string: 'x' },
      want: 'Edit(/a/b.ts)',
    },
    { why: 'newlines are folded', name: 'Bash', input: { command: 'a\nb' }, want: 'Bash(a ⏎ b)' },
    { why: 'unknown shapes show their JSON', name: 'mcp__s__t', input: { n: 1 }, want: 'mcp__s__t({"n":1})' },
    {
      why: 'long text is cut',
      name: 'Bash',
      input: { command: 'x'.repeat(50) },
      max: 10,
      want: `Bash(${'x'.repeat(9)}…)`,
    },
  ])('$why', ({ name, input, want, max }) => {
    expect(describeCall(name, input, max)).toBe(want);
  });
});

describe('isInteractiveInvocation', () => {
  it.each([
    { why: 'bare gantry on a terminal', args: [], terminal: true, want: true },
    { why: 'a first prompt on a terminal', args: ['fix it'], terminal: true, want: true },
    { why: 'session flags on a terminal', args: ['--continue'], terminal: true, want: true },
    { why: '-p is headless', args: ['-p', 'fix it'], terminal: true, want: false },
    {
      why: 'the Agent SDK line is headless',
      args: ['--output-format', 'stream-json', '--verbose'],
      terminal: true,
      want: false,
    },
    {
      why: '--output-format=json is headless',
      args: ['--output-format=json', 'x'],
      terminal: true,
      want: false,
    },
    { why: 'no terminal: never', args: ['fix it'], terminal: false, want: false },
    { why: 'sub-commands stay sub-commands', args: ['check', '--', 'ls'], terminal: true, want: false },
    { why: "a lone --version is commander's", args: ['--version'], terminal: true, want: false },
  ])('$why', ({ args, terminal, want }) => {
    expect(isInteractiveInvocation(args, terminal)).toBe(want);
  });
});
