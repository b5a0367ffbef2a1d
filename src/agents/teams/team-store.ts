/**
 * A team's folder and its config file (docs/teams.md "On disk"):
 *
 *   <gantryHome>/teams/<team>/config.json          the team: lead, members, each member's state
 *   <gantryHome>/teams/<team>/inboxes/<member>/    one file per undelivered message (mailbox.ts)
 *   <gantryHome>/teams/<team>/members/<member>/    what a teammate starts from: its settings file
 *                                                  (the leader's deny/ask rules), its output log
 *
 * The config is changed by the leader (members added, stopped) and by the teammates (their own
 * state: active, idle, ended). Every change is a read-modify-write under an exclusive lock on the
 * file (`proper-lockfile`: a `config.json.lock` directory, stale after 10 s so a crashed holder
 * cannot block the team), and the new content lands by temp file + rename, so a reader never sees
 * half a file.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';

export type MemberStatus = 'starting' | 'active' | 'idle' | 'ended';

export interface TeamMember {
  name: string;
  role: 'lead' | 'teammate';
  agentType?: string;
  /** The teammate's process id (the lead's own for the lead). */
  pid?: number;
  status: MemberStatus;
  /** The permission mode it runs in (narrowed from the lead's). */
  permissionMode: string;
  /** Its settings file: the lead's deny and ask rules. */
  settingsFile?: string;
  /** Its stream-json output. */
  logFile?: string;
  /** The tmux pane it runs in, when it runs in one. */
  tmuxPane?: string;
  cwd: string;
  joinedAtMs: number;
  endedAtMs?: number;
}

export interface TeamConfig {
  name: string;
  description?: string;
  createdAtMs: number;
  leadSessionId: string;
  members: TeamMember[];
}

/** The name of the team's lead in `to` fields and the mailbox. */
export const TEAM_LEAD = 'team-lead';

/** A team or member name: letters, digits, `-`, `_`, `.`, 1–64 characters, not starting with `.`. */
export function validName(name: string): boolean {
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/.test(name);
}

/** `<home>/.gantry/teams` (default the OS home). */
export function teamsRoot(home: string = homedir()): string {
  return path.join(home, '.gantry', 'teams');
}

export function teamDir(team: string, root: string): string {
  if (!validName(team)) throw new Error(`"${team}" is not a valid team name (letters, digits, -, _, .)`);
  return path.join(root, team);
}

const configFile = (dir: string) => path.join(dir, 'config.json');

export function readTeam(dir: string): TeamConfig {
  return JSON.parse(readFileSync(configFile(dir), 'utf8')) as TeamConfig;
}

function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.${randomBytes(3).toString('hex')}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/** Writes a new team's config (the folder must not hold a team yet). */
export function createTeamFiles(dir: string, config: TeamConfig): void {
  mkdirSync(path.join(dir, 'inboxes'), { recursive: true });
  mkdirSync(path.join(dir, 'members'), { recursive: true });
  writeFileSync(configFile(dir), `${JSON.stringify(config, null, 2)}\n`, { flag: 'wx' });
}

/** Read-modify-write of the config under the team lock. Resolves with the new config. */
export async function updateTeam(dir: string, change: (config: TeamConfig) => void): Promise<TeamConfig> {
  const file = configFile(dir);
  const release = await lockfile.lock(file, {
    stale: 10_000,
    retries: { retries: 50, minTimeout: 20, maxTimeout: 200 },
    realpath: false,
  });
  try {
    const config = readTeam(dir);
    change(config);
    writeAtomically(file, `${JSON.stringify(config, null, 2)}\n`);
    return config;
  } finally {
    await release();
  }
}

/** Sets one member's status (and pid). */
export function setMemberStatus(
  dir: string,
  name: string,
  status: MemberStatus,
  extra: Partial<TeamMember> = {},
): Promise<TeamConfig> {
  return updateTeam(dir, (config) => {
    const m = config.members.find((x) => x.name === name);
    if (!m) return;
    Object.assign(m, extra, { status });
    if (status === 'ended') m.endedAtMs = Date.now();
  });
}
