/**
 * Usage errors do not mislead: exit 3 in every command, `gantry hook` answers ask on a bad command
 * line (fail closed, never exit 1), `gantry mcp --port` means HTTP, `gantry check --tool` names a
 * near miss. Real processes through bin/gantry.js.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/shared-data.js';
import { parseHookArgs } from './hook/hook-client.js';

const home = mkdtempSync(path.join(tmpdir(), 'gantry-usage-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function gantry(args: string[], input = '') {
  return spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin', 'gantry.js'), ...args], {
    input,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH, HOME: home, GANTRY_HOOK_LOG: 'off', GANTRY_HOOK_DAEMON: '0' },
  });
}

describe('usage errors exit 3', () => {
  it.each([
    ['check with an unknown option', ['check', '--bogus', '--', 'ls']],
    ['replay with an unknown option', ['replay', '--bogus']],
    ['log with an unknown option', ['log', '--bogus']],
    ['doctor with an unknown option', ['doctor', '--bogus']],
    ['install with an unknown option', ['install', '--bogus']],
    ['mcp with stdio and a port', ['mcp', '--transport', 'stdio', '--port', '1234']],
    [
      'mcp in a --cwd that does not exist (it served tools there)',
      ['mcp', '--cwd', '/nonexistent-gantry-cwd'],
    ],
    ['mcp with a --cwd that is a file', ['mcp', '--cwd', path.join(REPO_ROOT, 'package.json')]],
  ])('%s', (_why, args) => {
    const r = gantry(args);
    expect(r.status, r.stderr).toBe(3);
    expect(r.stderr).not.toBe('');
  });

  it('--help still exits 0', () => {
    expect(gantry(['replay', '--help']).status).toBe(0);
  });
});

describe('gantry hook with a bad command line', () => {
  it.each([
    ['an unknown flag', ['--bogus'], ['unknown argument --bogus']],
    ['--settings without a file', ['--settings'], ['--settings needs a file']],
    ['good flags', ['--pass-allow', '--settings', 'a.json'], []],
  ])('parseHookArgs: %s', (_why, argv, errors) => {
    expect(parseHookArgs(argv).errors).toEqual(errors);
  });

  it('answers ask with the error instead of deciding (exit 0, never 1)', () => {
    const payload = JSON.stringify({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      cwd: home,
    });
    const r = gantry(['hook', '--bogus'], payload);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.hookSpecificOutput.permissionDecision).toBe('ask');
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain('unknown argument --bogus');
  });
});

describe('names and flags that mean something', () => {
  it('check --tool with a near miss says which tool was meant', () => {
    const r = gantry(['check', '--tool', 'Bassh', '--input', '{"command":"ls"}']);
    expect(r.stderr).toContain('did you mean Bash?');
  });

  it('mcp --port alone serves HTTP (prints its URL), never silently stdio', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'gantry.js'), 'mcp', '--port', '0'], {
      env: { PATH: process.env.PATH, HOME: home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let err = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed: ${err}`)), 30_000);
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        if (/http:\/\/127\.0\.0\.1:\d+/.test(err)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    expect(err).toMatch(/http:\/\/127\.0\.0\.1:\d+/);
  }, 60_000);
});
