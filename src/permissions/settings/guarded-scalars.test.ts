/**
 * `destructiveFloor` and `secretReads`: safety settings only user and managed settings may lower.
 * Real files in a temp home and project; each row says who sets what and what must result.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionRequest } from '../../core/permission-types.js';
import { describeBashCommand, initShellParser } from '../../shell/index.js';
import { createPermissionEngine } from '../engine.js';
import { loadSettings } from './load.js';

let root: string;
let home: string;
let project: string;
let etc: string;
const put = (file: string, value: unknown): void => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
};
const files = () => ({
  managed: path.join(etc, 'managed-settings.json'),
  user: path.join(home, '.claude', 'settings.json'),
  gantryUser: path.join(home, '.gantry', 'settings.json'),
  project: path.join(project, '.claude', 'settings.json'),
  local: path.join(project, '.claude', 'settings.local.json'),
});
const load = (settingsFiles: string[] = []) =>
  loadSettings({
    projectRoot: project,
    home,
    managedFiles: [files().managed],
    env: {},
    trust: true,
    settingsFiles,
  });

beforeAll(async () => {
  await initShellParser();
});
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'gantry-guarded-'));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  etc = path.join(root, 'etc');
  for (const d of [home, project, etc]) mkdirSync(d, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('destructiveFloor: who may lower it', () => {
  const rows: [string, Partial<Record<keyof ReturnType<typeof files>, string>>, string, boolean][] = [
    ['default', {}, 'standard', false],
    ['user settings may turn it off', { user: 'off' }, 'off', false],
    ["Gantry's own user file counts as user settings", { gantryUser: 'off' }, 'off', false],
    ['project settings may not lower it: ignored, and said', { project: 'off' }, 'standard', true],
    ['local settings may not lower it either', { local: 'off' }, 'standard', true],
    ['project settings may raise it', { project: 'strict' }, 'strict', false],
    ['a project cannot lower what the user raised', { user: 'strict', project: 'standard' }, 'strict', true],
    ['managed settings win over user settings', { managed: 'strict', user: 'off' }, 'strict', false],
    [
      'managed may turn it off; a project may still raise it',
      { managed: 'off', project: 'strict' },
      'strict',
      false,
    ],
    ['an unknown value reads as strict (fail closed)', { user: 'strcit' }, 'strict', false],
  ];
  for (const [why, set, expected, noted] of rows)
    it(`${why} → ${expected}`, () => {
      for (const [k, v] of Object.entries(set))
        put(files()[k as keyof ReturnType<typeof files>], { destructiveFloor: v });
      const s = load();
      expect(s.destructiveFloor.value).toBe(expected);
      expect(s.destructiveFloor.ignored.length > 0).toBe(noted);
    });

  it('a --settings file may raise but not lower it', () => {
    const cli = path.join(root, 'cli.json');
    put(cli, { destructiveFloor: 'off' });
    expect(load([cli]).destructiveFloor.value).toBe('standard');
    put(cli, { destructiveFloor: 'strict' });
    expect(load([cli]).destructiveFloor.value).toBe('strict');
  });

  it('the explanation of a floor decision says the project tried to lower it', async () => {
    put(files().project, { destructiveFloor: 'off' });
    const settings = load();
    const engine = createPermissionEngine({ settings });
    const description = await describeBashCommand('rm -rf ~', { cwd: project, home });
    const req: PermissionRequest = {
      toolName: 'Bash',
      input: { command: 'rm -rf ~' },
      description,
      toolResult: { behavior: 'passthrough' },
      isReadOnly: false,
      cwd: project,
      projectRoot: project,
      additionalDirectories: [],
      mode: 'bypassPermissions',
      sessionId: 's',
      toolUseId: 't',
      classifierInput: 'rm -rf ~',
    };
    const d = engine.decideSync(req);
    expect(d.decision.behavior).toBe('deny');
    expect(d.decision.reason.message).toContain('destructive floor');
    expect(d.decision.reason.message).toContain(`${files().project} sets destructiveFloor "off"`);
    expect(d.decision.reason.message).toContain('only user or managed settings may lower it');
  });
});

describe('secretReads: who may allow them', () => {
  it.each([
    [{ user: 'allow' }, 'allow', 'user settings may allow credential reads'],
    [{ project: 'allow' }, 'ask', 'a repository cannot switch the question off'],
    [{ managed: 'ask', user: 'allow' }, 'ask', 'managed settings win'],
    [{ user: 'sometimes' }, 'ask', 'an unknown value reads as ask'],
  ] as const)('%j → %s (%s)', (set: Record<string, string>, expected: string, _why: string) => {
    for (const [k, v] of Object.entries(set))
      put(files()[k as keyof ReturnType<typeof files>], { secretReads: v });
    expect(load().secretReads.value).toBe(expected);
  });
});
