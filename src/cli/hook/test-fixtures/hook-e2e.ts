/**
 * Shared set-up of the `gantry hook` end-to-end tests (../hook.e2e.test.ts: decisions in-process;
 * ../hook-warm.e2e.test.ts: the resident server): a scratch home with a trusted project whose settings
 * deny `git push` and allow `npm test`, and `hook(payload)`, which runs `bin/gantry.js hook` as
 * Claude Code does (hook JSON on stdin, decision JSON on stdout, the exit code).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { REPO_ROOT } from '../../../testing/shared-data.js';

export const BUNDLE = path.join(REPO_ROOT, 'dist', 'fast', 'gantry-hook.mjs');

export let home: string;
export let project: string;

/** Registers the scratch home's creation and removal in the calling test file. */
export function useHookHome(): void {
  beforeAll(() => {
    // the JavaScript bundles the hook runs (declarations are not needed; an up-to-date dist/ is kept)
    const r = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale', '--js-only'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    home = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-hook-home-')));
    project = path.join(home, 'app');
    mkdirSync(path.join(project, '.claude'), { recursive: true });
    writeFileSync(
      path.join(project, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { deny: ['Bash(git push:*)'], allow: ['Bash(npm test:*)'] } }, null, 2),
    );
    // Trust the project the way Claude Code records it, so its allow rules apply.
    writeFileSync(
      path.join(home, '.claude.json'),
      JSON.stringify({ projects: { [project]: { hasTrustDialogAccepted: true } } }),
    );
  });

  afterAll(async () => {
    // Let the resident hook server (3 s idle) exit before its home goes away.
    await new Promise((r) => setTimeout(r, 3500));
    rmSync(home, { recursive: true, force: true });
  });
}

export function hook(payload: unknown, args: string[] = [], extraEnv: Record<string, string> = {}) {
  const stdin = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin', 'gantry.js'), 'hook', ...args], {
    input: stdin,
    encoding: 'utf8',
    // The resident hook server started by these calls exits 3 s after the last one.
    env: {
      PATH: process.env.PATH,
      HOME: home,
      GANTRY_HOOK_LOG: path.join(home, 'hook-log.jsonl'),
      GANTRY_HOOK_DAEMON_IDLE_MS: '3000',
      ...extraEnv,
    },
  });
  const out = r.stdout.trim() ? JSON.parse(r.stdout) : undefined;
  return { code: r.status, out, stderr: r.stderr, decision: out?.hookSpecificOutput?.permissionDecision };
}

export const pre = (
  tool_name: string,
  tool_input: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) => ({
  hook_event_name: 'PreToolUse',
  session_id: 'sess-1',
  transcript_path: '/dev/null',
  cwd: project,
  permission_mode: 'default',
  tool_use_id: 'toolu_01',
  tool_name,
  tool_input,
  ...extra,
});
