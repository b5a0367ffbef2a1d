/**
 * Plan mode and AskUserQuestion end to end in `gantry -p` (the real bin against the scripted fake
 * model server): EnterPlanMode switches the session to plan (a write is refused), ExitPlanMode is
 * approved by a PreToolUse command hook (the session returns to its earlier mode and the write
 * goes through) or, with nobody to approve, refused (the session stays in plan); AskUserQuestion
 * gets its answers from a PreToolUse hook's `updatedInput`, or is refused clearly without one.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply, type ScriptEntry } from '../../testing/fake-model-script.js';
import {
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
  runGantry,
} from '../../testing/print-fixtures.js';

let world: PrintWorld;
let fake: FakeAnthropicServer | undefined;

beforeEach(() => {
  world = makePrintWorld();
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  world.cleanup();
});

async function run(script: ScriptEntry[], args: string[]) {
  fake = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script });
  return runGantry(['-p', '--output-format', 'stream-json', '--verbose', ...args], {
    cwd: world.project,
    env: gantryEnv(world, fake),
  });
}

/** A PreToolUse command hook for `matcher` that prints `output` as its JSON answer. */
function hookSettings(matcher: string, output: unknown): string {
  const file = path.join(world.root, `${matcher}-hook.json`);
  writeFileSync(file, JSON.stringify(output));
  return JSON.stringify({
    hooks: {
      PreToolUse: [{ matcher, hooks: [{ type: 'command', command: `cat ${JSON.stringify(file)}` }] }],
    },
  });
}

/** The tool_result blocks the session sent back, in order. */
function toolResults(lines: any[]): any[] {
  return lines
    .filter((l) => l.type === 'user' && Array.isArray(l.message?.content))
    .flatMap((l) => l.message.content.filter((b: any) => b.type === 'tool_result'));
}

const resultText = (block: any): string =>
  typeof block.content === 'string' ? block.content : block.content.map((b: any) => b.text ?? '').join('');

const PLAN = '# Plan\n\n1. Write notes.txt with the findings.\n';

