/**
 * The interactive dialogs of AskUserQuestion and ExitPlanMode (tool-dialogs.ts) in a real terminal
 * (tmux) against the scripted fake Anthropic server: the question picker (a single choice, several
 * choices with space, "Other" with typed text) hands the answers to the model; the plan dialog shows
 * the plan, "accept edits" approves it and leaves plan mode for acceptEdits (the next write is not
 * asked), "keep planning" refuses with the person's feedback; the project's MCP servers start only
 * once ticked, and the answer is remembered. Waits are for text on the screen.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply, type ScriptEntry } from '../../testing/fake-model-script.js';
import {
  GANTRY_BIN,
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
} from '../../testing/print-fixtures.js';
import { mcpTestServerCommand } from '../../testing/mcp-test-server.js';
import { TmuxSession } from '../../testing/tmux.js';

let world: PrintWorld;
let fake: FakeAnthropicServer | undefined;
let term: TmuxSession | undefined;

beforeEach(() => {
  world = makePrintWorld();
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  await fake?.close();
  fake = undefined;
  world.cleanup();
});

async function start(script: ScriptEntry[], args: string[] = [], ready = 'ask Gantry'): Promise<TmuxSession> {
  fake = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script });
  term = TmuxSession.start({
    command: [process.execPath, GANTRY_BIN, ...args],
    cwd: world.project,
    env: gantryEnv(world, fake, { NO_COLOR: '1' }),
    dir: world.root,
  });
  await term.waitFor(ready);
  return term;
}

async function submit(t: TmuxSession, prompt: string): Promise<void> {
  t.type(prompt);
  await t.waitFor(prompt);
  t.keys('Enter');
}

/** The text of the tool_result blocks the model got in request `n` (0-based). */
function toolResultsOf(n: number): { text: string; isError: boolean }[] {
  const body = fake?.messageRequests[n]?.body;
  const last = body?.messages?.[body.messages.length - 1];
  const blocks = Array.isArray(last?.content)
    ? last.content.filter((b: any) => b.type === 'tool_result')
    : [];
  return blocks.map((b: any) => ({
    text: typeof b.content === 'string' ? b.content : b.content.map((c: any) => c.text ?? '').join(''),
    isError: b.is_error === true,
  }));
}

const QUESTIONS = [
  {
    question: 'Which database should the service use?',
    header: 'Database',
    multiSelect: false,
    options: [
      { label: 'Postgres', description: 'relational' },
      { label: 'SQLite', description: 'one file' },
    ],
  },
  {
    question: 'Which checks should CI run?',
    header: 'CI',
    multiSelect: true,
    options: [
      { label: 'Lint', description: 'style' },
      { label: 'Tests', description: 'unit tests' },
      { label: 'Bench', description: 'benchmarks' },
    ],
  },
  {
    question: 'What should the service be called?',
    header: 'Name',
    multiSelect: false,
    options: [
      { label: 'api', description: 'short' },
      { label: 'backend', description: 'plain' },
    ],
  },
];

const PLAN = '# Plan\n\n1. Write **notes.txt** with the findings.\n';
const SESSION = '3c9b8a7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d';

