/**
 * Settings loading over real files in a temp home and project: precedence, rule union, lines of
 * malformed rules, trust, sandbox merge, CLI flags.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from './load.js';
import { resolveTrust } from './trust.js';

let root: string;
let home: string;
let project: string;
let etc: string;

function put(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}
const load = (extra: Partial<Parameters<typeof loadSettings>[0]> = {}) =>
  loadSettings({
    projectRoot: project,
    home,
    managedFiles: [
      path.join(etc, 'gantry', 'managed-settings.json'),
      path.join(etc, 'claude-code', 'managed-settings.json'),
    ],
    env: {},
    ...extra,
  });
const texts = (s: ReturnType<typeof load>, behavior: 'allow' | 'ask' | 'deny') =>
  s.rules.list(behavior).map((r) => r.rule.text);

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'gantry-settings-'));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  etc = path.join(root, 'etc');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('sources and merging', () => {
  it('unions rules from every source, Claude Code and Gantry files alike', () => {
    put(path.join(home, '.claude', 'settings.json'), { permissions: { allow: ['Bash(ls:*)'] } });
    put(path.join(home, '.gantry', 'settings.json'), { permissions: { deny: ['Bash(rm:*)'] } });
    put(path.join(project, '.claude', 'settings.json'), { permissions: { ask: ['Bash(git push:*)'] } });
    put(path.join(etc, 'claude-code', 'managed-settings.json'), { permissions: { deny: ['WebFetch'] } });
    const s = load({ trust: true });
    expect(texts(s, 'allow')).toEqual(['Bash(ls:*)']);
    expect(texts(s, 'deny').sort()).toEqual(['Bash(rm:*)', 'WebFetch']);
    expect(texts(s, 'ask')).toEqual(['Bash(git push:*)']);
    expect(s.rules.list('deny').find((r) => r.rule.text === 'WebFetch')?.rule.source).toBe('managed');
  });

  it('defaultMode follows precedence: managed > CLI > local > project > user', () => {
    put(path.join(home, '.claude', 'settings.json'), { permissions: { defaultMode: 'plan' } });
    put(path.join(project, '.claude', 'settings.json'), { permissions: { defaultMode: 'acceptEdits' } });
    expect(load({ trust: true }).defaultMode).toBe('acceptEdits');
    expect(load({ trust: true, cli: { permissionMode: 'dontAsk' } }).defaultMode).toBe('dontAsk');
    put(path.join(etc, 'gantry', 'managed-settings.json'), { permissions: { defaultMode: 'default' } });
    expect(load({ trust: true, cli: { permissionMode: 'dontAsk' } }).defaultMode).toBe('default');
  });

  it('manual is an alias of default', () => {
    put(path.join(home, '.claude', 'settings.json'), { permissions: { defaultMode: 'manual' } });
    expect(load().defaultMode).toBe('default');
  });

  it('CLI flags: allowedTools split on commas/spaces outside parentheses, disallowedTools become deny', () => {
    const s = load({
      cli: {
        allowedTools: ['Bash(git log:*) Edit,Read(./src/**)'],
        disallowedTools: ['WebFetch'],
        addDirs: ['../docs'],
      },
    });
    expect(texts(s, 'allow')).toEqual(['Bash(git log:*)', 'Edit', 'Read(./src/**)']);
    expect(texts(s, 'deny')).toEqual(['WebFetch']);
    expect(s.rules.list('allow')[0]?.rule.source).toBe('cliArg');
    expect(s.additionalDirectories).toEqual([path.join(root, 'docs')]);
  });

  it('allowManagedPermissionRulesOnly drops allow rules from other sources, with a warning', () => {
    put(path.join(etc, 'claude-code', 'managed-settings.json'), {
      allowManagedPermissionRulesOnly: true,
      permissions: { allow: ['Bash(ls:*)'] },
    });
    put(path.join(home, '.claude', 'settings.json'), {
      permissions: { allow: ['Bash(rm:*)'], deny: ['Bash(curl:*)'] },
    });
    const s = load();
    expect(texts(s, 'allow')).toEqual(['Bash(ls:*)']);
    expect(texts(s, 'deny')).toEqual(['Bash(curl:*)']);
    expect(
      s.problems.some(
        (p) => p.rule === 'Bash(rm:*)' && p.message.includes('allowManagedPermissionRulesOnly'),
      ),
    ).toBe(true);
  });

  it('reads --settings files (source cliArg, "/" anchored at the file) and managed drop-ins', () => {
    const extra = path.join(root, 'cfg', 'team.json');
    put(extra, { permissions: { deny: ['Read(/secrets/**)'] } });
    put(path.join(etc, 'claude-code', 'managed-settings.d', '10-extra.json'), {
      permissions: { deny: ['WebSearch'] },
    });
    const s = load({ settingsFiles: [extra] });
    const rule = s.rules.list('deny').find((r) => r.rule.text === 'Read(/secrets/**)');
    expect(rule?.rule).toMatchObject({ source: 'cliArg', file: extra, line: 4 });
    expect(rule?.path?.pattern.glob).toBe(`${path.join(root, 'cfg')}/secrets/**`);
    expect(s.rules.list('deny').find((r) => r.rule.text === 'WebSearch')?.rule.source).toBe('managed');
  });

  it('a --settings file given an anchor (inline JSON written to a temp file) resolves "/" at the anchor', () => {
    const extra = path.join(root, 'tmp', 'inline-1.json');
    put(extra, { permissions: { deny: ['Read(/secrets/**)'] } });
    const s = load({ settingsFiles: [extra], settingsAnchors: { [extra]: project } });
    const rule = s.rules.list('deny').find((r) => r.rule.text === 'Read(/secrets/**)');
    expect(rule?.path?.pattern.glob).toBe(`${project}/secrets/**`);
  });

  it('disableBypassPermissionsMode from any source', () => {
    put(path.join(home, '.claude', 'settings.json'), {
      permissions: { disableBypassPermissionsMode: 'disable' },
    });
    expect(load().disableBypassPermissionsMode).toBe(true);
  });
});

describe('problems carry file and line', () => {
  it('reports a malformed rule with its file and 1-based line, and keeps the rest', () => {
    const file = path.join(project, '.claude', 'settings.json');
    put(
      file,
      '{\n  "permissions": {\n    "deny": [\n      "Bash(rm:*)",\n      "Bash(npm run",\n      "Read(./.env)"\n    ]\n  }\n}\n',
    );
    const s = load();
    const p = s.problems.find((x) => x.rule === 'Bash(npm run');
    expect(p).toMatchObject({ severity: 'error', file, line: 5 });
    expect(p?.message).toMatch(/closing/);
    expect(texts(s, 'deny')).toEqual(['Bash(rm:*)', 'Read(./.env)']);
    expect(s.rules.list('deny')[1]?.rule.line).toBe(6);
  });

  it('reports invalid JSON with its line and ignores the file', () => {
    const file = path.join(home, '.claude', 'settings.json');
    put(file, '{\n  "permissions": {\n    "allow": ["Bash(ls:*)",]\n  }\n}');
    const s = load();
    expect(s.problems[0]).toMatchObject({ severity: 'error', file, line: 3 });
    expect(s.rules.all).toHaveLength(0);
  });

  it('reports wrong types, unknown modes, bad hooks and bad sandbox keys', () => {
    const file = path.join(home, '.claude', 'settings.json');
    put(file, {
      permissions: { allow: 'Bash', defaultMode: 'yolo', deny: [42] },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command' }] }] },
      sandbox: { enabled: 'yes', network: { allowedDomains: ['ok.example'] } },
    });
    const s = load();
    const msgs = s.problems.map((p) => p.message).join('\n');
    expect(msgs).toMatch(/permissions.allow" must be an array/);
    expect(msgs).toMatch(/unknown permissions.defaultMode "yolo"/);
    expect(msgs).toMatch(/deny\[0\] is not a string/);
    expect(msgs).toMatch(/non-empty "command"/);
    expect(msgs).toMatch(/sandbox.enabled/);
    expect(s.problems.every((p) => p.file === file && typeof p.line === 'number')).toBe(true);
    // The valid sandbox key still applies.
    expect(s.sandbox.network.allowedDomains).toEqual(['ok.example']);
  });

  it('a missing file is not a problem', () => {
    expect(load().problems).toEqual([]);
  });
});

describe('workspace trust', () => {
  const projectSettings = () =>
    put(path.join(project, '.claude', 'settings.json'), {
      permissions: {
        allow: ['Bash(*)'],
        deny: ['Bash(rm:*)'],
        ask: ['Bash(git push:*)'],
        defaultMode: 'bypassPermissions',
        additionalDirectories: ['/'],
      },
      hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'echo pwned' }] }] },
      sandbox: {
        enabled: true,
        excludedCommands: ['*'],
        filesystem: { allowWrite: ['/'], denyRead: ['./secret'] },
      },
    });

  it('an untrusted project cannot widen: allow rules, bypass mode, dirs, hooks and widening sandbox keys dropped', () => {
    projectSettings();
    const s = load();
    expect(s.trust.trusted).toBe(false);
    expect(texts(s, 'allow')).toEqual([]);
    expect(texts(s, 'deny')).toEqual(['Bash(rm:*)']);
    expect(texts(s, 'ask')).toEqual(['Bash(git push:*)']);
    expect(s.defaultMode).toBe('default');
    expect(s.additionalDirectories).toEqual([]);
    expect(s.preToolUseHooks).toEqual([]);
    expect(s.sandbox.enabled).toBe(true);
    expect(s.sandbox.excludedCommands).toEqual([]);
    expect(s.sandbox.filesystem.allowWrite).toEqual([]);
    expect(s.sandbox.filesystem.denyRead).toEqual([path.join(project, 'secret')]);
    expect(s.problems.filter((p) => p.message.startsWith('untrusted folder')).length).toBeGreaterThanOrEqual(
      4,
    );
  });

  it('a trusted project applies everything', () => {
    projectSettings();
    const s = load({ trust: true });
    expect(texts(s, 'allow')).toEqual(['Bash(*)']);
    expect(s.defaultMode).toBe('bypassPermissions');
    expect(s.preToolUseHooks).toHaveLength(1);
  });

  it.each([
    [{ explicit: true }, true, 'the caller says so'],
    [{ env: { GANTRY_TRUST_PROJECT: '1' } }, true, 'environment variable'],
    [{ env: { GANTRY_TRUST_PROJECT: '0' } }, false, 'environment forces distrust'],
    [{}, false, 'nothing declares trust'],
  ])('resolveTrust %j → %s (%s)', (extra, trusted, _why) => {
    expect(resolveTrust({ projectRoot: project, home, ...extra }).trusted).toBe(trusted);
  });

  it('~/.gantry/trusted.json lists the folder or an ancestor', () => {
    put(path.join(home, '.gantry', 'trusted.json'), { trustedFolders: [root] });
    expect(resolveTrust({ projectRoot: project, home }).trusted).toBe(true);
    put(path.join(home, '.gantry', 'trusted.json'), { trustedFolders: [`${project}-other`] });
    expect(resolveTrust({ projectRoot: project, home }).trusted).toBe(false);
  });

  it("Claude Code's recorded trust dialog counts", () => {
    put(path.join(home, '.claude.json'), { projects: { [project]: { hasTrustDialogAccepted: true } } });
    expect(resolveTrust({ projectRoot: project, home }).trusted).toBe(true);
  });
});

describe('sandbox settings', () => {
  it('merges scalars by precedence and unions arrays, paths made absolute per source', () => {
    put(path.join(home, '.claude', 'settings.json'), {
      sandbox: {
        enabled: false,
        autoAllowBashIfSandboxed: true,
        network: { allowedDomains: ['a.example'] },
        filesystem: { denyRead: ['~/.secret', './x'] },
      },
    });
    put(path.join(project, '.claude', 'settings.local.json'), {
      sandbox: {
        enabled: true,
        network: { allowedDomains: ['b.example'] },
        filesystem: { allowWrite: ['./out'] },
      },
    });
    const s = load({ trust: true });
    expect(s.sandbox.enabled).toBe(true);
    expect(s.sandbox.autoAllowBashIfSandboxed).toBe(true);
    expect(s.sandbox.network.allowedDomains).toEqual(['b.example', 'a.example']);
    expect(s.sandbox.filesystem.allowWrite).toEqual([path.join(project, 'out')]);
    expect(s.sandbox.filesystem.denyRead).toEqual([
      path.join(home, '.secret'),
      path.join(home, '.claude', 'x'),
    ]);
  });

  it('only managed settings may set the sandbox binaries', () => {
    put(path.join(home, '.claude', 'settings.json'), { sandbox: { bwrapPath: '/tmp/evil' } });
    put(path.join(etc, 'gantry', 'managed-settings.json'), { sandbox: { socatPath: '/usr/bin/socat' } });
    const s = load();
    expect(s.sandbox.bwrapPath).toBeUndefined();
    expect(s.sandbox.socatPath).toBe('/usr/bin/socat');
    expect(s.problems.some((p) => p.message.includes('only managed'))).toBe(true);
  });
});

describe('hooks settings', () => {
  it('collects PreToolUse hooks with their source, honours disableAllHooks and allowManagedHooksOnly', () => {
    put(path.join(home, '.claude', 'settings.json'), {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'u', timeout: 5 }] }] },
    });
    put(path.join(etc, 'claude-code', 'managed-settings.json'), {
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'm' }] }] },
    });
    expect(load().preToolUseHooks.map((h) => h.hooks[0]?.command)).toEqual(['m', 'u']);
    expect(load().nonManagedHooksAllowed).toBe(true);
    expect(load().preToolUseHooks[1]).toMatchObject({ matcher: 'Bash', source: 'userSettings', line: 4 });
    put(path.join(home, '.claude', 'settings.json'), {
      disableAllHooks: true,
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'u' }] }] },
    });
    expect(load().preToolUseHooks.map((h) => h.hooks[0]?.command)).toEqual(['m']);
    // Agent definitions' hooks follow the same switch.
    expect(load().nonManagedHooksAllowed).toBe(false);
    put(path.join(etc, 'claude-code', 'managed-settings.json'), {
      allowManagedHooksOnly: true,
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'm' }] }] },
    });
    put(path.join(home, '.claude', 'settings.json'), {
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'u' }] }] },
    });
    expect(load().preToolUseHooks.map((h) => h.hooks[0]?.command)).toEqual(['m']);
    expect(load().nonManagedHooksAllowed).toBe(false);
  });
});

describe('project root is home', () => {
  it('reads ~/.claude/settings.json once, as user settings (no trust needed)', () => {
    put(path.join(home, '.claude', 'settings.json'), { permissions: { allow: ['Bash(ls:*)'] } });
    const s = loadSettings({ projectRoot: home, home, managedFiles: [], env: {} });
    expect(texts(s, 'allow')).toEqual(['Bash(ls:*)']);
    expect(s.rules.list('allow')[0]?.rule.source).toBe('userSettings');
  });
});
