/**
 * `gantry check` through the resident hook server (check-client.ts → check-server.ts): real
 * processes from bin/gantry.js. With the server running, every answer (exit code, stdout, stderr)
 * equals the in-process check's (`GANTRY_HOOK_DAEMON=0`); a server that the socket name leads to
 * receives the invocation with the client's working directory; `--hooks` and help never go there.
 */
import { execFile, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/shared-data.js';
import { socketPathFor } from './hook/hook-client.js';

const BIN = path.join(REPO_ROOT, 'bin', 'gantry.js');
const HOOK_BUNDLE = path.join(REPO_ROOT, 'dist', 'fast', 'gantry-hook.mjs');
const homes: string[] = [];

beforeAll(() => {
  const r = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale', '--js-only'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
});

afterAll(async () => {
  // the resident server started below exits 3 s after its last request
  await new Promise((r) => setTimeout(r, 3500));
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

function newHome() {
  const home = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-check-client-')));
  homes.push(home);
  const project = path.join(home, 'app');
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  mkdirSync(path.join(project, 'sub'));
  writeFileSync(
    path.join(project, '.claude', 'settings.json'),
    JSON.stringify({ permissions: { allow: ['Bash(npm test:*)'], deny: ['Bash(git push:*)'] } }, null, 2),
  );
  writeFileSync(path.join(project, 'team.json'), JSON.stringify({ permissions: { deny: ['Bash(make:*)'] } }));
  writeFileSync(path.join(project, 'broken.json'), '{ "permissions": { "deny": ["Bash(ls:*)",] } }\n');
  return { home, project };
}

function gantry(home: string, cwd: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: home,
      GANTRY_HOOK_LOG: 'off',
      GANTRY_HOOK_DAEMON_IDLE_MS: '3000',
      ...env,
    },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function waitForSocket(home: string): Promise<void> {
  const runDir = path.join(home, '.gantry', 'run');
  for (
    let i = 0;
    i < 100 && !(existsSync(runDir) && readdirSync(runDir).some((f) => f.endsWith('.sock')));
    i++
  )
    await new Promise((r) => setTimeout(r, 50));
  expect(readdirSync(runDir).some((f) => f.endsWith('.sock'))).toBe(true);
}

describe('gantry check with the resident server running', () => {
  it('answers every invocation exactly as the in-process check does', async () => {
    const { home, project } = newHome();
    const start = spawnSync(process.execPath, [BIN, 'hook'], {
      input: JSON.stringify({
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
        cwd: project,
      }),
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: home, GANTRY_HOOK_LOG: 'off', GANTRY_HOOK_DAEMON_IDLE_MS: '3000' },
    });
    expect(start.status).toBe(0);
    await waitForSocket(home);
    const cases: [string[], Record<string, string>, string, string][] = [
      [['check', '--', 'git status'], {}, project, 'read-only: allow, exit 0'],
      [['check', '--json', '--', 'rm -rf /'], {}, project, 'the floor denies; JSON output'],
      [['check', '--', 'npm test'], {}, project, 'untrusted project: its allow rule does not apply'],
      [
        ['check', '--', 'npm test'],
        { GANTRY_TRUST_PROJECT: '1' },
        project,
        "the caller's trust variable applies",
      ],
      [['check', '--', 'git push origin main'], {}, project, 'project deny rule: exit 2'],
      [
        ['check', '--settings', 'team.json', '--', 'make all'],
        {},
        project,
        "a relative --settings file is the caller's",
      ],
      [
        ['check', '--settings', 'broken.json', '--', 'ls'],
        {},
        project,
        'a broken --settings file: exit 3 naming file and line',
      ],
      [['check', '--settings', 'missing.json', '--', 'ls'], {}, project, 'a missing --settings file: exit 3'],
      [
        ['check', '--cwd', 'sub', '--', 'cat ../.claude/settings.json'],
        {},
        project,
        "a relative --cwd is the caller's",
      ],
      [
        ['check', '--cwd', '..', '--add-dir', 'app', '--', 'cat app/x'],
        {},
        path.join(project, 'sub'),
        'relative --add-dir',
      ],
      [['check', '--mode', 'plan', '--', 'touch x'], {}, project, 'plan mode refuses a change'],
      [['check', '--mode', 'nonsense', '--', 'ls'], {}, project, 'a bad mode: exit 3'],
      [
        ['check', '--tool', 'Raed', '--input', '{"file_path":"a"}'],
        {},
        project,
        'a near-miss tool name: did you mean',
      ],
      [['check', '--tool', 'Read', '--input', '[1]'], {}, project, 'input that is not an object: exit 3'],
      [['check'], {}, project, 'nothing to check: exit 3'],
      [['check', '--', 'valueOf'], {}, project, 'a prototype name as a program'],
    ];
    for (const [args, env, cwd, why] of cases) {
      const cold = gantry(home, cwd, args, { ...env, GANTRY_HOOK_DAEMON: '0' });
      const warm = gantry(home, cwd, args, env);
      expect(warm, why).toEqual(cold);
    }
    // On one terminal both streams interleave: the settings warnings come before the tree in both.
    const merged = (env: Record<string, string>) =>
      spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" check -- 'npm test' 2>&1`], {
        cwd: project,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: home, GANTRY_HOOK_LOG: 'off', ...env },
      }).stdout;
    const coldMerged = merged({ GANTRY_HOOK_DAEMON: '0' });
    expect(coldMerged).toMatch(/^settings warning: /);
    expect(merged({})).toBe(coldMerged);
  });
});

describe('gantry check forwards to the server its socket name leads to', () => {
  it("sends the words after check with the caller's cwd; --hooks and help are checked in-process", async () => {
    const { home, project } = newHome();
    const socket = socketPathFor(HOOK_BUNDLE, { HOME: home });
    mkdirSync(path.dirname(socket), { recursive: true, mode: 0o700 });
    const requests: unknown[] = [];
    const server = createServer({ allowHalfOpen: true }, (s) => {
      let data = '';
      s.setEncoding('utf8');
      s.on('data', (c: string) => {
        data += c;
      });
      s.on('end', () => {
        requests.push(JSON.parse(data));
        s.end(JSON.stringify({ stdout: 'from the server\n', stderr: 'note\n', exitCode: 1 }));
      });
    });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      // asynchronous: this process's own server must answer meanwhile
      const run = (args: string[]) =>
        new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
          execFile(
            process.execPath,
            [BIN, ...args],
            { cwd: project, env: { PATH: process.env.PATH, HOME: home, GANTRY_TRUST_PROJECT: '1' } },
            (error, stdout, stderr) =>
              resolve({ status: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
          );
        });
      const forwarded = await run(['check', '--json', '--', 'git status']);
      expect(forwarded).toEqual({ status: 1, stdout: 'from the server\n', stderr: 'note\n' });
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({
        kind: 'check',
        argv: ['--json', '--', 'git status'],
        cwd: project,
        env: { HOME: home, GANTRY_TRUST_PROJECT: '1' },
      });
      const withHooks = await run(['check', '--hooks', '--', 'git status']);
      expect(withHooks.status).toBe(0);
      expect(withHooks.stdout).toMatch(/^ALLOW/);
      const help = await run(['check', '--help']);
      expect(help.stdout).toMatch(/Usage: gantry check/);
      expect(requests).toHaveLength(1);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
