/**
 * The team's files: the config's read-modify-write under the lock loses no concurrent change; the
 * mailbox hands messages over in send order, whole, once, and sets aside a file that does not parse.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliverToInbox, drainInbox, inboxDir, type MailboxMessage } from './mailbox.js';
import { createTeamFiles, readTeam, teamDir, updateTeam, validName } from './team-store.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'gantry-team-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function newTeam(): string {
  const dir = teamDir('crew', root);
  createTeamFiles(dir, { name: 'crew', createdAtMs: 1, leadSessionId: 's', members: [] });
  return dir;
}

describe('team config', () => {
  it('concurrent updates under the lock all land (none overwrites another)', async () => {
    const dir = newTeam();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        updateTeam(dir, (c) => {
          c.members.push({
            name: `m${i}`,
            role: 'teammate',
            status: 'starting',
            permissionMode: 'default',
            cwd: root,
            joinedAtMs: i,
          });
        }),
      ),
    );
    expect(
      readTeam(dir)
        .members.map((m) => m.name)
        .sort(),
    ).toEqual(Array.from({ length: 12 }, (_, i) => `m${i}`).sort());
    // No lock and no temp file is left behind.
    expect(readdirSync(dir).sort()).toEqual(['config.json', 'inboxes', 'members']);
  });

  it('a second team of the same name is refused', () => {
    newTeam();
    expect(() => newTeam()).toThrow(/EEXIST/);
  });

  it.each([
    ['crew', true, 'letters'],
    ['team-1_a.b', true, 'digits, dash, underscore, dot'],
    ['', false, 'empty'],
    ['.hidden', false, 'leading dot'],
    ['../up', false, 'path separator'],
    ['a'.repeat(65), false, 'too long'],
  ])('validName(%j) → %s (%s)', (name, ok, _reason) => {
    expect(validName(name)).toBe(ok);
  });
});

describe('mailbox', () => {
  it('messages come out in send order, each once', () => {
    const dir = newTeam();
    for (let i = 0; i < 5; i++) deliverToInbox(dir, 'bob', { from: 'team-lead', text: `n${i}` });
    const got: MailboxMessage[] = [];
    expect(drainInbox(dir, 'bob', (m) => got.push(m))).toBe(5);
    expect(got.map((m) => m.text)).toEqual(['n0', 'n1', 'n2', 'n3', 'n4']);
    expect(got.every((m) => m.to === 'bob' && m.from === 'team-lead')).toBe(true);
    expect(drainInbox(dir, 'bob', (m) => got.push(m))).toBe(0);
  });

  it('temp files are never read; a file that does not parse is moved aside', () => {
    const dir = newTeam();
    const inbox = inboxDir(dir, 'bob');
    deliverToInbox(dir, 'bob', { from: 'alice', text: 'ok' });
    writeFileSync(path.join(inbox, '.000-half.json.tmp'), '{"id":');
    writeFileSync(path.join(inbox, '000000000000000-000000-bad.json'), 'not json');
    const got: string[] = [];
    drainInbox(dir, 'bob', (m) => got.push(m.text));
    expect(got).toEqual(['ok']);
    expect(readdirSync(inbox).sort()).toEqual(['.000-half.json.tmp', '.bad-000000000000000-000000-bad.json']);
  });
});