describe('interactive dialogs under tmux', { timeout: 120_000 }, () => {
  it('the question picker: one choice, several choices, and Other with typed text reach the model', async () => {
    const t = await start([reply.toolUse('AskUserQuestion', { questions: QUESTIONS }), reply.text('Noted.')]);
    await submit(t, 'set up the service');
    await t.waitFor('Database: Which database should the service use?');
    t.keys('Down');
    await t.waitFor(/● SQLite/);
    t.keys('Enter');
    await t.waitFor('CI: Which checks should CI run?');
    t.keys('Space', 'Down', 'Down', 'Space', 'Enter');
    await t.waitFor('Name: What should the service be called?');
    t.keys('Down', 'Down');
    await t.waitFor(/● Other/);
    t.keys('Enter');
    await t.waitFor('Name: your answer');
    t.type('ledger');
    await t.waitFor('ledger');
    t.keys('Enter');
    await t.waitFor('Noted.');
    const [result] = toolResultsOf(1);
    expect(result?.isError).toBe(false);
    expect(result?.text).toContain('SQLite');
    expect(result?.text).toContain('Lint, Bench');
    expect(result?.text).toContain('ledger');
    expect(result?.text).not.toContain('Postgres');
  });

  it('the plan dialog shows the plan; "accept edits" approves it and the next write is not asked', async () => {
    const planFile = path.join(world.home, '.gantry', 'plans', `${SESSION}.md`);
    mkdirSync(path.dirname(planFile), { recursive: true });
    writeFileSync(planFile, PLAN);
    const notes = path.join(world.project, 'notes.txt');
    const t = await start(
      [
        reply.toolUse('ExitPlanMode', {}),
        reply.toolUse('Write', { file_path: notes, content: 'findings' }),
        reply.text('Wrote the notes.'),
      ],
      ['--permission-mode', 'plan', '--session-id', SESSION],
    );
    await submit(t, 'plan the notes');
    const dialog = await t.waitFor('Go ahead with this plan?');
    expect(dialog).toContain('Write notes.txt with the findings.');
    expect(dialog).not.toContain('**notes.txt**');
    expect(dialog).toContain(`Saved at ${planFile}`);
    t.keys('Up');
    await t.waitFor(/● Yes, and accept edits without asking/);
    t.keys('Enter');
    await t.waitFor('Wrote the notes.');
    expect(toolResultsOf(1)[0]?.text).toMatch(/approved your plan/);
    expect(readFileSync(notes, 'utf8')).toBe('findings');
    expect(t.screen()).not.toContain('Allow Write(');
  });

  it('"keep planning" refuses with the feedback and the session stays in plan mode', async () => {
    const planFile = path.join(world.home, '.gantry', 'plans', `${SESSION}.md`);
    mkdirSync(path.dirname(planFile), { recursive: true });
    writeFileSync(planFile, PLAN);
    const notes = path.join(world.project, 'notes.txt');
    const t = await start(
      [
        reply.toolUse('ExitPlanMode', {}),
        reply.toolUse('Write', { file_path: notes, content: 'too early' }),
        reply.text('Back to planning.'),
      ],
      ['--permission-mode', 'plan', '--session-id', SESSION],
    );
    await submit(t, 'plan the notes');
    await t.waitFor('Go ahead with this plan?');
    t.keys('Down');
    await t.waitFor(/● No, keep planning/);
    t.keys('Enter');
    await t.waitFor('What should change in the plan?');
    t.type('split it into two steps');
    await t.waitFor('split it into two steps');
    t.keys('Enter');
    await t.waitFor('Back to planning.');
    const [refusal] = toolResultsOf(1);
    expect(refusal?.isError).toBe(true);
    expect(refusal?.text).toContain('split it into two steps');
    const [write] = toolResultsOf(2);
    expect(write?.isError).toBe(true);
    expect(write?.text).toMatch(/plan mode/i);
    expect(existsSync(notes)).toBe(false);
  });

  it("a project's MCP servers start only once ticked; the answers are remembered", async () => {
    const server = (name: string) => ({ ...mcpTestServerCommand({ toolCount: 1, special: false, name }) });
    writeFileSync(
      path.join(world.project, '.mcp.json'),
      JSON.stringify({ mcpServers: { alpha: server('alpha'), beta: server('beta') } }),
    );
    // MCP tools are deferred (listed by name for ToolSearch), so look at the whole request.
    const request = (n: number): string => JSON.stringify(fake?.messageRequests[n]?.body ?? {});
    let t = await start([reply.text('First.'), reply.text('Second.')], [], 'asks to start 2 MCP servers');
    t.keys('Space', 'Enter');
    await t.waitFor('MCP server beta: not started');
    expect(t.screen()).toContain('MCP server alpha: approved');
    await t.waitFor('ask Gantry');
    await submit(t, 'hello');
    await t.waitFor('First.');
    expect(request(0)).toContain('mcp__alpha__');
    expect(request(0)).not.toContain('mcp__beta__');
    const remembered = JSON.parse(
      readFileSync(path.join(world.home, '.gantry', 'mcp-project-approvals.json'), 'utf8'),
    );
    const forProject = Object.values(remembered.projects)[0] as Record<string, { decision: string }>;
    expect(forProject.alpha?.decision).toBe('approved');
    expect(forProject.beta?.decision).toBe('rejected');
    t.kill();

    // The next session does not ask again and starts alpha only.
    await fake?.close();
    t = await start([reply.text('Again.')]);
    await submit(t, 'hello again');
    await t.waitFor('Again.');
    expect(t.screen()).not.toContain('asks to start');
    expect(request(0)).toContain('mcp__alpha__');
    expect(request(0)).not.toContain('mcp__beta__');
  });
});
