import { describe, expect, it } from 'vitest';
import { parsePrintArgs, UsageError } from './args.js';

const SDK_BASE = ['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json'];

describe('parsePrintArgs', () => {
  it.each([
    {
      reason: 'the plain form: -p and a prompt',
      argv: ['-p', 'hello there'],
      expect: { print: true, prompt: 'hello there', outputFormat: 'text' },
    },
    {
      reason: '--name=value and --name value are the same',
      argv: ['-p', '--output-format=json', '--model', 'claude-x', 'hi'],
      expect: { outputFormat: 'json', model: 'claude-x', prompt: 'hi' },
    },
    {
      reason: 'the SDK base argv, with single-token flags it builds',
      argv: [
        ...SDK_BASE,
        '--max-turns=3',
        '--permission-prompt-tool=stdio',
        '--allowedTools=Read,Bash(ls:*)',
      ],
      expect: {
        inputFormat: 'stream-json',
        maxTurns: 3,
        permissionPromptTool: 'stdio',
        allowedTools: ['Read,Bash(ls:*)'],
      },
    },
    {
      reason: '--tools= is an explicit empty tool list',
      argv: ['-p', '--tools=', 'x'],
      expect: { tools: [''] },
    },
    {
      reason: 'list flags take every token up to the next flag',
      argv: ['-p', 'go', '--add-dir', '../a', '../b', '--verbose'],
      expect: { addDirs: ['../a', '../b'], verbose: true, prompt: 'go' },
    },
    {
      reason: 'both spellings of the tool flags append to one list',
      argv: ['-p', 'x', '--allowed-tools', 'Read', '--allowedTools', 'Glob', '--disallowed-tools', 'Bash'],
      expect: { allowedTools: ['Read', 'Glob'], disallowedTools: ['Bash'] },
    },
    {
      reason: 'the SDK passes --settings with its value as a separate token, last',
      argv: [...SDK_BASE, '--settings', '{"permissions":{"deny":["Bash"]}}'],
      expect: { settings: ['{"permissions":{"deny":["Bash"]}}'] },
    },
    {
      reason: '-r takes the id; --fork-session with it',
      argv: ['-p', '-r', 'abc', '--fork-session', 'next'],
      expect: { resume: 'abc', forkSession: true, prompt: 'next' },
    },
    {
      reason: '--setting-sources splits a comma list; empty means none',
      argv: ['-p', 'x', '--setting-sources='],
      expect: { settingSources: [] },
    },
  ])('$reason', ({ argv, expect: want }) => {
    expect(parsePrintArgs(argv)).toMatchObject(want);
  });

  it('notes flags Gantry accepts without acting on them, and unknown ones, without failing', () => {
    const a = parsePrintArgs([
      ...SDK_BASE,
      '--effort=high',
      '--managed-settings',
      '{"x":1}',
      '--frobnicate',
      'v',
    ]);
    expect(a.notes).toEqual([
      'option --effort ignored: effort levels are not implemented',
      'option --managed-settings ignored: managed settings are read from their system files only',
      'unknown option --frobnicate ignored',
    ]);
    expect(a.prompt).toBeUndefined();
  });

  it('an unknown flag may own the next token; the prompt stays when it is the only candidate', () => {
    expect(parsePrintArgs(['-p', '--frob', 'the prompt']).prompt).toBe('the prompt');
    expect(parsePrintArgs(['-p', '--frob', 'value', 'the prompt']).prompt).toBe('the prompt');
  });

  it.each([
    {
      reason: 'unknown output format',
      argv: ['-p', '--output-format', 'xml', 'x'],
      msg: /--output-format must be one of/,
    },
    {
      reason: 'stream-json input without stream-json output',
      argv: ['--input-format', 'stream-json'],
      msg: /needs --output-format stream-json/,
    },
    {
      reason: 'partial messages need stream-json',
      argv: ['-p', '--include-partial-messages', 'x'],
      msg: /needs --output-format stream-json/,
    },
    {
      reason: 'a prompt argument with stream-json input',
      argv: [...SDK_BASE, 'hello'],
      msg: /drop the prompt/,
    },
    { reason: 'two prompts', argv: ['-p', 'a', 'b'], msg: /one prompt expected/ },
    {
      reason: 'max-turns must be positive',
      argv: ['-p', '--max-turns', '0', 'x'],
      msg: /positive whole number/,
    },
    {
      reason: 'budget must be a number',
      argv: ['-p', '--max-budget-usd', 'lots', 'x'],
      msg: /positive number/,
    },
    { reason: 'session ids are UUIDs', argv: ['-p', '--session-id', 'nope', 'x'], msg: /must be a UUID/ },
    { reason: 'continue and resume together', argv: ['-p', '-c', '-r', 'id', 'x'], msg: /not both/ },
    { reason: 'resume without an id in print mode', argv: ['-p', '--resume'], msg: /needs a session id/ },
    {
      reason: 'fork without a session to fork',
      argv: ['-p', '--fork-session', 'x'],
      msg: /needs --continue or --resume/,
    },
    {
      reason: 'a fixed session id on a resumed session without fork',
      argv: ['-p', '-c', '--session-id', '6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b', 'x'],
      msg: /together with --fork-session/,
    },
    {
      reason: 'stdio prompts need the stream-json channel',
      argv: ['-p', '--permission-prompt-tool', 'stdio', 'x'],
      msg: /needs --input-format stream-json/,
    },
    { reason: 'a value flag at the end', argv: ['-p', 'x', '--model'], msg: /needs a value/ },
    { reason: 'a bool flag with a value', argv: ['-p', '--verbose=yes', 'x'], msg: /does not take a value/ },
    {
      reason: 'both system prompt forms',
      argv: ['-p', '--system-prompt', 'a', '--system-prompt-file', 'f', 'x'],
      msg: /not both/,
    },
  ])('usage error: $reason', ({ argv, msg }) => {
    expect(() => parsePrintArgs(argv)).toThrow(UsageError);
    expect(() => parsePrintArgs(argv)).toThrow(msg);
  });

  it('a list flag that runs to the end gives up its last value as the prompt, with a note', () => {
    const a = parsePrintArgs(['-p', '--tools', '', 'fix it']);
    expect(a).toMatchObject({ tools: [''], prompt: 'fix it' });
    expect(a.notes[0]).toMatch(/last value of --tools as the prompt/);
    expect(parsePrintArgs(['-p', 'first', '--add-dir', 'a', 'b']).addDirs).toEqual(['a', 'b']);
    expect(parsePrintArgs(['-p', '--add-dir', 'only']).prompt).toBeUndefined();
  });

  it('everything after -- is the prompt, even when it looks like a flag', () => {
    expect(parsePrintArgs(['-p', '--', '--not-a-flag']).prompt).toBe('--not-a-flag');
  });
});
