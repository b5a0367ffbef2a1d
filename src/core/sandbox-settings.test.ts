import { describe, expect, it } from 'vitest';
import {
  defaultSandboxSettings,
  mergeSandboxSettings,
  resolveSandboxPath,
  resolveSandboxPaths,
  SandboxSettingsInputSchema,
} from './sandbox-settings.js';

describe('SandboxSettingsInputSchema', () => {
  it('accepts the documented shape and keeps unknown keys (Claude Code files load unchanged)', () => {
    const input = {
      enabled: true,
      excludedCommands: ['docker *'],
      filesystem: { allowWrite: ['~/.cache'] },
      network: { allowedDomains: ['example.com'], allowLocalBinding: true, httpProxyPort: 8080 },
      ignoreViolations: { '*': ['/x'] },
    };
    const parsed = SandboxSettingsInputSchema.parse(input);
    expect(parsed).toEqual(input);
  });

  it.each<[unknown, string]>([
    [{ enabled: 'yes' }, 'enabled must be a boolean'],
    [{ excludedCommands: 'docker' }, 'excludedCommands must be a list'],
    [{ network: { allowedDomains: [1] } }, 'domains must be strings'],
  ])('rejects %j (%s)', (input) => {
    expect(SandboxSettingsInputSchema.safeParse(input).success).toBe(false);
  });
});

describe('mergeSandboxSettings', () => {
  it('no sources gives the defaults', () => {
    expect(mergeSandboxSettings([])).toEqual(defaultSandboxSettings());
  });

  it('scalars come from the highest-precedence source that sets them; arrays are a union', () => {
    const managed = { allowUnsandboxedCommands: false, network: { deniedDomains: ['evil.test'] } };
    const project = {
      enabled: true,
      allowUnsandboxedCommands: true,
      network: { allowedDomains: ['a.test'], allowLocalBinding: true },
    };
    const user = { enabled: false, network: { allowedDomains: ['b.test', 'a.test'] }, bwrapPath: '/x/bwrap' };
    expect(mergeSandboxSettings([managed, project, user])).toEqual({
      ...defaultSandboxSettings(),
      enabled: true,
      allowUnsandboxedCommands: false,
      network: {
        allowedDomains: ['a.test', 'b.test'],
        deniedDomains: ['evil.test'],
        allowLocalBinding: true,
        allowPrivateNetworks: false,
      },
      bwrapPath: '/x/bwrap',
    });
  });
});

describe('resolveSandboxPath', () => {
  const opts = { root: '/proj', home: '/home/u' };
  it.each([
    ['/abs/x', '/abs/x', 'absolute stays absolute (not a rule anchor)'],
    ['~/.cache', '/home/u/.cache', 'home'],
    ['~', '/home/u', 'home itself'],
    ['./build', '/proj/build', 'relative to the settings root'],
    ['build', '/proj/build', 'bare is relative too'],
    ['//abs/y', '/abs/y', 'rule-style // read as absolute'],
  ])('%s → %s (%s)', (input, expected) => {
    expect(resolveSandboxPath(input, opts)).toBe(expected);
  });

  it('resolveSandboxPaths resolves every filesystem list', () => {
    expect(resolveSandboxPaths({ filesystem: { allowWrite: ['out'], denyRead: ['~/s'] } }, opts)).toEqual({
      filesystem: {
        allowWrite: ['/proj/out'],
        denyWrite: undefined,
        denyRead: ['/home/u/s'],
        allowRead: undefined,
      },
    });
  });
});
