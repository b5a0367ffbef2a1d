/**
 * The scheduling tools in `gantry -p` as a real process on the fake model server, switched on by
 * `GANTRY_FEATURE_WAKEUP=1` / `GANTRY_FEATURE_CRON=1`, with `GANTRY_SCHEDULE_SPEEDUP` running the
 * scheduling clock a thousand times faster (a 60-second wake-up passes in 60 ms): a self-paced
 * ScheduleWakeup loop keeps the process alive turn after turn until `stop: true`; a one-shot
 * CronCreate job fires before the process exits; a durable job saved by one run is fired by a
 * later `--continue` run in the same project.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { lastUserText, reply, type ScriptEntry } from '../../testing/fake-model-script.js';
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

async function start(script: ScriptEntry[]): Promise<FakeAnthropicServer> {
  fake = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script });
  return fake;
}

const STREAM = ['--output-format', 'stream-json', '--verbose'];
/** The scheduling tools are offered up front (not deferred behind ToolSearch) in these runs. */
const env = (server: FakeAnthropicServer, flags: Record<string, string | undefined>) =>
  gantryEnv(world, server, { ENABLE_TOOL_SEARCH: 'false', GANTRY_SCHEDULE_SPEEDUP: '1000', ...flags });

const results = (lines: any[]) => lines.filter((l) => l.type === 'result').map((l) => l.result);

describe('gantry -p: ScheduleWakeup', () => {
  it('a self-paced loop: each wake-up starts the next turn, stop: true lets the process exit', async () => {
    const server = await start([
      reply.toolUse('ScheduleWakeup', {
        delaySeconds: 60,
        reason: 'deploy in progress',
        prompt: 'check the deploy',
      }),
      reply.text('Deploy started; checking in a minute.'),
      reply.toolUse('ScheduleWakeup', {
        delaySeconds: 90,
        reason: 'still rolling out',
        prompt: 'check the deploy',
      }),
      reply.text('Still rolling out.'),
      reply.toolUse('ScheduleWakeup', { stop: true }),
      reply.text('Deploy finished.'),
    ]);
    const run = await runGantry(['-p', ...STREAM, 'watch the deploy'], {
      cwd: world.project,
      env: env(server, { GANTRY_FEATURE_WAKEUP: '1' }),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(results(run.lines())).toEqual([
      'Deploy started; checking in a minute.',
      'Still rolling out.',
      'Deploy finished.',
    ]);
    const bodies = server.messageRequests.map((r) => r.body);
    expect(bodies).toHaveLength(6);
    expect(bodies[0].tools.map((t: any) => t.name)).toContain('ScheduleWakeup');
    for (const i of [2, 4]) expect(lastUserText(bodies[i])).toContain('<scheduled-prompt origin="wakeup"');
    expect(lastUserText(bodies[4])).toContain('reason="still rolling out"');
  });

  it('flag off: the tool is not offered', async () => {
    const server = await start([reply.text('No scheduling here.')]);
    const run = await runGantry(['-p', 'hello'], { cwd: world.project, env: env(server, {}) });
    expect(run.code, run.stderr).toBe(0);
    const names = server.messageRequests[0]?.body.tools.map((t: any) => t.name);
    expect(names).not.toContain('ScheduleWakeup');
    expect(names).not.toContain('CronCreate');
  });
});

describe('gantry -p: Cron', () => {
  it('a one-shot job fires before the process exits', async () => {
    const server = await start([
      reply.toolUse('CronCreate', { cron: '* * * * *', prompt: 'say tick', recurring: false }),
      reply.text('Scheduled a tick.'),
      reply.text('tick'),
    ]);
    const run = await runGantry(['-p', ...STREAM, 'schedule a tick'], {
      cwd: world.project,
      env: env(server, { GANTRY_FEATURE_CRON: '1' }),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(results(run.lines())).toEqual(['Scheduled a tick.', 'tick']);
    expect(lastUserText(server.messageRequests[2]?.body)).toContain('say tick');
  });

  it('a scheduled-tasks file that came with the project (unsigned) fires nothing and is reported', async () => {
    const server = await start([reply.text('Just the prompt.')]);
    mkdirSync(path.join(world.project, '.gantry'), { recursive: true });
    const shipped = {
      version: 1,
      jobs: [
        {
          id: 'beef0001',
          cron: '* * * * *',
          prompt: 'SHIPPED PROMPT',
          recurring: true,
          createdAt: new Date(Date.now() - 3_600_000).toISOString(),
        },
      ],
    };
    writeFileSync(path.join(world.project, '.gantry', 'scheduled_tasks.json'), JSON.stringify(shipped));
    const run = await runGantry(['-p', ...STREAM, 'hello'], {
      cwd: world.project,
      env: env(server, { GANTRY_FEATURE_CRON: '1' }),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(results(run.lines())).toEqual(['Just the prompt.']);
    expect(server.messageRequests).toHaveLength(1);
    expect(JSON.stringify(server.messageRequests[0]?.body)).not.toContain('SHIPPED PROMPT');
    expect(run.stdout + run.stderr).toContain('no valid signature');
  });

  it('a durable job saved by one run fires in a later --continue run', async () => {
    const server = await start([
      reply.toolUse('CronCreate', { cron: '0 * * * *', prompt: 'rotate the logs', durable: true }),
      reply.text('Saved an hourly job.'),
      reply.text('Hello again.'),
      reply.text('Logs rotated.'),
    ]);
    const first = await runGantry(['-p', ...STREAM, 'rotate the logs every hour'], {
      cwd: world.project,
      env: env(server, { GANTRY_FEATURE_CRON: '1' }),
    });
    expect(first.code, first.stderr).toBe(0);
    expect(results(first.lines())).toEqual(['Saved an hourly job.']);
    const file = path.join(world.project, '.gantry', 'scheduled_tasks.json');
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved.jobs.map((j: any) => [j.cron, j.prompt])).toEqual([['0 * * * *', 'rotate the logs']]);
    // The session ended two hours ago: its job missed a fire since.
    saved.jobs[0].createdAt = new Date(Date.now() - 2 * 3_600_000).toISOString();
    writeFileSync(file, JSON.stringify(saved));

    // Tool search at its default here: the Cron tools are deferred, and still load the file.
    const second = await runGantry(['-p', ...STREAM, '--continue', 'hello'], {
      cwd: world.project,
      env: env(server, { GANTRY_FEATURE_CRON: '1', ENABLE_TOOL_SEARCH: undefined }),
    });
    expect(second.code, second.stderr).toBe(0);
    expect(results(second.lines())).toEqual(['Hello again.', 'Logs rotated.']);
    expect(lastUserText(server.messageRequests[3]?.body)).toContain('rotate the logs');
    // Deferred: only ToolSearch could load its definition in this run.
    expect(server.messageRequests[2]?.body.tools.map((t: any) => t.name)).not.toContain('CronCreate');
    const after = JSON.parse(readFileSync(file, 'utf8'));
    expect(typeof after.jobs[0].lastFiredAt).toBe('string');
  });
});
