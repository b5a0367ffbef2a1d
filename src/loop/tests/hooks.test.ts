/**
 * Hooks in the loop as real processes (settings files with command hooks, loaded by the settings
 * loader, run by the hook runner) and as callbacks: every event's input JSON, what each event's
 * answer does, PreToolUse running exactly once per call, the Stop-hook cap.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPermissionEngine } from '../../permissions/engine.js';
import { loadSettings } from '../../permissions/settings/load.js';
import { reply, toolUse } from '../../testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeLoopWorld,
  runQuery,
  startFakeModel,
} from '../../testing/loop-fixtures.js';
import { MAX_STOP_HOOK_BLOCKS } from '../prompt-turn.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

/** Writes an executable hook script and returns its path. */
function script(w: LoopWorld, name: string, body: string): string {
  const file = path.join(w.root, `${name}.sh`);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

/** Settings with command hooks; returns the engine and the loaded event hooks. */
function withHooks(w: LoopWorld, hooks: Record<string, { matcher?: string; command: string }[]>) {
  const file = path.join(w.root, 'hook-settings.json');
  const json: Record<string, unknown[]> = {};
  for (const [event, list] of Object.entries(hooks))
    json[event] = list.map((h) => ({
      ...(h.matcher ? { matcher: h.matcher } : {}),
      hooks: [{ type: 'command', command: h.command }],
    }));
  writeFileSync(
    file,
    JSON.stringify({ permissions: { allow: ['Read', 'Bash(false)', 'Bash(echo:*)'] }, hooks: json }),
  );
  const settings = loadSettings({
    projectRoot: w.project,
    home: w.home,
    managedFiles: [],
    settingsFiles: [file],
  });
  expect(settings.problems.filter((p) => p.severity === 'error')).toEqual([]);
  return { engine: createPermissionEngine({ settings }), settingsHooks: settings.eventHooks };
}

const readLog = (file: string): any[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));

describe('command hooks in the loop', () => {
  it('every event fires with Claude Code input JSON and its answer takes effect', async () => {
    world = makeLoopWorld();
    const log = path.join(world.root, 'events.jsonl');
    const record = `cat >> ${log}`;
    const target = path.join(world.project, 'notes.txt');
    writeFileSync(target, 'line one\n');
    const stopCount = path.join(world.root, 'stop-count');
    const hooks = withHooks(world, {
      SessionStart: [{ command: script(world, 'start', `${record}\necho "The build command is make."`) }],
      UserPromptSubmit: [
        {
          command: script(
            world,
            'prompt',
            `${record}\nprintf '%s' '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"The user prefers tabs."},"systemMessage":"prompt checked"}'`,
          ),
        },
      ],
      PreToolUse: [{ command: script(world, 'pre', record) }],
      PostToolUse: [
        {
          matcher: 'Read',
          command: script(
            world,
            'post',
            `${record}\nprintf '%s' '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"Read was audited."}}'`,
          ),
        },
      ],
      PostToolUseFailure: [{ command: script(world, 'fail', record) }],
      Stop: [
        {
          command: script(
            world,
            'stop',
            `${record}\nif [ ! -e ${stopCount} ]; then touch ${stopCount}; echo "Also run the tests." >&2; exit 2; fi`,
          ),
        },
      ],
      SessionEnd: [{ command: script(world, 'end', record) }],
    });
    model = await startFakeModel('anthropic', [
      reply.message([
        toolUse('Read', { file_path: target }, { id: 'toolu_read' }),
        toolUse('Bash', { command: 'false' }, { id: 'toolu_false' }),
      ]),
      reply.text('first stop'),
      reply.text('ran the tests'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'read the notes',
        permissionEngine: hooks.engine,
        settingsHooks: hooks.settingsHooks,
      }),
    );
    const events = readLog(log);
    expect(events.map((e) => e.hook_event_name)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      // Read is concurrency-safe and Bash is not: Read runs (and its PostToolUse, which holds the
      // call's place in the admission gate) before Bash is admitted.
      'PreToolUse',
      'PostToolUse',
      'PreToolUse',
      'PostToolUseFailure',
      'Stop',
      'Stop',
      'SessionEnd',
    ]);
    const byName = (n: string) => events.filter((e) => e.hook_event_name === n);
    for (const e of events) {
      expect(e).toMatchObject({
        session_id: run.result.sessionId,
        cwd: world.project,
        transcript_path: run.result.transcriptPath,
      });
      expect(typeof e.permission_mode).toBe('string');
    }
    expect(byName('SessionStart')[0]).toMatchObject({ source: 'startup' });
    expect(byName('UserPromptSubmit')[0]).toMatchObject({ prompt: 'read the notes' });
    // PreToolUse runs once per call, inside the engine.
    expect(
      byName('PreToolUse')
        .map((e) => e.tool_use_id)
        .sort(),
    ).toEqual(['toolu_false', 'toolu_read']);
    expect(byName('PostToolUse')[0]).toMatchObject({
      tool_name: 'Read',
      tool_use_id: 'toolu_read',
      tool_input: { file_path: target },
      tool_response: { type: 'text', file: { filePath: target, content: 'line one\n' } },
    });
    expect(byName('PostToolUseFailure')[0]).toMatchObject({ tool_name: 'Bash', tool_use_id: 'toolu_false' });
    expect(byName('PostToolUseFailure')[0].error).toMatch(/Exit code 1/);
    expect(byName('Stop').map((e) => e.stop_hook_active)).toEqual([false, true]);
    expect(byName('Stop')[0].last_assistant_message).toBe('first stop');
    expect(byName('SessionEnd')[0]).toMatchObject({ reason: 'prompt_input_exit' });

    const first = model.requests()[0]!.body.messages[0].content;
    expect(JSON.stringify(first)).toContain('The build command is make.');
    expect(JSON.stringify(first)).toContain('The user prefers tabs.');
    const second = JSON.stringify(model.requests()[1]!.body.messages[2]);
    expect(second).toContain('Read was audited.');
    const third = model.requests()[2]!.body.messages;
    expect(JSON.stringify(third[third.length - 1])).toContain('Also run the tests.');
    expect(run.of('system', 'informational').map((e) => e.content)).toContain('prompt checked');
    expect(run.results[0]).toMatchObject({ subtype: 'success', result: 'ran the tests', num_turns: 3 });
  });

  it('a UserPromptSubmit hook exiting 2 blocks the prompt: no request, a prompt_blocked result', async () => {
    world = makeLoopWorld();
    const hooks = withHooks(world, {
      UserPromptSubmit: [
        { command: script(world, 'block', 'cat >/dev/null; echo "no secrets in prompts" >&2; exit 2') },
      ],
    });
    model = await startFakeModel('anthropic', []);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'my password is hunter2',
        permissionEngine: hooks.engine,
        settingsHooks: hooks.settingsHooks,
      }),
    );
    expect(model.requests()).toHaveLength(0);
    expect(run.results[0]).toMatchObject({ is_error: true, terminal_reason: 'prompt_blocked' });
    expect(run.results[0]?.errors?.[0]).toContain('no secrets in prompts');
    expect(JSON.stringify(run.result.messages)).not.toContain('hunter2');
  });

  it(`a Stop hook that always blocks is overridden after ${MAX_STOP_HOOK_BLOCKS} blocks in a row`, async () => {
    world = makeLoopWorld();
    const hooks = withHooks(world, {
      Stop: [
        {
          command: script(
            world,
            'never',
            `cat >/dev/null; printf '%s' '{"decision":"block","reason":"keep going"}'`,
          ),
        },
      ],
    });
    model = await startFakeModel(
      'anthropic',
      Array.from({ length: MAX_STOP_HOOK_BLOCKS + 1 }, (_, i) => reply.text(`stop ${i}`)),
    );
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        permissionEngine: hooks.engine,
        settingsHooks: hooks.settingsHooks,
      }),
    );
    expect(model.requests()).toHaveLength(MAX_STOP_HOOK_BLOCKS + 1);
    expect(run.results[0]).toMatchObject({ subtype: 'success', result: `stop ${MAX_STOP_HOOK_BLOCKS}` });
    expect(run.of('system', 'informational').some((e) => /blocked 8 times in a row/.test(e.content))).toBe(
      true,
    );
  });

  it('continue:false from a PostToolUse hook stops the agent after the call', async () => {
    world = makeLoopWorld();
    const hooks = withHooks(world, {
      PostToolUse: [
        {
          command: script(
            world,
            'halt',
            `cat >/dev/null; printf '%s' '{"continue":false,"stopReason":"policy says stop"}'`,
          ),
        },
      ],
    });
    model = await startFakeModel('anthropic', [
      reply.toolUse('Bash', { command: 'echo hi' }),
      reply.text('never'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        permissionEngine: hooks.engine,
        settingsHooks: hooks.settingsHooks,
      }),
    );
    expect(model.requests()).toHaveLength(1);
    expect(run.results[0]?.terminal_reason).toBe('hook_stopped');
  });
});

