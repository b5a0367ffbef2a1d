import { describe, expect, it } from 'vitest';
import type { SubcommandInfo } from '../core/permission-types.js';
import { defaultSandboxSettings, type SandboxSettings } from '../core/sandbox-settings.js';
import { type CommandShape, matchesCommandPattern, shouldUseSandbox } from './should-use-sandbox.js';

const sub = (rawText: string, extra: Partial<SubcommandInfo> = {}): SubcommandInfo => {
  const argv = rawText
    .replace(/\s*\d*[<>]&\d+/g, '')
    .split(/\s+/)
    .filter(Boolean);
  return {
    text: argv.join(' '),
    rawText,
    argv,
    program: argv[0] ?? '',
    wrappers: [],
    envAssignments: [],
    readOnly: false,
    readOnlyReason: '',
    dynamicProgram: false,
    via: 'top',
    ...extra,
  };
};
const shape = (...subcommands: SubcommandInfo[]): CommandShape => ({ parseOk: true, subcommands });
const settings = (o: Partial<SandboxSettings> = {}): SandboxSettings => ({
  ...defaultSandboxSettings(),
  enabled: true,
  excludedCommands: ['docker *', 'npm run e2e:*'],
  ...o,
});
const available = { available: true, reason: '' };

describe('matchesCommandPattern', () => {
  it.each<[string, string, boolean, string]>([
    ['docker *', 'docker ps', true, 'wildcard after a space'],
    ['docker *', 'docker', true, 'a trailing " *" also matches the bare command'],
    ['docker *', 'dockerd', false, 'the space keeps the word boundary'],
    ['npm run e2e:*', 'npm run e2e', true, 'legacy prefix: bare'],
    ['npm run e2e:*', 'npm run e2e --headed', true, 'legacy prefix: with arguments'],
    ['npm run e2e:*', 'npm run e2e2', false, 'legacy prefix keeps the word boundary'],
    ['make', 'make', true, 'exact'],
    ['make', 'make all', false, 'exact does not match more'],
    ['git * --force', 'git push origin --force', true, 'wildcard in the middle'],
  ])('%s vs %s → %s (%s)', (pattern, text, expected) => {
    expect(matchesCommandPattern(pattern, text)).toBe(expected);
  });
});

describe('shouldUseSandbox', () => {
  it.each<
    [
      string,
      Parameters<typeof shouldUseSandbox>[0],
      Partial<SandboxSettings>,
      CommandShape | undefined,
      string,
      string,
    ]
  >([
    [
      'disabled',
      { command: 'ls' },
      { enabled: false },
      undefined,
      'unsandboxed:disabled',
      'sandbox.enabled false',
    ],
    ['plain command', { command: 'ls' }, {}, shape(sub('ls')), 'sandboxed', 'not excluded'],
    [
      'dangerouslyDisableSandbox',
      { command: 'ls', dangerouslyDisableSandbox: true },
      {},
      shape(sub('ls')),
      'unsandboxed:dangerously-disabled',
      'honoured by default',
    ],
    [
      'strict mode',
      { command: 'ls', dangerouslyDisableSandbox: true },
      { allowUnsandboxedCommands: false },
      shape(sub('ls')),
      'sandboxed',
      'ignored when unsandboxed commands are not allowed',
    ],
    [
      'excluded',
      { command: 'docker ps' },
      {},
      shape(sub('docker ps')),
      'unsandboxed:excluded',
      'every part matches',
    ],
    [
      'excluded pipeline',
      { command: 'docker ps | docker logs x' },
      {},
      shape(sub('docker ps'), sub('docker logs x', { via: 'pipeline' })),
      'unsandboxed:excluded',
      'pipeline of excluded commands',
    ],
    [
      'fd duplication',
      { command: 'docker ps 2>&1' },
      {},
      shape(sub('docker ps 2>&1')),
      'unsandboxed:excluded',
      '2>&1 is not a file redirect',
    ],
    [
      'one part not excluded',
      { command: 'docker ps && rm -rf x' },
      {},
      shape(sub('docker ps'), sub('rm -rf x')),
      'sandboxed',
      'a compound is excluded only when every part is',
    ],
    [
      'redirect',
      { command: 'docker ps > out' },
      {},
      shape(sub('docker ps > out')),
      'sandboxed',
      'a file redirect stays sandboxed',
    ],
    [
      'heredoc',
      { command: 'docker run x <<EOF' },
      {},
      shape(sub('docker run x <<EOF')),
      'sandboxed',
      'heredocs stay sandboxed',
    ],
    [
      'cd',
      { command: 'cd /x && docker ps' },
      { excludedCommands: ['cd *', 'docker *'] },
      shape(sub('cd /x'), sub('docker ps')),
      'sandboxed',
      'cd always stays sandboxed',
    ],
    [
      'substitution',
      { command: 'docker $(x)' },
      {},
      shape(sub('docker ps'), sub('x', { via: '$()' })),
      'sandboxed',
      'command substitution stays sandboxed',
    ],
    [
      'dynamic program',
      { command: '$D ps' },
      {},
      shape(sub('docker ps', { dynamicProgram: true })),
      'sandboxed',
      'the program is not static',
    ],
    [
      'unparsed',
      { command: 'docker ps "' },
      {},
      { parseOk: false, subcommands: [sub('docker ps')] },
      'sandboxed',
      'unparseable stays sandboxed',
    ],
    [
      'not analysed',
      { command: 'docker ps' },
      {},
      undefined,
      'sandboxed',
      'no analysis: never excluded (fail closed)',
    ],
  ])('%s → %s', (_name, input, overrides, analysis, expected) => {
    const d = shouldUseSandbox(input, {
      settings: settings(overrides),
      ...(analysis ? { analysis } : {}),
      availability: available,
    });
    expect(d.mode === 'unsandboxed' ? `unsandboxed:${d.why}` : d.mode).toBe(expected);
  });

  it.each<[Partial<SandboxSettings>, string, string]>([
    [{}, 'unsandboxed:unavailable', 'falls back when unsandboxed commands are allowed'],
    [{ allowUnsandboxedCommands: false }, 'refused', 'strict mode refuses'],
    [{ failIfUnavailable: true }, 'refused', 'failIfUnavailable refuses'],
  ])('unavailable with %j → %s (%s)', (overrides, expected) => {
    const d = shouldUseSandbox(
      { command: 'ls' },
      { settings: settings(overrides), availability: { available: false, reason: 'no bwrap' } },
    );
    expect(d.mode === 'unsandboxed' ? `unsandboxed:${d.why}` : d.mode).toBe(expected);
    expect(d.reason).toContain('no bwrap');
  });
});
