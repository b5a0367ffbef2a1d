import { describe, expect, it } from 'vitest';
import { defaultSandboxSettings } from '../core/sandbox-settings.js';
import { sandboxPromptSection } from './prompt.js';

describe('sandboxPromptSection', () => {
  const on = { ...defaultSandboxSettings(), enabled: true };
  it.each<[string, Parameters<typeof sandboxPromptSection>[0], RegExp, string]>([
    ['off', defaultSandboxSettings(), /^$/, 'no section when the sandbox is off'],
    ['no domains', on, /- Network: none\./, 'closed network is stated'],
    [
      'domains',
      { ...on, network: { ...on.network, allowedDomains: ['registry.npmjs.org'] } },
      /only these hosts are reachable, through the HTTP\(S\) proxy .*: registry\.npmjs\.org\./,
      'the allowlist is listed',
    ],
    ['escape hatch', on, /retry with dangerouslyDisableSandbox: true/, 'explains the retry'],
    [
      'strict',
      { ...on, allowUnsandboxedCommands: false },
      /do not use dangerouslyDisableSandbox/,
      'strict mode forbids it',
    ],
  ])('%s', (_name, settings, expected) => {
    expect(sandboxPromptSection(settings)).toMatch(expected);
  });
});
