/**
 * Interactive `gantry` in a real terminal (tmux) against the scripted fake Anthropic server: a
 * turn with a tool call and rendered markdown, each answer of the permission prompt (once, always
 * with the saved rule file read back, deny with a note the model receives), Ctrl-C while the model
 * streams, and a double Ctrl-C at the prompt. Every test waits for text on the screen (with a
 * generous bound), never for time to pass, and kills its tmux server and temp dir afterwards.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply, type ScriptEntry, text, toolUse } from '../../testing/fake-model-script.js';
import { startFakeOpenAIServer } from '../../testing/fake-openai-server.js';
import {
  GANTRY_BIN,
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
} from '../../testing/print-fixtures.js';
import { TmuxSession } from '../../testing/tmux.js';

/**
 * The session closed the way it should: the clean-up ran to its end (the farewell line is printed
 * after the transcript is flushed and the set-up disposed) and the program exited with status 0.
 * The status is read from the wrapping shell (`reportExit`), since tmux does not always record a
 * pane's status; a crash in Node's teardown would show as 139 (SIGSEGV) here.
 */
async function expectSessionClosed(t: {
  waitFor(s: string): Promise<string>;
  waitForExitCode(): Promise<number>;
}) {
  await t.waitFor('Bye. Resume with: gantry --resume');
  expect(await t.waitForExitCode()).toBe(0);
}

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

async function start(script: ScriptEntry[], args: string[] = []): Promise<TmuxSession> {
  fake = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script });
  term = TmuxSession.start({
    command: [process.execPath, GANTRY_BIN, ...args],
    cwd: world.project,
    env: gantryEnv(world, fake, { NO_COLOR: '1' }),
    dir: world.root,
    reportExit: true,
  });
  await term.waitFor('ask Gantry');
  return term;
}

/** The prompt line is back after the text `after`. */
const promptAfter = (after: string) => (s: string) => {
  const i = s.lastIndexOf(after);
  return i >= 0 && s.slice(i).includes('ask Gantry');
};

async function submit(t: TmuxSession, prompt: string): Promise<void> {
  t.type(prompt);
  await t.waitFor(prompt);
  t.keys('Enter');
}

/** The tool_result blocks the model got in request `n` (0-based). */
function toolResultsOf(n: number): any[] {
  const body = fake?.messageRequests[n]?.body;
  const last = body?.messages?.[body.messages.length - 1];
  return Array.isArray(last?.content) ? last.content.filter((b: any) => b.type === 'tool_result') : [];
}

const touch = (file: string) => toolUse('Bash', { command: `touch ${file}`, description: 'create a file' });

