/**
 * Teammates in tmux panes (`GANTRY_TEAMMATE_MODE=tmux`): the lead runs in a private tmux server,
 * its teammate opens in a new pane of that server, gets the lead's model settings through the
 * member's env file, reports back through the mailbox, and exits on a shutdown_request; the lead
 * stays up until then and deletes the team.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply } from '../../testing/fake-model-script.js';
import {
  GANTRY_BIN,
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
} from '../../testing/print-fixtures.js';
import { TmuxSession } from '../../testing/tmux.js';

let world: PrintWorld | undefined;
let fake: FakeAnthropicServer | undefined;
let tmux: TmuxSession | undefined;
afterEach(async () => {
  tmux?.kill();
  await fake?.close();
  world?.cleanup();
  tmux = undefined;
  fake = undefined;
  world = undefined;
});

const last = (body: any): string => JSON.stringify(body.messages.at(-1));
const isAmy = (body: any): boolean =>
  JSON.stringify(body.system ?? '').includes('You are teammate \\"amy\\"');

describe('agent team in tmux panes', () => {
  it('the teammate runs in its own pane and talks to the lead through the mailbox', async () => {
    world = makePrintWorld();
    let spawned = '';
    const lead = (body: any) => {
      const m = last(body);
      if (m.includes('Deleted team')) return reply.text('TEAM-DONE');
      if (m.includes('shutdown_response')) return reply.toolUse('TeamDelete', {});
      if (m.includes("Message written to amy's mailbox")) return reply.text('Asked amy to stop.');
      if (m.includes('amy says hello'))
        return reply.toolUse('SendMessage', { to: 'amy', message: { type: 'shutdown_request' } });
      if (m.includes('Started teammate')) {
        spawned = m;
        return reply.text('Waiting for amy.');
      }
      if (m.includes('Created team'))
        return reply.toolUse('Agent', {
          description: 'Greet',
          prompt: 'Say hello to the lead.',
          name: 'amy',
        });
      return reply.toolUse('TeamCreate', { team_name: 'panes' });
    };
    const amy = (body: any) =>
      last(body).includes("Message written to team-lead's mailbox")
        ? reply.text('Greeted.')
        : reply.toolUse('SendMessage', { to: 'team-lead', message: 'amy says hello' });
    fake = await startFakeAnthropicServer({
      apiKey: PRINT_TEST_KEY,
      script: [],
      routes: [
        { name: 'amy', when: (r) => isAmy(r.body), script: (r) => amy(r.body) },
        { name: 'lead', when: (r) => !isAmy(r.body), script: (r) => lead(r.body) },
      ],
    });
    const out = path.join(world.root, 'lead.jsonl');
    const env = gantryEnv(world, fake);
    // The tmux server gets no model settings: the pane must get them from the lead.
    const serverEnv = Object.fromEntries(
      Object.entries(env).filter(([k]) => !k.startsWith('ANTHROPIC_')),
    ) as Record<string, string>;
    const leadEnv = Object.entries({ ...env, GANTRY_FEATURE_TEAMS: '1', GANTRY_TEAMMATE_MODE: 'tmux' })
      .filter(([k]) => k.startsWith('ANTHROPIC_') || k.startsWith('GANTRY_'))
      .map(([k, v]) => `${k}=${v}`);
    tmux = TmuxSession.start({
      command: [
        'env',
        ...leadEnv,
        'sh',
        '-c',
        `"${process.execPath}" "${GANTRY_BIN}" -p 'Start a team.' --output-format stream-json --verbose > "${out}" 2>&1; echo LEAD-EXIT-$?`,
      ],
      cwd: world.project,
      env: serverEnv,
      dir: world.root,
    });
    await tmux.waitFor('LEAD-EXIT-0', 60_000);
    const lines = readFileSync(out, 'utf8');
    expect(lines).toContain('TEAM-DONE');
    expect(spawned).toMatch(/in tmux pane %\d+/);
    expect(fake.messageRequests.some((r) => isAmy(r.body))).toBe(true);
    expect(existsSync(path.join(world.gantryHome, 'teams', 'panes'))).toBe(false);
  }, 90_000);
});
