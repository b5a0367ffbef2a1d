/**
 * A warm `gantry hook` from a git checkout never answers with code older than the sources: the
 * resident server vouches for them instead of the client comparing them on every call
 * (src/cli/hook/source-vouch.ts), and after an edit the next call is decided by the rebuilt code,
 * not by the server that is still running. In a scratch copy of the checkout (as
 * stale-build.test.ts makes it) with a scratch home.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const IDLE_MS = 4000;
let root: string;
let checkout: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-stale-hook-')));
  checkout = path.join(root, 'checkout');
  mkdirSync(path.join(checkout, '.git'), { recursive: true });
  for (const f of ['src', 'scripts', 'bin'])
    cpSync(path.join(REPO, f), path.join(checkout, f), { recursive: true });
  for (const f of ['package.json', 'tsconfig.json', 'tsconfig.build.json']) {
    cpSync(path.join(REPO, f), path.join(checkout, f));
  }
  symlinkSync(path.join(REPO, 'node_modules'), path.join(checkout, 'node_modules'));
});

afterAll(async () => {
  // Let the resident hook servers exit (idle) before their home goes away.
  await new Promise((r) => setTimeout(r, IDLE_MS + 1000));
  if (root) rmSync(root, { recursive: true, force: true });
});

const call = JSON.stringify({
  hook_event_name: 'PreToolUse',
  session_id: 's',
  cwd: '/tmp',
  permission_mode: 'default',
  tool_use_id: 't',
  tool_name: 'Bash',
  tool_input: { command: 'git status' },
});

function hook() {
  const r = spawnSync(process.execPath, [path.join(checkout, 'bin/gantry.js'), 'hook'], {
    cwd: root,
    input: call,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: root,
      GANTRY_HOOK_LOG: 'off',
      GANTRY_HOOK_DAEMON_IDLE_MS: String(IDLE_MS),
    },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function waitForServer(): Promise<void> {
  const runDir = path.join(root, '.gantry', 'run');
  for (
    let i = 0;
    i < 200 && !(existsSync(runDir) && readdirSync(runDir).some((f) => f.endsWith('.sock')));
    i++
  ) {
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(readdirSync(runDir).some((f) => f.endsWith('.sock'))).toBe(true);
}

it('after a source edit, the next warm call is decided by the rebuilt code, not by the running server', async () => {
  const first = hook(); // builds dist/ (none yet), decides in-process, starts the server
  expect(first.status, first.stderr).toBe(0);
  expect(first.stdout).toContain('every sub-command is read-only');
  await waitForServer();
  const warm = hook();
  expect(warm.status, warm.stderr).toBe(0);
  expect(warm.stdout).toBe(first.stdout);

  const file = path.join(checkout, 'src/permissions/pipeline-allow.ts');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace('every sub-command is read-only', 'edited: all read-only'),
  );
  const edited = hook();
  expect(edited.status, edited.stderr).toBe(0);
  expect(edited.stdout).toContain('edited: all read-only');
  expect(edited.stdout).not.toContain('every sub-command is read-only');
});
