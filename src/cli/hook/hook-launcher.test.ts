/**
 * bin/gantry.js for `gantry hook`: a hook that cannot run must block the call (exit 2), because
 * hosts run the call anyway after a hook's exit 1 (Claude Code's hooks reference: only exit code 2
 * blocks). Real processes on a copy of the launcher beside a dist/ that is missing or broken.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PAYLOAD = JSON.stringify({
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'rm -rf /' },
  cwd: '/',
});

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A package root holding only the launcher (no src/ or .git: no stale check), plus `files`. */
function layout(files: Record<string, string>): string {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-launcher-')));
  mkdirSync(path.join(root, 'bin'));
  copyFileSync(path.join(REPO, 'bin', 'gantry.js'), path.join(root, 'bin', 'gantry.js'));
  copyFileSync(path.join(REPO, 'bin', 'package.json'), path.join(root, 'bin', 'package.json'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

function run(dir: string, args: string[]) {
  return spawnSync(process.execPath, [path.join(dir, 'bin', 'gantry.js'), ...args], {
    input: PAYLOAD,
    encoding: 'utf8',
    env: { ...process.env, HOME: dir },
  });
}

describe('bin/gantry.js fails closed for hook calls', () => {
  it.each([
    {
      reason: 'the built bundles are missing (an install whose build never ran)',
      files: {} as Record<string, string>,
      stderr: /missing/,
    },
    {
      reason: 'the hook client throws before any answer',
      files: {
        'dist/fast/gantry-hook.mjs': '',
        'dist/fast/gantry-hook-client.cjs':
          "exports.runHookCall = () => { throw new Error('boom in client'); };",
      },
      stderr: /boom in client/,
    },
    {
      reason: 'the hook client rejects asynchronously',
      files: {
        'dist/fast/gantry-hook.mjs': '',
        'dist/fast/gantry-hook-client.cjs':
          "exports.runHookCall = async () => { await null; throw new Error('late boom'); };",
      },
      stderr: /late boom/,
    },
  ])('$reason → exit 2 (blocking), reason on stderr', ({ files, stderr }) => {
    const r = run(layout(files), ['hook']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/gantry hook could not decide, so the call is blocked/);
    expect(r.stderr).toMatch(stderr);
    expect(r.stdout).toBe('');
  });

  it('other commands keep exit 1 for a missing build (they guard nothing)', () => {
    const r = run(layout({}), ['check', '--', 'git status']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/missing; run `npm run build`/);
  });

  it('`gantry hook --help` is not a hook call', () => {
    const r = run(layout({}), ['hook', '--help']);
    expect(r.status).toBe(1);
    expect(r.stderr).not.toMatch(/blocked/);
  });
});
