/**
 * An agent team of two real `gantry` processes on the fake model server: the lead (`gantry -p`)
 * creates the team and starts teammate "bob" (a `gantry teammate` process); bob works in its
 * narrowed permission context and reports through the mailbox; the lead lists its peers, sends a
 * shutdown_request, gets bob's shutdown_response once bob's process exited, and deletes the team
 * (folder and mailboxes gone).
 *
 * Narrowing: the lead runs in acceptEdits with a deny rule given only on its command line; bob's
 * agent type asks for bypassPermissions. Bob runs in acceptEdits (an edit in the project works, a
 * command that would need bypass is refused) and the lead's deny rule holds in bob's process.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply } from '../../testing/fake-model-script.js';
import {
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
  runGantry,
} from '../../testing/print-fixtures.js';

let world: PrintWorld | undefined;
let fake: FakeAnthropicServer | undefined;
afterEach(async () => {
  await fake?.close();
  world?.cleanup();
  fake = undefined;
  world = undefined;
});

const last = (body: any): string => JSON.stringify(body.messages.at(-1));
const isBob = (body: any): boolean =>
  JSON.stringify(body.system ?? '').includes('You are teammate \\"bob\\"');

describe('agent team', () => {
  it('lead and teammate exchange messages through the mailbox; ListPeers; shutdown; TeamDelete', async () => {
    world = makePrintWorld();
    const project = world.project;
    let peers = '';
    let bobReport = '';
    const lead = (body: any) => {
      const m = last(body);
      if (m.includes('Deleted team')) return reply.text('All done.');
      if (m.includes('shutdown_response')) return reply.toolUse('TeamDelete', {});
      if (m.includes("Message written to bob's mailbox")) return reply.text('Asked bob to stop.');
      if (m.includes('bob finished')) {
        bobReport = m;
        return reply.toolUse('SendMessage', {
          to: 'bob',
          message: { type: 'shutdown_request', request_id: 'r1', reason: 'work done' },
        });
      }
      if (m.includes('Team \\"crew\\"')) {
        peers = m;
        return reply.text('Waiting for bob.');
      }
      if (m.includes('Started teammate')) return reply.toolUse('ListPeers', {});
      if (m.includes('Created team'))
        return reply.toolUse('Agent', {
          description: 'Edit files',
          prompt: 'Write the files you were asked for.',
          name: 'bob',
          subagent_type: 'risky',
        });
      return reply.toolUse('TeamCreate', { team_name: 'crew', description: 'a test team' });
    };
    const bob = (body: any) => {
      const m = last(body);
      const all = JSON.stringify(body.messages);
      if (m.includes("Message written to team-lead's mailbox")) return reply.text('Reported.');
      if (all.includes('toolu_bob_3'))
        return reply.toolUse('SendMessage', {
          to: 'team-lead',
          summary: 'bob finished',
          message: `bob finished: ${all.includes('bypass-only.txt') ? 'tried all three' : 'incomplete'}`,
        });
      if (all.includes('toolu_bob_2'))
        return reply.toolUse(
          'Bash',
          { command: `node -e "require('fs').writeFileSync('bypass-only.txt','x')"` },
          { id: 'toolu_bob_3' },
        );
      if (all.includes('toolu_bob_1'))
        return reply.toolUse(
          'Write',
          { file_path: path.join(project, 'notes', 'secret.txt'), content: 'no' },
          { id: 'toolu_bob_2' },
        );
      return reply.toolUse(
        'Write',
        { file_path: path.join(project, 'ok.txt'), content: 'yes' },
        { id: 'toolu_bob_1' },
      );
    };
    fake = await startFakeAnthropicServer({
      apiKey: PRINT_TEST_KEY,
      script: [],
      routes: [
        { name: 'bob', when: (r) => isBob(r.body), script: (r) => bob(r.body) },
        { name: 'lead', when: (r) => !isBob(r.body), script: (r) => lead(r.body) },
      ],
    });
    const agents = JSON.stringify({
      risky: { description: 'edits files', prompt: 'You edit files.', permissionMode: 'bypassPermissions' },
    });
    const r = await runGantry(
      [
        '-p',
        'Start a team.',
        '--output-format',
        'stream-json',
        '--verbose',
        '--permission-mode',
        'acceptEdits',
        '--disallowedTools',
        `Edit(/${project}/notes/**)`,
        '--agents',
        agents,
      ],
      {
        cwd: project,
        env: gantryEnv(world, fake, { GANTRY_FEATURE_TEAMS: '1' }),
        timeoutMs: 90_000,
      },
    );
    const results = r.lines().filter((l) => l.type === 'result');
    expect(r.code, r.stderr).toBe(0);
    expect(results.at(-1)?.result).toBe('All done.');

    // ListPeers, while bob ran: the lead and bob, bob in the narrowed mode.
    expect(peers).toContain('team-lead (lead)');
    expect(peers).toMatch(/bob \(teammate\): [a-z]+.*mode acceptEdits/);
    // Bob's report reached the lead as an agent message, not as the person's words.
    expect(bobReport).toContain('<agent-message from=\\"bob\\"');
    expect(bobReport).toContain('tried all three');

    // Narrowing in bob's own process: acceptEdits allowed the project edit; the lead's deny rule
    // (given only on the lead's command line) held; the command bypass would have run was refused.
    expect(readFileSync(path.join(project, 'ok.txt'), 'utf8')).toBe('yes');
    expect(existsSync(path.join(project, 'notes', 'secret.txt'))).toBe(false);
    expect(existsSync(path.join(project, 'bypass-only.txt'))).toBe(false);
    const bobRequests = fake.messageRequests.filter((q) => isBob(q.body));
    const denials = JSON.stringify(bobRequests.map((q) => q.body.messages.at(-1)));
    expect(denials).toContain('toolu_bob_2');
    expect(denials).toMatch(/notes\/\*\*/);

    // TeamDelete removed the team's folder (config, mailboxes) and bob's process is gone.
    expect(existsSync(path.join(world.gantryHome, 'teams', 'crew'))).toBe(false);
    const deleted = r.lines().find((l) => l.type === 'user' && JSON.stringify(l).includes('Deleted team'));
    expect(deleted).toBeDefined();
  }, 120_000);
});