describe('plan mode in gantry -p', () => {
  it("in plan mode the session's own plan file may be written; any other file is still refused", async () => {
    const sessionId = '0b6f2a4e-6f3c-4c1e-9a55-3c2d4b1e7f10';
    const planFile = path.join(world.home, '.gantry', 'plans', `${sessionId}.md`);
    const other = path.join(world.project, 'notes.txt');
    const r = await run(
      [
        reply.toolUse('Write', { file_path: planFile, content: PLAN }),
        reply.toolUse('Write', { file_path: other, content: 'too early' }),
        reply.text('Planned.'),
      ],
      ['--permission-mode', 'plan', '--session-id', sessionId, 'make a plan'],
    );
    const results = toolResults(r.lines());
    expect(results[0].is_error, resultText(results[0])).toBeFalsy();
    expect(readFileSync(planFile, 'utf8')).toBe(PLAN);
    expect(results[1].is_error).toBe(true);
    expect(existsSync(other)).toBe(false);
  });

  it('enter → a write is refused → a hook approves the plan → the earlier mode is back and the write runs', async () => {
    const target = path.join(world.project, 'notes.txt');
    const r = await run(
      [
        reply.toolUse('EnterPlanMode', {}),
        reply.toolUse('Write', { file_path: target, content: 'too early' }),
        reply.toolUse('ExitPlanMode', { plan: PLAN }),
        reply.toolUse('Write', { file_path: target, content: 'findings' }),
        reply.text('Done.'),
      ],
      [
        '--permission-mode',
        'acceptEdits',
        '--settings',
        hookSettings('ExitPlanMode', {
          hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
        }),
        'plan, then write notes',
      ],
    );
    expect(r.code, r.stderr).toBe(0);
    const results = toolResults(r.lines());
    expect(results).toHaveLength(4);
    expect(resultText(results[0])).toMatch(/Plan mode is on/);
    expect(results[1].is_error).toBe(true);
    expect(resultText(results[1])).toMatch(/plan mode/i);
    expect(resultText(results[2])).toMatch(/approved your plan/);
    expect(resultText(results[2])).toContain('Write notes.txt with the findings.');
    expect(results[3].is_error ?? false).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('findings');
    const sessionId = r.lines()[0].session_id as string;
    const planFile = path.join(world.home, '.gantry', 'plans', `${sessionId}.md`);
    expect(readFileSync(planFile, 'utf8')).toBe(PLAN);
    expect(resultText(results[2])).toContain(planFile);
  });

  it('with nobody to approve, ExitPlanMode is refused and the session stays in plan mode', async () => {
    const target = path.join(world.project, 'notes.txt');
    const r = await run(
      [
        reply.toolUse('EnterPlanMode', {}),
        reply.toolUse('ExitPlanMode', { plan: PLAN }),
        reply.toolUse('Write', { file_path: target, content: 'x' }),
        reply.text('Stopped.'),
      ],
      ['--permission-mode', 'acceptEdits', 'plan it'],
    );
    expect(r.code, r.stderr).toBe(0);
    const results = toolResults(r.lines());
    expect(results[1].is_error).toBe(true);
    expect(resultText(results[1])).toMatch(/no one to ask/);
    expect(results[2].is_error).toBe(true);
    expect(resultText(results[2])).toMatch(/plan mode/i);
    expect(existsSync(target)).toBe(false);
  });

  it('a plansDirectory setting moves the plan file; hooks see the plan and planFilePath', async () => {
    const sessionId = '6d1f0c2a-1b2c-4d3e-8f90-a1b2c3d4e5f6';
    const planFile = path.join(world.project, 'plans', `${sessionId}.md`);
    const seenPre = path.join(world.root, 'pre-input.json');
    const seenPost = path.join(world.root, 'post-input.json');
    const allow = path.join(world.root, 'allow.json');
    writeFileSync(
      allow,
      JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }),
    );
    const settings = JSON.stringify({
      plansDirectory: 'plans',
      hooks: {
        PreToolUse: [
          {
            matcher: 'ExitPlanMode',
            hooks: [
              { type: 'command', command: `cat > ${JSON.stringify(seenPre)}; cat ${JSON.stringify(allow)}` },
            ],
          },
        ],
        PostToolUse: [
          {
            matcher: 'ExitPlanMode',
            hooks: [{ type: 'command', command: `cat > ${JSON.stringify(seenPost)}` }],
          },
        ],
      },
    });
    const r = await run(
      [
        reply.toolUse('Write', { file_path: planFile, content: PLAN }),
        reply.toolUse('ExitPlanMode', {}),
        reply.text('Approved.'),
      ],
      ['--permission-mode', 'plan', '--session-id', sessionId, '--settings', settings, 'make a plan'],
    );
    expect(r.code, r.stderr).toBe(0);
    const results = toolResults(r.lines());
    expect(results[0].is_error, resultText(results[0])).toBeFalsy();
    expect(readFileSync(planFile, 'utf8')).toBe(PLAN);
    expect(results[1].is_error, resultText(results[1])).toBeFalsy();
    expect(resultText(results[1])).toContain(planFile);
    for (const seen of [seenPre, seenPost]) {
      const input = JSON.parse(readFileSync(seen, 'utf8'));
      expect(input.tool_name).toBe('ExitPlanMode');
      expect(input.tool_input).toEqual({ plan: PLAN, planFilePath: planFile });
    }
  });

  it('a hook that echoes the injected fields back in updatedInput does not break the call', async () => {
    const sessionId = '7e2a1d3b-2c3d-4e4f-9a01-b2c3d4e5f607';
    const planFile = path.join(world.home, '.gantry', 'plans', `${sessionId}.md`);
    const echo = path.join(world.root, 'echo-hook.mjs');
    writeFileSync(
      echo,
      [
        "let raw = '';",
        "process.stdin.on('data', (d) => (raw += d)).on('end', () => {",
        '  const input = JSON.parse(raw);',
        '  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse",',
        '    permissionDecision: "allow", updatedInput: input.tool_input } }));',
        '});',
      ].join('\n'),
    );
    const settings = JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: 'ExitPlanMode',
            hooks: [
              { type: 'command', command: `${JSON.stringify(process.execPath)} ${JSON.stringify(echo)}` },
            ],
          },
        ],
      },
    });
    const r = await run(
      [
        reply.toolUse('Write', { file_path: planFile, content: PLAN }),
        reply.toolUse('ExitPlanMode', {}),
        reply.text('Approved.'),
      ],
      ['--permission-mode', 'plan', '--session-id', sessionId, '--settings', settings, 'make a plan'],
    );
    expect(r.code, r.stderr).toBe(0);
    const results = toolResults(r.lines());
    expect(results[1].is_error, resultText(results[1])).toBeFalsy();
    expect(resultText(results[1])).toMatch(/approved your plan/);
    expect(readFileSync(planFile, 'utf8')).toBe(PLAN);
  });

  it('ExitPlanMode outside plan mode is an input error', async () => {
    const r = await run([reply.toolUse('ExitPlanMode', { plan: PLAN }), reply.text('ok')], ['x']);
    const results = toolResults(r.lines());
    expect(results[0].is_error).toBe(true);
    expect(resultText(results[0])).toMatch(/not in plan mode/);
  });
});

const QUESTIONS = [
  {
    question: 'Which database should the service use?',
    header: 'Database',
    options: [
      { label: 'Postgres', description: 'The relational default' },
      { label: 'SQLite', description: 'One file, no server' },
    ],
    multiSelect: false,
  },
];

describe('AskUserQuestion in gantry -p', () => {
  it('a PreToolUse hook supplies the answers through updatedInput; the model gets them', async () => {
    const r = await run(
      [reply.toolUse('AskUserQuestion', { questions: QUESTIONS }), reply.text('Using SQLite.')],
      [
        '--settings',
        hookSettings('AskUserQuestion', {
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'allow',
            updatedInput: {
              questions: QUESTIONS,
              answers: { 'Which database should the service use?': 'SQLite' },
            },
          },
        }),
        'pick a database',
      ],
    );
    expect(r.code, r.stderr).toBe(0);
    const [result] = toolResults(r.lines());
    expect(result.is_error ?? false).toBe(false);
    expect(resultText(result)).toContain('"Which database should the service use?" → "SQLite"');
  });

  it('without a hook or an SDK handler the call is refused, saying nobody could answer', async () => {
    const r = await run(
      [reply.toolUse('AskUserQuestion', { questions: QUESTIONS }), reply.text('Assuming Postgres.')],
      ['pick a database'],
    );
    expect(r.code, r.stderr).toBe(0);
    const [result] = toolResults(r.lines());
    expect(result.is_error).toBe(true);
    expect(resultText(result)).toMatch(/AskUserQuestion.*no one to ask/);
  });

  it('is denied in dontAsk mode', async () => {
    const r = await run(
      [reply.toolUse('AskUserQuestion', { questions: QUESTIONS }), reply.text('ok')],
      ['--permission-mode', 'dontAsk', 'pick'],
    );
    const [result] = toolResults(r.lines());
    expect(result.is_error).toBe(true);
    expect(resultText(result)).toMatch(/dontAsk/);
  });
});
