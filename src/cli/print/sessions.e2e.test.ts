/**
 * Sessions across processes: `--resume`, `--continue` and `--fork-session` restore a session so
 * exactly that its next request is byte-for-byte the request one long-running process would have
 * sent (compared on the fake server's recorded bodies); SIGTERM mid-tool exits 143 and leaves a
 * transcript `--resume` can continue; a transcript goes through `gantry replay`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { transcriptPathFor } from '../../loop/transcript/paths.js';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply, type ScriptEntry } from '../../testing/fake-model-script.js';
import {
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
  runGantry,
  STREAM_ARGS,
  spawnGantry,
} from '../../testing/print-fixtures.js';

let world: PrintWorld;
const servers: FakeAnthropicServer[] = [];

beforeEach(() => {
  world = makePrintWorld();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  world.cleanup();
});

/** The two-turn script both arms of a comparison use (a tool call in turn one). */
const script = (): ScriptEntry[] => [
  reply.toolUse('Bash', { command: 'echo turn-one-tool' }),
  reply.text('Turn one done.'),
  reply.text('Turn two done.'),
];

async function fakeWith(entries: ScriptEntry[]): Promise<FakeAnthropicServer> {
  const s = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script: entries });
  servers.push(s);
  return s;
}

const FIXED_ID = '5b1f0c2e-7a44-4d0b-9c1e-2f3a4b5c6d7e';

/**
 * The third request (turn two) of one process running both prompts over stream-json, in the same
 * project directory but with its own HOME (so its transcript does not meet the other arm's).
 */
async function continuousTurnTwo(): Promise<string> {
  const fake = await fakeWith(script());
  const home = path.join(world.root, 'home-continuous');
  mkdirSync(home);
  const peer = spawnGantry([...STREAM_ARGS, '--session-id', FIXED_ID], {
    cwd: world.project,
    env: gantryEnv(world, fake, { HOME: home }),
  });
  peer.user('first prompt');
  await peer.next((l) => l.type === 'result');
  peer.user('second prompt');
  await peer.next((l) => l.type === 'result' && l.result_index === 1);
  peer.end();
  expect((await peer.exited).code).toBe(0);
  return fake.messageRequests[2]?.rawBody as string;
}

describe('resume, continue, fork', () => {
  it('--resume: the next request is byte-identical to the one a single process sends', async () => {
    const continuous = await continuousTurnTwo();
    const fake = await fakeWith(script());
    const env = gantryEnv(world, fake);
    const first = await runGantry(['-p', '--session-id', FIXED_ID, 'first prompt'], {
      cwd: world.project,
      env,
    });
    expect(first.code).toBe(0);
    const second = await runGantry(['-p', '--resume', FIXED_ID, 'second prompt'], {
      cwd: world.project,
      env,
    });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('Turn two done.\n');
    expect(fake.messageRequests[2]?.rawBody).toBe(continuous);
  });

  it('--continue picks the latest session of the cwd and restores it the same way', async () => {
    const continuous = await continuousTurnTwo();
    const fake = await fakeWith(script());
    const env = gantryEnv(world, fake);
    expect(
      (await runGantry(['-p', '--session-id', FIXED_ID, 'first prompt'], { cwd: world.project, env })).code,
    ).toBe(0);
    const r = await runGantry(['-p', '--continue', '--output-format', 'json', 'second prompt'], {
      cwd: world.project,
      env,
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ session_id: FIXED_ID, result: 'Turn two done.' });
    expect(fake.messageRequests[2]?.rawBody).toBe(continuous);
  });

  it('--fork-session continues in a new session and leaves the original transcript as it was', async () => {
    const fake = await fakeWith([...script(), reply.text('Fork says hi.')]);
    const env = gantryEnv(world, fake);
    expect(
      (await runGantry(['-p', '--session-id', FIXED_ID, 'first prompt'], { cwd: world.project, env })).code,
    ).toBe(0);
    const original = transcriptPathFor(world.gantryHome, world.project, FIXED_ID);
    const before = readFileSync(original, 'utf8');
    const forked = await runGantry(
      ['-p', '--resume', FIXED_ID, '--fork-session', '--output-format', 'json', 'second prompt'],
      {
        cwd: world.project,
        env,
      },
    );
    expect(forked.code).toBe(0);
    const result = JSON.parse(forked.stdout);
    expect(result.session_id).not.toBe(FIXED_ID);
    expect(readFileSync(original, 'utf8')).toBe(before);
    const forkFile = transcriptPathFor(world.gantryHome, world.project, result.session_id);
    const lines = readFileSync(forkFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.every((l) => l.sessionId === undefined || l.sessionId === result.session_id)).toBe(true);
    expect(JSON.stringify(fake.messageRequests[2]?.body.messages)).toContain('turn-one-tool');
    // The fork resumes like any session.
    const again = await runGantry(['-p', '--resume', result.session_id, 'third'], {
      cwd: world.project,
      env,
    });
    expect(again.stdout).toBe('Fork says hi.\n');
  });

  it('--no-session-persistence writes no transcript', async () => {
    const fake = await fakeWith([reply.text('ephemeral')]);
    const r = await runGantry(['-p', '--no-session-persistence', 'x'], {
      cwd: world.project,
      env: gantryEnv(world, fake),
    });
    expect(r.code).toBe(0);
    const dir = path.join(world.gantryHome, 'projects');
    const files = (() => {
      try {
        return readdirSync(dir, { recursive: true }).map(String);
      } catch {
        return [];
      }
    })();
    expect(files.filter((f) => f.endsWith('.jsonl'))).toEqual([]);
  });

  it('an unknown --resume id and --continue with no session are clear error results, exit 1', async () => {
    const env = gantryEnv(world, undefined, { ANTHROPIC_API_KEY: 'unused' });
    const r = await runGantry(['-p', '--output-format', 'json', '--resume', FIXED_ID, 'x'], {
      cwd: world.project,
      env,
    });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).errors[0]).toMatch(/no session 5b1f0c2e/);
    const c = await runGantry(['-p', '--continue', 'x'], { cwd: world.project, env });
    expect(c.code).toBe(1);
    expect(c.stderr).toMatch(/no earlier session/);
  });
});