describe('callback hooks', () => {
  it('callbacks get the same input objects and their answers work like command hooks', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [reply.text('first'), reply.text('second')]);
    const seen: any[] = [];
    let stops = 0;
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'hello',
        hooks: {
          UserPromptSubmit: [
            {
              hooks: [
                async (input) => (
                  seen.push(input),
                  {
                    hookSpecificOutput: {
                      hookEventName: 'UserPromptSubmit',
                      additionalContext: 'ctx from callback',
                    },
                  }
                ),
              ],
            },
          ],
          Stop: [
            {
              hooks: [
                async (input) => (
                  seen.push(input), stops++ === 0 ? { decision: 'block', reason: 'one more' } : {}
                ),
              ],
            },
          ],
          SessionEnd: [{ hooks: [async (input) => (seen.push(input), {})] }],
        },
      }),
    );
    expect(seen.map((i) => i.hook_event_name)).toEqual(['UserPromptSubmit', 'Stop', 'Stop', 'SessionEnd']);
    expect(JSON.stringify(model.requests()[0]!.body.messages[0])).toContain('ctx from callback');
    expect(run.results[0]?.result).toBe('second');
  });

  it('a UserPromptSubmit callback that times out blocks the prompt', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', []);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'hello',
        hooks: { UserPromptSubmit: [{ timeout: 0.05, hooks: [() => new Promise(() => undefined)] }] },
      }),
    );
    expect(model.requests()).toHaveLength(0);
    expect(run.results[0]?.terminal_reason).toBe('prompt_blocked');
  });

  it('a callback that throws is a non-blocking problem, reported as a warning', async () => {
    world = makeLoopWorld();
    model = await startFakeModel('anthropic', [reply.text('done anyway')]);
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'hello',
        hooks: {
          Stop: [
            {
              hooks: [
                () => {
                  throw new Error('callback exploded');
                },
              ],
            },
          ],
        },
      }),
    );
    expect(run.results[0]).toMatchObject({ subtype: 'success', result: 'done anyway' });
    const warnings = run.of('system', 'informational').filter((e) => e.level === 'warning');
    expect(warnings.map((w) => w.content).join('\n')).toMatch(
      /Stop hook problem \(ignored\): .*callback exploded/,
    );
  });
});
