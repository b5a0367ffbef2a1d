/**
 * Which team this session belongs to (docs/teams.md):
 *
 * - as its lead: the session that called TeamCreate. The lead polls its own inbox (every 200 ms,
 *   and once more when a teammate process exits) and delivers each message into its loop as an
 *   agent message; a `gantry -p` lead stays open while a teammate it started still runs.
 * - as a teammate: a `gantry teammate` process, told by its environment (`GANTRY_TEAM`,
 *   `GANTRY_TEAM_MEMBER`, `GANTRY_TEAM_DIR`); its inbox is read by the teammate command.
 */
import type { ChildProcess } from 'node:child_process';
import type { LoopHandle } from '../../loop/subagent-host.js';
import { agentMessageText } from '../messaging/agent-directory.js';
import { drainInbox, type MailboxMessage } from './mailbox.js';
import { setMemberStatus, TEAM_LEAD } from './team-store.js';

export interface LeadTeam {
  name: string;
  dir: string;
  lead: LoopHandle;
  /** Teammate processes this lead started, by member name. */
  processes: Map<string, { child: ChildProcess; exited: Promise<void> }>;
  poller: NodeJS.Timeout;
}

const leads = new WeakMap<object, LeadTeam>();

export function leadTeamOf(lead: LoopHandle): LeadTeam | undefined {
  return leads.get(lead.tasks);
}

/** The text a mailbox message reaches a model as. */
export function mailboxMessageText(m: MailboxMessage): string {
  return agentMessageText({
    from: m.from,
    messageId: m.id,
    text: m.text,
    ...(m.summary ? { summary: m.summary } : {}),
  });
}

/** Hands the lead's waiting messages to its loop; false when the loop has ended. */
export function pollLeadInbox(team: LeadTeam): boolean {
  try {
    drainInbox(team.dir, TEAM_LEAD, (m) => {
      if (m.structured?.type === 'shutdown_response' && m.structured.approve !== false)
        void setMemberStatus(team.dir, m.from, 'ended').catch(() => undefined);
      team.lead.deliver(mailboxMessageText(m));
    });
    return true;
  } catch {
    return false;
  }
}

/** Makes this session the lead of `name` (folder `dir`) and starts polling its inbox. */
export function becomeLead(lead: LoopHandle, name: string, dir: string): LeadTeam {
  const team: LeadTeam = {
    name,
    dir,
    lead,
    processes: new Map(),
    poller: setInterval(() => {
      if (!pollLeadInbox(team)) endLead(lead, { stopTeammates: true });
    }, 200),
  };
  team.poller.unref();
  leads.set(lead.tasks, team);
  watchExit(team);
  return team;
}

/** Stops polling (TeamDelete, or the lead's loop is gone); `stopTeammates`: SIGTERM the processes it started. */
export function endLead(lead: LoopHandle, options: { stopTeammates?: boolean } = {}): void {
  const team = leads.get(lead.tasks);
  if (!team) return;
  clearInterval(team.poller);
  leads.delete(lead.tasks);
  live.delete(team);
  if (options.stopTeammates) terminateTeammates(team);
}

/** SIGTERM to every teammate process group this lead started that has not exited. */
function terminateTeammates(team: LeadTeam): void {
  for (const { child } of team.processes.values()) {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) continue;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
}

/** Leads of this process: when it exits, the teammates it started are told to stop (no orphans). */
const live = new Set<LeadTeam>();
let exitHook = false;
function watchExit(team: LeadTeam): void {
  live.add(team);
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const t of live) terminateTeammates(t);
  });
}

/** The team this process is a teammate of, from its environment. */
export function teammateMembership(
  env: Readonly<Record<string, string | undefined>> = process.env,
): { team: string; member: string; dir: string } | undefined {
  const team = env.GANTRY_TEAM;
  const member = env.GANTRY_TEAM_MEMBER;
  const dir = env.GANTRY_TEAM_DIR;
  return team && member && dir ? { team, member, dir } : undefined;
}