describe('SIGTERM and replay', () => {
  it('SIGTERM mid-tool exits 143; the transcript resumes with every tool_use answered', async () => {
    const marker = path.join(world.project, 'started');
    const command = 'touch started && tail -f /dev/null';
    const fake = await fakeWith([reply.toolUse('Bash', { command }), reply.text('Resumed fine.')]);
    const env = gantryEnv(world, fake);
    const peer = spawnGantry(
      [
        '-p',
        '--output-format',
        'stream-json',
        '--verbose',
        '--dangerously-skip-permissions',
        '--session-id',
        FIXED_ID,
        'wait',
      ],
      { cwd: world.project, env },
    );
    peer.end();
    await peer.next((l) => l.type === 'assistant' && l.message.content[0].type === 'tool_use');
    while (!existsSync(marker)) {
      if (peer.lines.some((l) => l.type === 'result'))
        throw new Error(`the call did not start: ${JSON.stringify(peer.lines)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    peer.child.kill('SIGTERM');
    expect((await peer.exited).code).toBe(143);
    expect(fake.messageRequests).toHaveLength(1);

    const resumed = await runGantry(['-p', '--resume', FIXED_ID, 'go on'], { cwd: world.project, env });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe('Resumed fine.\n');
    const messages = fake.messageRequests[1]?.body.messages as { role: string; content: any }[];
    const uses = messages.flatMap((m) =>
      Array.isArray(m.content)
        ? m.content.filter((b: any) => b.type === 'tool_use').map((b: any) => b.id)
        : [],
    );
    const results = messages.flatMap((m) =>
      Array.isArray(m.content)
        ? m.content.filter((b: any) => b.type === 'tool_result').map((b: any) => b.tool_use_id)
        : [],
    );
    expect(uses).toHaveLength(1);
    expect(results).toEqual(uses);
  });

  it('a gantry transcript goes through gantry replay', async () => {
    const fake = await fakeWith([
      reply.toolUse('Bash', { command: 'echo replay-me' }),
      reply.toolUse('Read', { file_path: path.join(world.project, 'missing.txt') }),
      reply.text('done'),
    ]);
    const env = gantryEnv(world, fake);
    expect((await runGantry(['-p', '--session-id', FIXED_ID, 'x'], { cwd: world.project, env })).code).toBe(
      0,
    );
    const file = transcriptPathFor(world.gantryHome, world.project, FIXED_ID);
    const r = await runGantry(['replay', '--json', file], { cwd: world.project, env });
    expect(r.code).toBe(0);
    const rows = r.lines().filter((l) => l.tool);
    expect(rows.map((row) => [row.tool, row.summary, row.original])).toEqual([
      ['Bash', 'echo replay-me', 'executed'],
      ['Read', expect.stringContaining('missing.txt'), 'error'],
    ]);
    expect(r.lines().at(-1).summary).toMatchObject({ calls: 2, malformedLines: 0, callsWithoutResult: 0 });
  });
});

describe('session folders are pruned at start', () => {
  /** A session folder under the world's HOME: its owner pid, and its files' age in days. */
  function sessionFolder(name: string, pid: number, ageDays: number): string {
    const dir = path.join(world.home, '.gantry', 'sessions', name);
    mkdirSync(path.join(dir, 'tool-results'), { recursive: true });
    writeFileSync(path.join(dir, 'session.json'), JSON.stringify({ pid }));
    writeFileSync(path.join(dir, 'tool-results', 'big.txt'), 'x'.repeat(1000));
    const at = new Date(Date.now() - ageDays * 24 * 60 * 60_000);
    for (const f of ['session.json', 'tool-results/big.txt', 'tool-results', ''])
      utimesSync(path.join(dir, f), at, at);
    return dir;
  }

  it('gantry -p removes ended sessions past retention, keeps recent and live ones', async () => {
    // Reproduced first: -p left a 30-day-old ended session in place (only `gantry mcp` pruned).
    const old = sessionFolder('old-session', 999_999_999, 30);
    const recent = sessionFolder('recent-session', 999_999_999, 1);
    const live = sessionFolder('live-session', process.pid, 30);
    const fake = await fakeWith([reply.text('hello back')]);
    const run = await runGantry(['-p', 'hello'], { cwd: world.project, env: gantryEnv(world, fake) });
    expect(run.code).toBe(0);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(live)).toBe(true);
  });
});
