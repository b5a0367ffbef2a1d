/**
 * gantry install / uninstall on real settings files in a temporary home and project: the entry
 * written, idempotence, other content kept in order, backup, dry run, broken files untouched,
 * uninstall removing exactly what install added; and the installed command answering as a hook.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasGantryHook, isGantryHandler } from './hook-entries.js';
import { hookCommand, runInstall, runUninstall } from './install-command.js';

let home: string;
let project: string;
const COMMAND = 'npx --no-install gantry hook';

beforeEach(() => {
  home = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-install-')));
  project = path.join(home, 'app');
  mkdirSync(project);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

async function run(verb: 'install' | 'uninstall', o: Record<string, unknown> = {}) {
  let out = '';
  let err = '';
  const f = verb === 'install' ? runInstall : runUninstall;
  const code = await f(
    { home, cwd: project, command: COMMAND, ...o },
    (s) => {
      out += s;
    },
    (s) => {
      err += s;
    },
  );
  return { code, out, err };
}

const userFile = () => path.join(home, '.claude', 'settings.json');
const read = (f: string) => JSON.parse(readFileSync(f, 'utf8'));

const EXISTING = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test:*)'] },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/usr/local/bin/other-guard' }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
  },
};

describe('gantry install --claude', () => {
  it('creates the user settings file with the command hook for PreToolUse and PostToolUse', async () => {
    const r = await run('install');
    expect(r.code).toBe(0);
    expect(read(userFile())).toEqual({
      hooks: {
        PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: COMMAND }] }],
        PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: COMMAND }] }],
      },
    });
    expect(r.out).toContain('+++ ');
  });

  it('keeps the rest of an existing file in order, other hooks included, with a backup and a diff', async () => {
    mkdirSync(path.dirname(userFile()), { recursive: true });
    const before = `${JSON.stringify(EXISTING, null, 4)}\n`;
    writeFileSync(userFile(), before);
    const r = await run('install');
    expect(r.code).toBe(0);
    const after = read(userFile());
    expect(Object.keys(after)).toEqual(['model', 'permissions', 'hooks']);
    expect(after.hooks.PreToolUse[0]).toEqual(EXISTING.hooks.PreToolUse[0]);
    expect(after.hooks.Stop).toEqual(EXISTING.hooks.Stop);
    expect(hasGantryHook(after, 'claude')).toBe(true);
    expect(readFileSync(`${userFile()}.gantry-backup`, 'utf8')).toBe(before);
    expect(readFileSync(userFile(), 'utf8')).toMatch(/^\{\n {4}"model"/);
    expect(r.out).toMatch(/^\+.*npx --no-install gantry hook/m);
  });

  it('is idempotent: a second install changes nothing', async () => {
    await run('install');
    const first = readFileSync(userFile(), 'utf8');
    const r = await run('install');
    expect(r.out).toContain('already installed');
    expect(readFileSync(userFile(), 'utf8')).toBe(first);
  });

  it('uninstall removes exactly what install added', async () => {
    mkdirSync(path.dirname(userFile()), { recursive: true });
    writeFileSync(userFile(), `${JSON.stringify(EXISTING, null, 2)}\n`);
    await run('install', { http: true });
    expect(await run('uninstall')).toMatchObject({ code: 0 });
    expect(read(userFile())).toEqual(EXISTING);
    expect((await run('uninstall')).out).toContain('no Gantry hook there');
  });

  it('--http adds the HTTP hook with the token passed from the environment', async () => {
    await run('install', { http: true, port: '9001' });
    const handlers = read(userFile()).hooks.PreToolUse[0].hooks;
    expect(handlers).toEqual([
      { type: 'command', command: COMMAND },
      {
        type: 'http',
        url: 'http://127.0.0.1:9001/hook',
        headers: { Authorization: 'Bearer $GANTRY_HOOK_TOKEN' },
        allowedEnvVars: ['GANTRY_HOOK_TOKEN'],
      },
    ]);
  });

  it('--dry-run prints the diff and writes nothing', async () => {
    const r = await run('install', { dryRun: true });
    expect(r.out).toContain('dry run');
    expect(existsSync(userFile())).toBe(false);
  });

  it('never touches a settings file that does not parse (exit 3, file unchanged)', async () => {
    mkdirSync(path.dirname(userFile()), { recursive: true });
    writeFileSync(userFile(), '{"permissions": {');
    const r = await run('install');
    expect(r.code).toBe(3);
    expect(r.err).toContain('does not parse');
    expect(readFileSync(userFile(), 'utf8')).toBe('{"permissions": {');
  });

  it.each([
    ['--project writes the shared project file', { project: true }, ['.claude', 'settings.json']],
    ['--local writes the local project file', { local: true }, ['.claude', 'settings.local.json']],
  ])('%s', async (_why, o, rel) => {
    await run('install', o);
    expect(hasGantryHook(read(path.join(project, ...rel)), 'claude')).toBe(true);
  });
});

describe('other hosts and usage errors', () => {
  it('--gemini writes BeforeTool/AfterTool into ~/.gemini/settings.json', async () => {
    await run('install', { gemini: true });
    const s = read(path.join(home, '.gemini', 'settings.json'));
    expect(Object.keys(s.hooks)).toEqual(['BeforeTool', 'AfterTool']);
    expect(hasGantryHook(s, 'gemini')).toBe(true);
  });

  it('--codex writes PreToolUse/PostToolUse into ~/.codex/hooks.json with --deny-only, and uninstall removes it', async () => {
    const r = await run('install', { codex: true });
    expect(r.code).toBe(0);
    const file = path.join(home, '.codex', 'hooks.json');
    const s = read(file);
    expect(s).toEqual({
      hooks: {
        PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `${COMMAND} --deny-only` }] }],
        PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `${COMMAND} --deny-only` }] }],
      },
    });
    expect(hasGantryHook(s, 'codex')).toBe(true);
    expect(r.out).toMatch(/review/); // Codex lists a new hook as untrusted until the user reviews it
    expect((await run('install', { codex: true })).out).toMatch(/already installed/);
    expect((await run('uninstall', { codex: true })).code).toBe(0);
    expect(read(file)).toEqual({});
  });

  it("--codex follows CODEX_HOME, and --project writes the project's .codex/hooks.json", async () => {
    const codexHome = path.join(home, 'codex-home');
    await run('install', { codex: true, env: { CODEX_HOME: codexHome } });
    expect(hasGantryHook(read(path.join(codexHome, 'hooks.json')), 'codex')).toBe(true);
    await run('install', { codex: true, project: true });
    expect(hasGantryHook(read(path.join(project, '.codex', 'hooks.json')), 'codex')).toBe(true);
    expect(existsSync(path.join(home, '.codex'))).toBe(false);
  });

  it.each([
    ['Codex has no local file', { codex: true, local: true }, /no local/],
    ['Codex runs no HTTP hooks', { codex: true, http: true }, /HTTP/],
    ['two hosts', { claude: true, gemini: true }, /one host/],
    ['two hosts with codex', { codex: true, gemini: true }, /one host/],
    ['two scopes', { user: true, project: true }, /one scope/],
    ['Gemini has no local file', { gemini: true, local: true }, /no local settings file/],
    ['a bad port', { http: true, port: '99999' }, /--port/],
  ])('exit 3: %s', async (_why, o, msg) => {
    const r = await run('install', o);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(msg);
  });
});

describe('the installed command', () => {
  it.each([
    ['a checkout command', 'node "/x/bin/gantry.js" hook', true],
    ['the package bin', 'gantry hook', true],
    ['npx', 'npx --no-install gantry hook', true],
    ['another guard', '/usr/local/bin/other-guard', false],
    ['a command merely mentioning gantry', 'echo gantry hooked', false],
  ])('isGantryHandler: %s', (_why, command, ours) => {
    expect(isGantryHandler({ type: 'command', command })).toBe(ours);
  });

  it('from this checkout runs bin/gantry.js by absolute path, and answers a hook payload', () => {
    const cmd = hookCommand();
    expect(cmd).toMatch(/^node ".*bin\/gantry\.js" hook$/);
    const r = spawnSync('/bin/sh', ['-c', cmd], {
      input: JSON.stringify({
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
        cwd: project,
      }),
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: home, GANTRY_HOOK_LOG: 'off', GANTRY_HOOK_DAEMON: 'off' },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('allow');
  });
});
