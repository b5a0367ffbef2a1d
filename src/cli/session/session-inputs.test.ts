import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../../permissions/index.js';
import { getAllBaseTools } from '../../tools/index.js';
import { readSettingsExtras } from './settings-extras.js';
import { resolveSettingsInput, SettingsInputError } from './settings-input.js';
import { requestedToolNames, selectTools } from './tool-selection.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'gantry-session-inputs-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('resolveSettingsInput', () => {
  it('keeps file paths (resolved against the cwd) and writes inline JSON to a private file in ~/.gantry/tmp anchored at the cwd', () => {
    const home = path.join(root, 'home');
    const input = resolveSettingsInput(['team.json', '{"permissions":{"deny":["Bash"]}}'], root, home);
    expect(input.files[0]).toBe(path.join(root, 'team.json'));
    const inline = input.files[1] as string;
    expect(JSON.parse(readFileSync(inline, 'utf8'))).toEqual({ permissions: { deny: ['Bash'] } });
    expect(statSync(inline).mode & 0o777).toBe(0o600);
    const dir = path.dirname(inline);
    expect(path.dirname(dir)).toBe(path.join(home, '.gantry', 'tmp'));
    expect(path.basename(dir)).toMatch(new RegExp(`^settings-${process.pid}-`));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(path.join(dir, 'owner.json'), 'utf8')).pid).toBe(process.pid);
    expect(input.anchors[inline]).toBe(root);
    expect(input.inline.has(inline)).toBe(true);
    input.dispose();
    expect(existsSync(inline)).toBe(false);
  });

  it.each([
    { reason: 'JSON that does not parse', value: '{"permissions":', msg: /does not parse/ },
    { reason: 'an object followed by more text', value: ' {"a":1} and more', msg: /does not parse/ },
  ])('refuses $reason', ({ value, msg }) => {
    expect(() => resolveSettingsInput([value], root, root)).toThrow(SettingsInputError);
    expect(() => resolveSettingsInput([value], root, root)).toThrow(msg);
  });

  it('refuses, naming the flag, when ~/.gantry/tmp cannot be written (a file stands where the directory goes)', () => {
    mkdirSync(path.join(root, '.gantry'));
    writeFileSync(path.join(root, '.gantry', 'tmp'), '');
    expect(() => resolveSettingsInput(['{}'], root, root)).toThrow(
      /--settings: cannot keep the inline JSON in/,
    );
  });
});

describe('readSettingsExtras', () => {
  function load(trust: boolean) {
    const home = path.join(root, 'home');
    const project = path.join(root, 'project');
    mkdirSync(path.join(home, '.gantry'), { recursive: true });
    mkdirSync(path.join(project, '.claude'), { recursive: true });
    writeFileSync(
      path.join(home, '.gantry', 'settings.json'),
      JSON.stringify({ model: 'user-model', env: { A: 'user', B: 'user' } }),
    );
    writeFileSync(
      path.join(project, '.claude', 'settings.json'),
      JSON.stringify({ provider: 'openai', env: { ANTHROPIC_BASE_URL: 'http://elsewhere' } }),
    );
    return readSettingsExtras(loadSettings({ projectRoot: project, home, managedFiles: [], env: {}, trust }));
  }

  it('takes model and provider by precedence and merges env', () => {
    const extras = load(true);
    expect(extras).toMatchObject({ model: 'user-model', provider: 'openai' });
    expect(extras.env).toEqual({ A: 'user', B: 'user', ANTHROPIC_BASE_URL: 'http://elsewhere' });
  });

  it('an untrusted project contributes no env (it could redirect the API key), with a warning', () => {
    const extras = load(false);
    expect(extras.env).toEqual({ A: 'user', B: 'user' });
    expect(extras.warnings.join('\n')).toMatch(/untrusted folder: "env" of .*settings.json ignored/);
  });

  it.each([
    { trust: true, want: 'docs/plans', reason: 'a trusted project sets it' },
    { trust: false, want: undefined, reason: 'an untrusted project cannot point plan-mode writes elsewhere' },
  ])('plansDirectory: $reason', ({ trust, want }) => {
    const home = path.join(root, 'home');
    const project = path.join(root, 'project');
    mkdirSync(path.join(project, '.claude'), { recursive: true });
    writeFileSync(
      path.join(project, '.claude', 'settings.json'),
      JSON.stringify({ plansDirectory: 'docs/plans' }),
    );
    const extras = readSettingsExtras(
      loadSettings({ projectRoot: project, home, managedFiles: [], env: {}, trust }),
    );
    expect(extras.plansDirectory).toBe(want);
    if (!trust) expect(extras.warnings.join('\n')).toMatch(/"plansDirectory" of .* ignored/);
  });
});

describe('the to-do tools', () => {
  it.each([
    { named: undefined, has: false, reason: 'by default the Task tools replace TodoWrite' },
    { named: ['TodoWrite'], has: true, reason: 'naming TodoWrite (--tools / --allowedTools) opts in to it' },
    { named: ['Bash'], has: false, reason: 'naming another tool does not' },
  ])('$reason', async ({ named, has }) => {
    const names = (await getAllBaseTools({ env: {}, ...(named ? { named } : {}) })).map((t) => t.name);
    expect(names.includes('TodoWrite')).toBe(has);
    expect(names).toContain('TaskCreate');
  });

  it('--tools TodoWrite alone gives the session exactly TodoWrite', async () => {
    const all = await getAllBaseTools({ env: {}, named: ['TodoWrite'] });
    const { pool } = selectTools(all, ['TodoWrite'], () => undefined);
    expect(pool.callable.map((t) => t.name)).toEqual(['TodoWrite']);
  });
});

describe('selectTools', () => {
  const none = () => undefined;

  it.each([
    {
      reason: 'no flag: every built-in tool',
      flag: undefined,
      want: (n: string[]) => n.length > 5 && n.includes('Bash'),
    },
    {
      reason: '"default" is the same as no flag',
      flag: ['default'],
      want: (n: string[]) => n.includes('Read') && n.includes('Bash'),
    },
    { reason: 'an empty value: no tools', flag: [''], want: (n: string[]) => n.length === 0 },
    {
      reason: 'a list in any order comes back sorted',
      flag: ['Read Bash'],
      want: (n: string[]) => n.join() === 'Bash,Read',
    },
  ])('$reason', async ({ flag, want }) => {
    const all = await getAllBaseTools();
    const { pool } = selectTools(all, flag, none);
    expect(want(pool.callable.map((t) => t.name))).toBe(true);
  });

  it('reports names no tool answers to and removes bare-denied tools by name or alias', async () => {
    const all = await getAllBaseTools();
    const { pool, unknown } = selectTools(all, ['Bash,TaskStop,Frobnicate'], (name) => name === 'KillBash');
    expect(pool.callable.map((t) => t.name)).toEqual(['Bash']);
    expect(unknown).toEqual(['Frobnicate']);
    expect(requestedToolNames(undefined)).toBeUndefined();
  });
});
