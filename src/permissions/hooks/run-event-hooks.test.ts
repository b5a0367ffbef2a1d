/**
 * Command hooks of the non-PreToolUse events as real processes, and their loading from settings
 * files (every event, trust, disableAllHooks).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../settings/load.js';
import type { HookMatcherConfig } from '../settings/types.js';
import { mergeHookVerdicts } from './pre-tool-use.js';
import { runEventHooks } from './run-event-hooks.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'gantry-evhooks-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const entry = (command: string, matcher?: string, timeout?: number): HookMatcherConfig => ({
  ...(matcher !== undefined ? { matcher } : {}),
  hooks: [{ type: 'command', command, ...(timeout !== undefined ? { timeout } : {}) }],
  source: 'userSettings',
});
const run = (hooks: HookMatcherConfig[], matchValue?: string) =>
  runEventHooks({
    hooks,
    input: { hook_event_name: 'Stop', session_id: 's' },
    cwd: dir,
    projectRoot: dir,
    ...(matchValue !== undefined ? { matchValue } : {}),
  });

describe('runEventHooks (real processes)', () => {
  it.each([
    [
      'cat >/dev/null; echo "keep going" >&2; exit 2',
      { blocking: true, stderr: 'keep going\n' },
      'exit 2 blocks',
    ],
    [
      `cat >/dev/null; printf '{"decision":"block","reason":"r"}'`,
      { json: { decision: 'block', reason: 'r' } },
      'JSON',
    ],
    ['cat >/dev/null; echo plain context', { text: 'plain context' }, 'plain stdout'],
    ['cat >/dev/null; echo bad >&2; exit 1', { error: 'hook exited with 1: bad (non-blocking)' }, 'exit 1'],
    [
      `cat >/dev/null; printf '{"continue":false}'; exit 3`,
      { json: { continue: false } },
      'other code with JSON',
    ],
  ])('%s → %j (%s)', async (command, expected, _why) => {
    const [r] = await run([entry(command)]);
    expect(r).toMatchObject(expected);
  });

  it('passes the input on stdin, runs identical commands once, all in parallel', async () => {
    const out = path.join(dir, 'in.json');
    const cmd = `cat >> ${out}`;
    const results = await run([entry(cmd), entry(cmd)]);
    expect(results).toHaveLength(1);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ hook_event_name: 'Stop', session_id: 's' });
  });

  it('filters by matcher only when the event has a match value', async () => {
    expect(await run([entry('echo x', 'Edit')], 'Bash')).toEqual([]);
    expect(await run([entry('cat >/dev/null; echo x', 'Edit')], 'Edit')).toHaveLength(1);
    expect(await run([entry('cat >/dev/null; echo x', 'Edit')])).toHaveLength(1);
    const [bad] = await run([entry('true', '(')], 'Bash');
    expect(bad?.error).toMatch(/invalid hook matcher/);
  });

  it('a timed-out hook is an error', async () => {
    const [r] = await run([entry('sleep 20', undefined, 0.2)]);
    expect(r?.error).toMatch(/timed out/);
  });
});

describe('mergeHookVerdicts', () => {
  it.each([
    [{ decision: 'allow' }, { decision: 'deny', reason: 'no' }, 'deny', 'deny beats allow'],
    [{ decision: 'ask' }, { decision: 'allow' }, 'ask', 'ask beats allow'],
    [{}, { decision: 'allow' }, 'allow', 'any decision beats none'],
  ] as const)('%j + %j → %s (%s)', (a, b, expected, _why) => {
    const v = mergeHookVerdicts(
      { hook: 'a', errors: ['e1'], additionalContext: ['c1'], ...a },
      { hook: 'b', errors: [], additionalContext: ['c2'], ...b },
    );
    expect(v?.decision).toBe(expected);
    expect(v?.errors).toEqual(['e1']);
    expect(v?.additionalContext).toEqual(['c1', 'c2']);
  });
});

describe('loading hooks of every event from settings', () => {
  const write = (file: string, value: unknown) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(value, null, 2));
  };
  const hooksJson = {
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'pre' }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'stop-hook', timeout: 5 }] }],
      PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'post' }] }],
      SessionStart: 'not an array',
    },
  };

  it('reads every event (PreToolUse stays separate), reports a wrong shape with its line', () => {
    const home = path.join(dir, 'home');
    write(path.join(home, '.gantry', 'settings.json'), hooksJson);
    const s = loadSettings({ projectRoot: path.join(dir, 'p'), home, managedFiles: [] });
    expect(s.preToolUseHooks.map((h) => h.hooks[0]?.command)).toEqual(['pre']);
    expect(s.eventHooks.Stop?.[0]).toMatchObject({ hooks: [{ command: 'stop-hook', timeout: 5 }], line: 15 });
    expect(s.eventHooks.PostToolUse?.[0]?.matcher).toBe('Edit|Write');
    expect(s.problems.map((p) => p.message)).toContain('"hooks.SessionStart" must be an array');
  });

  it('project hooks need a trusted folder; disableAllHooks turns them off', () => {
    const home = path.join(dir, 'home');
    mkdirSync(home);
    const project = path.join(dir, 'p');
    write(path.join(project, '.claude', 'settings.json'), hooksJson);
    const untrusted = loadSettings({ projectRoot: project, home, managedFiles: [], trust: false });
    expect(untrusted.eventHooks).toEqual({});
    const trusted = loadSettings({ projectRoot: project, home, managedFiles: [], trust: true });
    expect(trusted.eventHooks.Stop).toHaveLength(1);
    write(path.join(project, '.claude', 'settings.local.json'), { disableAllHooks: true });
    const disabled = loadSettings({ projectRoot: project, home, managedFiles: [], trust: true });
    expect(disabled.eventHooks).toEqual({});
  });
});
