/**
 * Broken settings fail closed (settings/broken.ts), through the library faces `loadSettings` and
 * `createPermissionEngine`, with real files in a temp home and project and the real shell analysis.
 * Each row names the broken file, what it could have restricted and the decision expected while it
 * is broken; benign rows show what stays as it was (a broken allow list only narrows).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CallDescription, PermissionMode, PermissionRequest } from '../../core/permission-types.js';
import { describeBashCommand, initShellParser } from '../../shell/index.js';
import type { AutoModeClassifier } from '../classifier/types.js';
import { describeToolInput } from '../describe-input.js';
import { fileToolCall } from '../test-support.js';
import { createPermissionEngine } from '../engine.js';
import { loadSettings } from './load.js';

let root: string;
let home: string;
let project: string;

function put(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}
const userFile = () => path.join(home, '.claude', 'settings.json');
const projectFile = () => path.join(project, '.claude', 'settings.json');

beforeAll(async () => {
  await initShellParser();
});
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'gantry-broken-'));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const load = (o: { trust?: boolean; settingsFiles?: string[]; permissionMode?: string } = {}) =>
  loadSettings({
    projectRoot: project,
    home,
    managedFiles: [],
    env: {},
    trust: o.trust ?? false,
    ...(o.settingsFiles ? { settingsFiles: o.settingsFiles } : {}),
    ...(o.permissionMode ? { cli: { permissionMode: o.permissionMode } } : {}),
  });

async function describeCall(tool: string, input: Record<string, unknown>): Promise<CallDescription> {
  if (tool === 'Bash') return describeBashCommand(String(input.command), { cwd: project, home });
  if (tool === 'Read') return fileToolCall(tool, input);
  // The Agent tool's own describer (tools/agent/describe.ts) says this: no effect, the type as content.
  if (tool === 'Agent' || tool === 'Task') {
    const type = String(input.subagent_type ?? 'general-purpose');
    return { ruleContents: [type], effects: [], findings: [], readOnly: false, summary: `Agent ${type}` };
  }
  return describeToolInput(tool, input, { cwd: project, home });
}

async function decide(
  tool: string,
  input: Record<string, unknown>,
  o: {
    mode?: PermissionMode;
    trust?: boolean;
    settingsFiles?: string[];
    classifier?: AutoModeClassifier;
    sandboxed?: boolean;
  } = {},
) {
  const settings = load(o);
  const engine = createPermissionEngine({
    settings,
    ...(o.classifier ? { classifier: o.classifier } : {}),
  });
  const description = await describeCall(tool, input);
  const req: PermissionRequest = {
    toolName: tool,
    input,
    description: o.sandboxed ? { ...description, sandboxed: true } : description,
    toolResult: { behavior: 'passthrough' },
    isReadOnly: description.readOnly,
    cwd: project,
    projectRoot: project,
    additionalDirectories: [],
    mode: o.mode ?? 'default',
    sessionId: 's',
    toolUseId: 't',
    classifierInput: JSON.stringify(input),
  };
  return { settings, detailed: await engine.decideDetailed(req, { skipHooks: true }) };
}

const ls = { command: 'ls' };

describe('a broken settings file makes the calls it could restrict ask, naming file, line and error', () => {
  const rows: {
    name: string;
    reason: string;
    write: () => string;
    expectLine?: number;
    trust?: boolean;
  }[] = [
    {
      name: 'JSON typo in ~/.claude/settings.json',
      reason: 'the whole file is unreadable: its deny rules (here `Bash(ls:*)`) are invisible',
      write: () => put(userFile(), '{\n  "permissions": {\n    "deny": ["Bash(ls:*)",]\n  }\n}\n'),
      expectLine: 3,
    },
    {
      name: 'permissions.deny is a string, not an array',
      reason: 'a deny list of the wrong type is dropped whole; any of its rules could have covered the call',
      write: () => put(userFile(), '{\n  "permissions": {\n    "deny": "Bash(ls:*)"\n  }\n}\n'),
      expectLine: 3,
    },
    {
      name: 'permissions is an array',
      reason: 'the whole permissions block is unusable',
      write: () => put(userFile(), '{\n  "permissions": ["Bash(ls:*)"]\n}\n'),
      expectLine: 2,
    },
    {
      name: 'a deny entry that is not a string',
      reason: 'the dropped entry could have been any rule',
      write: () =>
        put(userFile(), '{\n  "permissions": {\n    "deny": [\n      {"rule": "Bash(ls)"}\n    ]\n  }\n}\n'),
      expectLine: 4,
    },
    {
      name: 'the file is not a JSON object',
      reason: 'nothing in it can be read',
      write: () => put(userFile(), '["Bash(ls:*)"]\n'),
      expectLine: 1,
    },
    {
      name: 'an unknown defaultMode',
      reason: 'the mode the user chose (perhaps plan) is lost; default would be wider',
      write: () => put(userFile(), '{\n  "permissions": {\n    "defaultMode": "plann"\n  }\n}\n'),
      expectLine: 3,
    },
    {
      name: 'a project file with a typo, untrusted folder',
      reason: 'deny and ask rules of a project apply even untrusted, so its loss matters',
      write: () => put(projectFile(), '{ "permissions": { "ask": ["Bash(ls)"] }'),
      expectLine: 1,
    },
    {
      name: 'a hook entry of the wrong shape, trusted folder',
      reason: 'a PreToolUse hook could have denied any call',
      write: () => put(projectFile(), '{\n  "hooks": { "PreToolUse": [ "deny-all.sh" ] }\n}\n'),
      expectLine: 2,
      trust: true,
    },
  ];
  for (const row of rows)
    it(`${row.name} → ask (${row.reason})`, async () => {
      const file = row.write();
      const { settings, detailed } = await decide('Bash', ls, { trust: row.trust ?? false });
      expect(settings.broken.map((b) => b.file)).toContain(file);
      expect(detailed.decision.behavior).toBe('ask');
      expect(detailed.step).toBe('settings');
      expect(detailed.decision.reason.type).toBe('settings');
      const msg = detailed.decision.reason.message;
      expect(msg).toContain(`${file}:${row.expectLine}`);
      expect(detailed.trace.join('\n')).toContain('broken settings');
      if (detailed.decision.behavior === 'ask') {
        expect(detailed.decision.forceConfirmation).toBe(true);
        expect(detailed.decision.suggestions).toEqual([]);
      }
    });
});

describe('what a broken file cannot have restricted is decided as before', () => {
  it('a broken allow list only narrows: ls stays allowed (dropping allow rules never widens)', async () => {
    put(userFile(), '{\n  "permissions": {\n    "allow": "Bash(npm test:*)"\n  }\n}\n');
    const { settings, detailed } = await decide('Bash', ls);
    expect(settings.problems.some((p) => p.message.includes('permissions.allow'))).toBe(true);
    expect(settings.broken).toEqual([]);
    expect(detailed.decision.behavior).toBe('allow');
  });

  it('a malformed deny rule for Bash asks for Bash calls only: a Read is still allowed', async () => {
    const file = put(
      userFile(),
      '{\n  "permissions": {\n    "deny": [\n      "Bash(rm -rf:*"\n    ]\n  }\n}\n',
    );
    const bashCall = await decide('Bash', ls);
    expect(bashCall.detailed.decision.behavior).toBe('ask');
    expect(bashCall.detailed.decision.reason.message).toContain(`${file}:4`);
    put(path.join(project, 'README.md'), '# x\n');
    const readCall = await decide('Read', { file_path: path.join(project, 'README.md') });
    expect(readCall.detailed.decision.behavior).toBe('allow');
  });

  it('a malformed Task rule also covers Agent (aliases): the alias cannot slip past', async () => {
    const agent = { description: 'x', prompt: 'x', subagent_type: 'Explore' };
    expect((await decide('Agent', agent)).detailed.decision.behavior).toBe('allow');
    put(userFile(), '{ "permissions": { "deny": ["Task(Explore"] } }');
    const { detailed } = await decide('Agent', agent);
    expect(detailed.decision.behavior).toBe('ask');
    expect(detailed.decision.reason.type).toBe('settings');
  });

  it('a broken hook in an untrusted project changes nothing: untrusted hooks never run anyway', async () => {
    put(projectFile(), '{ "hooks": { "PreToolUse": [ "deny-all.sh" ] } }');
    const { settings, detailed } = await decide('Bash', ls, { trust: false });
    expect(settings.broken).toEqual([]);
    expect(detailed.decision.behavior).toBe('allow');
  });

  it('a deny that another, valid file makes stays a deny (the broken file only adds asks)', async () => {
    put(userFile(), '{ "permissions": { "deny": ["Bash(ls)"] } }');
    put(path.join(home, '.gantry', 'settings.json'), '{ oops');
    const { detailed } = await decide('Bash', ls);
    expect(detailed.decision.behavior).toBe('deny');
  });

  it('fixing the file restores the decision at the next load', async () => {
    put(userFile(), '{ "permissions": { "deny": ["Bash(rm:*)"], } }');
    expect((await decide('Bash', ls)).detailed.decision.behavior).toBe('ask');
    put(userFile(), '{ "permissions": { "deny": ["Bash(rm:*)"] } }');
    expect((await decide('Bash', ls)).detailed.decision.behavior).toBe('allow');
  });
});

describe('where nobody can be asked, the broken file denies', () => {
  it('dontAsk: the ask becomes a deny that still names the file', async () => {
    const file = put(userFile(), '{ "permissions": { "deny": "Bash(ls)" } }');
    const { detailed } = await decide('Bash', ls, { mode: 'dontAsk' });
    expect(detailed.decision.behavior).toBe('deny');
    expect(detailed.decision.reason.message).toContain(file);
  });

  it('auto: the classifier cannot turn it into an allow', async () => {
    put(userFile(), '{ "permissions": { "deny": "Bash(touch:*)" } }');
    const lowRisk: AutoModeClassifier = {
      name: 'always-low',
      classify: () => ({ risk: 'LOW', reasons: ['test classifier'], block: false }),
    };
    const { detailed } = await decide(
      'Bash',
      { command: 'touch notes.txt' },
      { mode: 'auto', classifier: lowRisk },
    );
    expect(detailed.decision.behavior).toBe('ask');
    expect(detailed.decision.reason.type).toBe('settings');
  });

  it('bypassPermissions: even bypass asks while a deny list is unreadable', async () => {
    put(userFile(), '{ "permissions": { "deny": ["Bash(touch:*)"');
    const { detailed } = await decide('Bash', { command: 'touch notes.txt' }, { mode: 'bypassPermissions' });
    expect(detailed.decision.behavior).toBe('ask');
  });
});

describe('other fail-closed sources', () => {
  it('a --settings file that does not exist asks for every call', async () => {
    const missing = path.join(root, 'nope.json');
    const { detailed } = await decide('Bash', ls, { settingsFiles: [missing] });
    expect(detailed.decision.behavior).toBe('ask');
    expect(detailed.decision.reason.message).toContain(missing);
  });

  it('an unknown --permission-mode asks for every call', async () => {
    const settings = load({ permissionMode: 'yolo' });
    expect(settings.broken[0]?.file).toBe('--permission-mode');
  });

  it('broken sandbox keys stop the sandbox auto-allow, not ordinary decisions', async () => {
    put(
      userFile(),
      '{\n  "sandbox": {\n    "enabled": true,\n    "autoAllowBashIfSandboxed": true,\n    "filesystem": { "denyWrite": "~/.ssh" }\n  }\n}\n',
    );
    const sandboxed = await decide('Bash', { command: 'touch notes.txt' }, { sandboxed: true });
    expect(sandboxed.settings.broken.map((b) => b.scope)).toEqual(['sandbox']);
    expect(sandboxed.detailed.decision.behavior).toBe('ask');
    expect(sandboxed.detailed.step).not.toBe('sandbox');
    expect(sandboxed.detailed.trace.join('\n')).toContain('sandbox settings are broken');
    expect((await decide('Bash', ls)).detailed.decision.behavior).toBe('allow');
  });
});
