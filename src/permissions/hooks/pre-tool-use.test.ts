/**
 * PreToolUse hooks as real processes (the Claude Code hooks reference).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HookMatcherConfig } from '../settings/types.js';
import { compileHookMatcher } from './matcher.js';
import { interpretHookRun, type PreToolUseInput, runPreToolUseHooks } from './pre-tool-use.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'gantry-hooks-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const input = (tool = 'Bash'): PreToolUseInput => ({
  session_id: 's1',
  transcript_path: '/t.jsonl',
  cwd: dir,
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  tool_name: tool,
  tool_input: { command: 'ls' },
  tool_use_id: 'toolu_1',
});
const hooks = (
  ...commands: (string | { command: string; timeout?: number; matcher?: string })[]
): HookMatcherConfig[] =>
  commands.map((c) => {
    const h = typeof c === 'string' ? { command: c } : c;
    return {
      ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
      hooks: [
        { type: 'command', command: h.command, ...(h.timeout !== undefined ? { timeout: h.timeout } : {}) },
      ],
      source: 'userSettings',
    };
  });
const run = (hs: HookMatcherConfig[], tool = 'Bash') =>
  runPreToolUseHooks({ hooks: hs, input: input(tool), projectRoot: dir });
const json = (o: unknown) => `cat >/dev/null; printf '%s' '${JSON.stringify(o)}'`;

describe('runPreToolUseHooks (real processes)', () => {
  it('exit 2 blocks with stderr as the reason', async () => {
    const v = await run(hooks('cat >/dev/null; echo "no rm here" >&2; exit 2'));
    expect(v).toMatchObject({ decision: 'deny', reason: 'no rm here' });
  });

  it('JSON permissionDecision allow with reason and updatedInput', async () => {
    const v = await run(
      hooks(
        json({
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'allow',
            permissionDecisionReason: 'ok by policy',
            updatedInput: { command: 'ls -la' },
          },
        }),
      ),
    );
    expect(v).toMatchObject({
      decision: 'allow',
      reason: 'ok by policy',
      updatedInput: { command: 'ls -la' },
    });
  });

  it.each([
    [{ hookSpecificOutput: { permissionDecision: 'ask' } }, 'ask', 'ask'],
    [{ hookSpecificOutput: { permissionDecision: 'defer' } }, 'ask', 'defer is treated as ask'],
    [{ decision: 'block', reason: 'legacy' }, 'deny', 'legacy block'],
    [{ decision: 'approve' }, 'allow', 'legacy approve'],
    [{ continue: false, stopReason: 'stop' }, 'deny', 'continue:false stops the call'],
    [{ hookSpecificOutput: { permissionDecision: 'maybe' } }, undefined, 'unknown decision ignored'],
  ])('JSON %j → %s (%s)', async (out, decision, _why) => {
    const v = await run(hooks(json(out)));
    expect(v?.decision).toBe(decision);
  });

  it('deny wins over allow across hooks (they run in parallel)', async () => {
    const v = await run(
      hooks(
        json({ hookSpecificOutput: { permissionDecision: 'allow' } }),
        'cat >/dev/null; echo blocked >&2; exit 2',
      ),
    );
    expect(v).toMatchObject({ decision: 'deny', reason: 'blocked' });
  });

  it('a JSON allow cannot override exit 2', async () => {
    const v = await run(
      hooks(
        `cat >/dev/null; printf '%s' '{"hookSpecificOutput":{"permissionDecision":"allow"}}'; echo nope >&2; exit 2`,
      ),
    );
    expect(v?.decision).toBe('deny');
  });

  it('exit 1 without JSON is a non-blocking error', async () => {
    const v = await run(hooks('cat >/dev/null; echo oops >&2; exit 1'));
    expect(v?.decision).toBeUndefined();
    expect(v?.errors[0]).toMatch(/exited with 1: oops/);
  });

  it('a timed-out hook renders no decision and is killed', async () => {
    const v = await run(hooks({ command: 'sleep 30; echo late', timeout: 0.3 }));
    expect(v?.decision).toBeUndefined();
    expect(v?.errors[0]).toMatch(/timed out/);
  });

  it('receives the hook input on stdin and CLAUDE_PROJECT_DIR in the environment', async () => {
    const out = path.join(dir, 'stdin.json');
    await run(hooks(`cat > ${out}; echo "$CLAUDE_PROJECT_DIR" >> ${out}.env`));
    const got = JSON.parse(readFileSync(out, 'utf8')) as PreToolUseInput;
    expect(got).toEqual(input());
    expect(readFileSync(`${out}.env`, 'utf8').trim()).toBe(dir);
  });

  it('matchers select hooks by tool name; no matching hook → undefined', async () => {
    expect(await run(hooks({ command: 'exit 2', matcher: 'Edit|Write' }), 'Bash')).toBeUndefined();
    expect(
      (await run(hooks({ command: 'cat >/dev/null; exit 2', matcher: 'Edit|Write' }), 'Write'))?.decision,
    ).toBe('deny');
  });

  it('identical handlers from several files run once', async () => {
    const counter = path.join(dir, 'count');
    const cmd = `cat >/dev/null; echo x >> ${counter}`;
    await run([...hooks(cmd), ...hooks(cmd)]);
    expect(readFileSync(counter, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('a hook that cannot start is non-blocking', async () => {
    const v = await runPreToolUseHooks({
      hooks: hooks('true'),
      input: { ...input(), cwd: path.join(dir, 'missing') },
      projectRoot: dir,
    });
    expect(v?.decision).toBeUndefined();
    expect(v?.errors[0]).toMatch(/could not start/);
  });
});

describe('interpretHookRun', () => {
  it.each([
    [
      { exitCode: 0, stdout: 'plain text', stderr: '', timedOut: false },
      undefined,
      'plain stdout is ignored',
    ],
    [
      { exitCode: 0, stdout: '  {"decision":"block"}', stderr: '', timedOut: false },
      'deny',
      'leading whitespace before JSON',
    ],
    [
      {
        exitCode: 3,
        stdout: '{"hookSpecificOutput":{"permissionDecision":"ask"}}',
        stderr: '',
        timedOut: false,
      },
      'ask',
      'other exit code: valid JSON decides',
    ],
    [
      { exitCode: 0, stdout: '{not json', stderr: '', timedOut: false },
      undefined,
      'invalid JSON is plain text',
    ],
  ])('%j → %s (%s)', (r, decision, _why) => {
    expect(interpretHookRun(r, 1000).decision).toBe(decision);
  });
});

describe('compileHookMatcher', () => {
  it.each([
    [undefined, 'Bash', true, 'no matcher: all tools'],
    ['*', 'Read', true, 'star: all tools'],
    ['Bash', 'Bash', true, 'exact name'],
    ['Bash', 'BashOutput', false, 'exact, not prefix'],
    ['Edit|Write', 'Write', true, 'list with |'],
    ['Edit, Write', 'Write', true, 'list with comma and spaces'],
    ['Edit.*', 'NotebookEdit', true, 'regex is unanchored (the Claude Code hooks reference)'],
    ['^Edit$', 'NotebookEdit', false, 'anchored regex'],
    ['mcp__memory__.*', 'mcp__memory__store', true, 'MCP server regex'],
  ])('%s vs %s → %s (%s)', (m, tool, expected, _why) => {
    const f = compileHookMatcher(m);
    expect(typeof f === 'function' && f(tool)).toBe(expected);
  });

  it('an invalid regex is reported', () => {
    expect(compileHookMatcher('(')).toHaveProperty('error');
  });
});