describe('interactive gantry under tmux', { timeout: 120_000 }, () => {
  it('the harness reports a crash: a program killed by SIGSEGV ends with status 139', async () => {
    term = TmuxSession.start({
      command: [process.execPath, '-e', "process.kill(process.pid, 'SIGSEGV')"],
      cwd: world.project,
      env: gantryEnv(world, undefined),
      dir: world.root,
      reportExit: true,
    });
    expect(await term.waitForExitCode()).toBe(139);
  });

  it('streams markdown, shows the tool call and its result, and exits with /exit', async () => {
    const t = await start([
      reply.message([
        text('I will **list** the folder:\n\n- first `item`\n- second\n\n'),
        toolUse('Bash', { command: 'echo listing-output' }),
      ]),
      reply.text('## Summary\n\nThe folder holds **one** file.'),
    ]);
    await submit(t, 'what is here?');
    const screen = await t.waitFor(/\(2 requests/);
    expect(screen).toContain('I will list the folder:');
    expect(screen).not.toContain('**list**');
    expect(screen).toContain('• first item');
    expect(screen).toContain('● Bash(echo listing-output)');
    expect(screen).toContain('⎿  listing-output');
    expect(screen).toContain('The folder holds one file.');
    expect(toolResultsOf(1)[0]?.content).toContain('listing-output');
    await t.waitFor(promptAfter('(2 requests'));
    await submit(t, '/exit');
    await expectSessionClosed(t);
    expect(t.screen()).toContain('gantry --resume');
  });

  it('asks before a write; "Yes, once" runs it and saves nothing', async () => {
    const t = await start([reply.message([touch('once.txt')]), reply.text('Created it.')]);
    await submit(t, 'make once.txt');
    const ask = await t.waitFor('Yes, once');
    expect(ask).toContain('Allow Bash(touch once.txt)?');
    t.keys('Enter');
    await t.waitFor('Created it.');
    expect(existsSync(path.join(world.project, 'once.txt'))).toBe(true);
    expect(toolResultsOf(1)[0]?.is_error).not.toBe(true);
    expect(existsSync(path.join(world.project, '.claude', 'settings.local.json'))).toBe(false);
  });

  it('"Yes, always" shows the rule and the file, writes it there, and the next call is not asked', async () => {
    const file = path.join(world.project, '.claude', 'settings.local.json');
    const t = await start([
      reply.message([touch('a.txt')]),
      reply.text('First done.'),
      reply.message([touch('b.txt')]),
      reply.text('Second done.'),
    ]);
    await submit(t, 'make a.txt');
    const ask = await t.waitFor('Yes, always');
    expect(ask).toContain(`Yes, always: save Bash(touch:*) to ${file}`);
    t.keys('Down');
    await t.waitFor(/● Yes, always/);
    t.keys('Enter');
    await t.waitFor('First done.');
    expect(t.screen()).toContain(`Saved Bash(touch:*) to ${file}`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ permissions: { allow: ['Bash(touch:*)'] } });
    expect(existsSync(path.join(world.project, 'a.txt'))).toBe(true);

    await t.waitFor(promptAfter('First done.'));
    await submit(t, 'make b.txt');
    const screen = await t.waitFor('Second done.');
    expect(screen.split('Allow Bash(').length).toBe(2);
    expect(existsSync(path.join(world.project, 'b.txt'))).toBe(true);
  });

  it('"No" takes a note that reaches the model with the refusal', async () => {
    const t = await start([reply.message([touch('nope.txt')]), reply.text('Understood.')]);
    await submit(t, 'make nope.txt');
    await t.waitFor('No, and tell the model why');
    t.keys('Down', 'Down');
    await t.waitFor(/● No, and tell the model why/);
    t.keys('Enter');
    await t.waitFor('Note for the model');
    t.type('use the notes folder instead');
    await t.waitFor('use the notes folder instead');
    t.keys('Enter');
    await t.waitFor('Understood.');
    const result = toolResultsOf(1)[0];
    expect(result?.is_error).toBe(true);
    expect(JSON.stringify(result?.content)).toContain('use the notes folder instead');
    expect(existsSync(path.join(world.project, 'nope.txt'))).toBe(false);
  });

  it('Ctrl-C while the model streams ends the turn; the next Ctrl-C exits', async () => {
    const t = await start([
      reply.stall({
        afterEvents: 8,
        content: [text('Streaming the first paragraph.\n\nAnd then more text that never ends')],
      }),
    ]);
    await submit(t, 'talk');
    await t.waitFor('Streaming the first paragraph.');
    t.keys('C-c');
    const screen = await t.waitFor('Interrupted.');
    expect(screen).toContain('Ctrl-C again to exit');
    await t.waitFor(promptAfter('Interrupted.'));
    t.keys('C-c');
    await expectSessionClosed(t);
  });

  it('Ctrl-C while the spinner says the model is thinking interrupts the turn, not the program', async () => {
    const t = await start([reply.stall({ afterEvents: 0 }), reply.text('Still here.')]);
    await submit(t, 'think hard');
    await t.waitFor('Thinking…');
    // The request must have reached the fake (which holds it open), so the next one gets the next reply.
    await t.waitFor(() => (fake?.messageRequests.length ?? 0) === 1);
    t.keys('C-c');
    await t.waitFor('Interrupted.');
    expect(t.paneState().dead).toBe(false);
    await t.waitFor(promptAfter('Interrupted.'));
    await submit(t, 'again');
    await t.waitFor('Still here.');
  });

  it('a running tool shows live progress until it ends', async () => {
    const go = path.join(world.project, 'go');
    const t = await start([
      reply.message([
        toolUse('Bash', { command: `while [ ! -f ${go} ]; do sleep 0.1; done; echo finished-waiting` }),
      ]),
      reply.text('The wait is over.'),
    ]);
    await submit(t, 'wait for go');
    await t.waitFor(/Running Bash… \(\d+s\)/);
    writeFileSync(go, '');
    const screen = await t.waitFor('The wait is over.');
    expect(screen).toContain('⎿  finished-waiting');
    expect(screen).not.toMatch(/Running Bash…/);
  });

  it('a first Ctrl-C at the prompt warns, a second exits', async () => {
    const t = await start([]);
    t.keys('C-c');
    await t.waitFor('Press Ctrl-C again to exit.');
    expect(t.paneState().dead).toBe(false);
    t.keys('C-c');
    await expectSessionClosed(t);
    expect(fake?.messageRequests.length).toBe(0);
  });
});

describe('interactive gantry sessions', { timeout: 120_000 }, () => {
  it('--provider openai: the same turn against an OpenAI-compatible endpoint', async () => {
    const openai = await startFakeOpenAIServer({
      apiKey: 'sk-openai-test',
      script: [
        reply.message([text('Making the **file** now.\n\n'), touch('via-openai.txt')]),
        reply.text('Made it through *OpenAI*.'),
      ],
    });
    try {
      term = TmuxSession.start({
        command: [process.execPath, GANTRY_BIN, '--provider', 'openai', '--model', 'gpt-4.1'],
        cwd: world.project,
        env: gantryEnv(world, undefined, {
          NO_COLOR: '1',
          OPENAI_API_KEY: 'sk-openai-test',
          OPENAI_BASE_URL: `${openai.url}/v1`,
        }),
        dir: world.root,
        reportExit: true,
      });
      const t = term;
      await t.waitFor('ask Gantry');
      expect(t.screen()).toContain('gpt-4.1');
      await submit(t, 'make it');
      await t.waitFor('Yes, once');
      t.keys('Enter');
      const screen = await t.waitFor('Made it through OpenAI.');
      expect(screen).toContain('Making the file now.');
      expect(existsSync(path.join(world.project, 'via-openai.txt'))).toBe(true);
      expect(openai.modelRequests).toHaveLength(2);
    } finally {
      await openai.close();
    }
  });

  it('--continue picks up the last session of the folder: the model sees the earlier turn', async () => {
    const t = await start([reply.text('First answer.'), reply.text('Second answer.')]);
    await submit(t, 'remember the word tangerine');
    await t.waitFor(promptAfter('First answer.'));
    await submit(t, '/exit');
    await expectSessionClosed(t);
    t.kill();
    term = TmuxSession.start({
      command: [process.execPath, GANTRY_BIN, '--continue'],
      cwd: world.project,
      env: gantryEnv(world, fake, { NO_COLOR: '1' }),
      dir: world.root,
      reportExit: true,
    });
    await term.waitFor('ask Gantry');
    expect(term.screen()).toContain('Session resumed');
    await submit(term, 'which word?');
    await term.waitFor('Second answer.');
    const sent = JSON.stringify(fake?.messageRequests[1]?.body.messages);
    expect(sent).toContain('remember the word tangerine');
    expect(sent).toContain('First answer.');
  });
});
