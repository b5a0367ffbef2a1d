/**
 * `gantry hook` as Claude Code runs it: a real process (the prebuilt bundle, as `bin/gantry.js hook`
 * starts it), hook JSON on stdin, decision JSON on stdout, the exit code — the decisions
 * (hook-warm.e2e.test.ts: the resident server and the sockets it trusts).
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { home, hook, pre, project, useHookHome } from './test-fixtures/hook-e2e.js';

useHookHome();

describe('gantry hook (real process, Claude Code protocol)', () => {
  it.each([
    ['Bash', { command: 'git status && ls' }, 'allow', 0, 'read-only command'],
    ['Bash', { command: 'npm test -- --run' }, 'allow', 0, 'project allow rule (trusted via ~/.claude.json)'],
    ['Bash', { command: 'npm install left-pad' }, 'ask', 0, 'no rule: ask, let the host prompt'],
    ['Bash', { command: 'git push origin main' }, 'deny', 2, 'project deny rule → exit 2'],
    ['Bash', { command: 'echo x >> ~/.bashrc' }, 'deny', 2, 'protected file, even in default mode'],
    ['Write', { file_path: '/APP/.env', content: 'X=1' }, 'deny', 2, 'protected .env via Write'],
    ['Read', { file_path: '/APP/src/a.ts' }, 'allow', 0, 'read inside the project'],
    ['TodoWrite', { todos: [] }, 'allow', 0, 'a host tool that changes nothing: no prompt (as Claude Code)'],
    [
      'Agent',
      { description: 'clean', prompt: 'remove build/', subagent_type: 'general-purpose' },
      'allow',
      0,
      'starting a subagent: no prompt, its own calls come through the hook one by one',
    ],
    [
      'Task',
      { description: 'd', prompt: 'p', subagent_type: 'Explore' },
      'allow',
      0,
      'the legacy Agent name',
    ],
    ['TaskCreate', { subject: 's', description: 'd' }, 'allow', 0, 'the session task list changes nothing'],
    ['constructor', {}, 'ask', 0, 'a prototype name is an unknown tool: ask, never a read-only allow'],
    ['Bash', { command: 'valueOf' }, 'ask', 0, 'a prototype name as a program: ask, not an internal error'],
    [
      'mcp__jira__create_issue',
      { title: 'x' },
      'ask',
      0,
      'a tool Gantry knows nothing about: ask, never a hard block',
    ],
  ])('%s %j → %s (exit %i): %s', (tool, input, decision, code, _why) => {
    const fixed = JSON.parse(JSON.stringify(input).replace('/APP', project));
    const r = hook(pre(tool, fixed));
    expect(r.decision).toBe(decision);
    expect(r.code).toBe(code);
    expect(r.out.hookSpecificOutput.permissionDecisionReason).toMatch(/^Gantry: /);
  });

  it('bypassPermissions from the host still cannot write a protected file', () => {
    const r = hook(
      pre('Bash', { command: 'cp evil ~/.ssh/authorized_keys' }, { permission_mode: 'bypassPermissions' }),
    );
    expect(r.decision).toBe('deny');
    expect(r.stderr).toMatch(/authorized_keys/);
  });

  it('a NUL in a path is denied with a reason naming the field (the part before it is inside the project)', () => {
    const r = hook(pre('Read', { file_path: `${project}/src/a.ts\0/etc/shadow` }));
    expect(r.decision).toBe('deny');
    expect(r.out.hookSpecificOutput.permissionDecisionReason).toMatch(/file_path contains a NUL/);
  });

  it('malformed input answers ask with the reason, exit 0', () => {
    const r = hook('{"tool_name": ');
    expect(r.code).toBe(0);
    expect(r.decision).toBe('ask');
    expect(r.out.hookSpecificOutput.permissionDecisionReason).toMatch(/not JSON/);
  });

  it('PostToolUse is recorded with no decision', () => {
    const r = hook({
      hook_event_name: 'PostToolUse',
      session_id: 'sess-1',
      cwd: project,
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_use_id: 'toolu_9',
      tool_response: {},
    });
    expect(r.code).toBe(0);
    expect(r.out).toBeUndefined();
    expect(readFileSync(path.join(home, 'hook-log.jsonl'), 'utf8')).toContain('"tool_use_id":"toolu_9"');
  });

  it("accepts Gemini CLI's BeforeTool payload", () => {
    const r = hook({
      hook_event_name: 'BeforeTool',
      cwd: project,
      tool_name: 'run_shell_command',
      tool_input: { command: 'rm -rf ~/.ssh' },
    });
    expect(r.decision).toBe('deny');
  });

  it('a --settings file that does not exist makes the hook ask (its rules are not silently dropped)', () => {
    const r = hook(pre('Bash', { command: 'ls' }), ['--settings', '/nonexistent/team.json']);
    expect(r.decision).toBe('ask');
    expect(r.out.hookSpecificOutput.permissionDecisionReason).toMatch(/does not exist/);
  });

  it('padding that cannot be analysed asks even in bypassPermissions, with the reason', () => {
    const call = pre(
      'Bash',
      { command: `ls ${'|&'.repeat(30_000)}` },
      { permission_mode: 'bypassPermissions' },
    );
    const envs: Record<string, string>[] = [{ GANTRY_HOOK_DAEMON: '0' }, {}];
    for (const env of envs) {
      const r = hook(call, [], env);
      expect(r.decision).toBe('ask');
      expect(r.code).toBe(0);
      expect(r.out.hookSpecificOutput.permissionDecisionReason).toContain('in every mode');
    }
  });

  it('deny rules on legacy aliases and prototype names apply, and every other call is still decided', () => {
    const settings = path.join(home, 'team-settings.json');
    writeFileSync(
      settings,
      JSON.stringify({ permissions: { deny: ['KillBash', 'toString', 'valueOf(x)'] } }),
    );
    const args = ['--settings', settings];
    const stop = hook(pre('TaskStop', { task_id: 'b123456' }), args);
    expect(stop.decision).toBe('deny');
    expect(stop.code).toBe(2);
    expect(stop.out.hookSpecificOutput.permissionDecisionReason).toMatch(/KillBash/);
    const ls = hook(pre('Bash', { command: 'ls' }), args);
    expect(ls.decision).toBe('allow');
    expect(ls.out.hookSpecificOutput.permissionDecisionReason).not.toMatch(/internal error/);
    expect(hook(pre('toString', {}), args).decision).toBe('deny');
  });

  it('--deny-only (Codex) emits only denies; malformed input denies (fail closed where no ask exists)', () => {
    for (const daemon of ['0', '1']) {
      const env = { GANTRY_HOOK_DAEMON: daemon };
      expect(hook(pre('Bash', { command: 'ls' }), ['--deny-only'], env)).toMatchObject({ code: 0, out: {} });
      expect(hook(pre('Bash', { command: 'npm install left-pad' }), ['--deny-only'], env)).toMatchObject({
        code: 0,
        out: {},
      });
      const push = hook(pre('Bash', { command: 'git push origin main' }), ['--deny-only'], env);
      expect(push.code).toBe(2);
      expect(push.decision).toBe('deny');
      expect(push.stderr).toMatch(/^Gantry: /);
      expect(hook('{not json', ['--deny-only'], env).decision).toBe('deny');
    }
  });

  it('--pass-allow emits no decision for allow', () => {
    const r = hook(pre('Bash', { command: 'ls' }), ['--pass-allow']);
    expect(r.code).toBe(0);
    expect(r.out).toEqual({});
  });
});

describe('gantry hook with a broken user settings file (fail closed)', () => {
  let home2: string;
  let project2: string;
  let settingsFile: string;
  beforeAll(() => {
    home2 = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-hook-broken-')));
    project2 = path.join(home2, 'app');
    mkdirSync(project2, { recursive: true });
    settingsFile = path.join(home2, '.claude', 'settings.json');
    mkdirSync(path.dirname(settingsFile), { recursive: true });
    // A trailing comma: the deny rule on `ls` would be lost and `ls` answered allow.
    writeFileSync(settingsFile, '{\n  "permissions": {\n    "deny": ["Bash(ls:*)",]\n  }\n}\n');
  });
  afterAll(async () => {
    await new Promise((r) => setTimeout(r, 3500));
    rmSync(home2, { recursive: true, force: true });
  });
  const run = (mode: string, daemon: string) =>
    hook({ ...pre('Bash', { command: 'ls' }), cwd: project2, permission_mode: mode }, [], {
      HOME: home2,
      GANTRY_HOOK_LOG: path.join(home2, 'hook-log.jsonl'),
      GANTRY_HOOK_DAEMON: daemon,
    });

  it.each([
    ['0', 'cold process'],
    ['1', 'resident server'],
  ])('asks, naming the file, line and error, and logs it (%s: %s)', async (daemon) => {
    if (daemon === '1') {
      run('default', daemon); // starts the server
      const runDir = path.join(home2, '.gantry', 'run');
      for (
        let i = 0;
        i < 100 && !(existsSync(runDir) && readdirSync(runDir).some((f) => f.endsWith('.sock')));
        i++
      )
        await new Promise((r) => setTimeout(r, 50));
      expect(readdirSync(runDir).some((f) => f.endsWith('.sock'))).toBe(true);
    }
    const r = run('default', daemon);
    expect(r.decision).toBe('ask');
    expect(r.code).toBe(0);
    expect(r.out.hookSpecificOutput.permissionDecisionReason).toContain(`${settingsFile}:3`);
    expect(r.out.hookSpecificOutput.permissionDecisionReason).toMatch(/invalid JSON/);
    const log = readFileSync(path.join(home2, 'hook-log.jsonl'), 'utf8');
    expect(log).toContain(settingsFile);
  });

  it('denies where nobody is asked (dontAsk), still naming the file', () => {
    const r = run('dontAsk', '0');
    expect(r.decision).toBe('deny');
    expect(r.code).toBe(2);
    expect(r.out.hookSpecificOutput.permissionDecisionReason).toContain(settingsFile);
  });
});
