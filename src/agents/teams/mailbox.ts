/**
 * A team member's mailbox: `<team>/inboxes/<member>/`, one JSON file per message
 * (docs/teams.md "Mailbox").
 *
 * Delivery is rename-based and needs no lock: the sender writes the message to a temp file in the
 * inbox folder (a name starting with `.`) and renames it to its final name, which is atomic on one
 * filesystem, so the reader sees a message whole or not at all, and any number of senders can
 * deliver at once. Final names sort by send time (`<ms>-<seq>-<random>.json`), so the reader takes
 * messages in the order they were sent. Only the member itself reads its inbox: it parses a
 * message, hands it on, then deletes the file (a crash in between delivers that message again).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface MailboxMessage {
  id: string;
  from: string;
  to: string;
  /** The text (for a structured message: its rendering). */
  text: string;
  summary?: string;
  structured?: {
    type: 'shutdown_request' | 'shutdown_response' | 'plan_approval_response';
    request_id?: string;
    approve?: boolean;
    reason?: string;
    feedback?: string;
  };
  sentAtMs: number;
}

export function inboxDir(teamDir: string, member: string): string {
  return path.join(teamDir, 'inboxes', member);
}

let seq = 0;

/** Delivers one message into `member`'s inbox; returns its id. */
export function deliverToInbox(
  teamDir: string,
  member: string,
  message: Omit<MailboxMessage, 'id' | 'sentAtMs' | 'to'>,
): string {
  const dir = inboxDir(teamDir, member);
  mkdirSync(dir, { recursive: true });
  const id = `m${randomBytes(4).toString('hex')}`;
  const now = Date.now();
  const full: MailboxMessage = { ...message, id, to: member, sentAtMs: now };
  const name = `${String(now).padStart(15, '0')}-${String(seq++ % 1_000_000).padStart(6, '0')}-${id}.json`;
  const tmp = path.join(dir, `.${name}.tmp`);
  writeFileSync(tmp, JSON.stringify(full));
  renameSync(tmp, path.join(dir, name));
  return id;
}

/**
 * Takes every message waiting in `member`'s inbox, oldest first: each is handed to `take`, then
 * its file is removed. A file that does not parse is moved aside (`.bad-…`), never retried.
 */
export function drainInbox(teamDir: string, member: string, take: (m: MailboxMessage) => void): number {
  const dir = inboxDir(teamDir, member);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => !n.startsWith('.') && n.endsWith('.json'));
  } catch {
    return 0;
  }
  names.sort();
  let count = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    let message: MailboxMessage;
    try {
      message = JSON.parse(readFileSync(file, 'utf8')) as MailboxMessage;
    } catch {
      try {
        renameSync(file, path.join(dir, `.bad-${name}`));
      } catch {
        // Already gone.
      }
      continue;
    }
    take(message);
    rmSync(file, { force: true });
    count++;
  }
  return count;
}
