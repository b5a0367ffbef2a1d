/**
 * Starting a teammate: a separate `gantry teammate` process (docs/teams.md "Teammates").
 *
 * Its permission context is the lead's, narrowed, never wider: its mode is
 * `narrowPermissionMode(lead's mode, the agent type's mode)`, and a settings file written for it
 * carries every deny and ask rule of the lead's engine (settings files, `--disallowedTools`,
 * session rules), on top of the settings files the teammate loads itself from the same project.
 * Nobody answers a teammate's asks (it runs headless): an ask is a denial.
 *
 * The process runs `process.execPath <gantry entry> teammate --team T --name N` (the entry is the
 * one this process was started with, or `$GANTRY_BIN`), detached in its own process group with its
 * output in `members/<name>/output.jsonl`; with `GANTRY_TEAMMATE_MODE=tmux` inside tmux it runs in
 * a new pane of the current window instead. Its task is the first message of its inbox.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PermissionMode } from '../../core/index.js';
import type { LoopHandle } from '../../loop/subagent-host.js';
import { narrowPermissionMode } from '../../runtime/index.js';
import { deliverToInbox } from './mailbox.js';
import type { LeadTeam } from './team-session.js';
import { pollLeadInbox } from './team-session.js';
import { readTeam, TEAM_LEAD, type TeamMember, updateTeam, validName } from './team-store.js';

export interface TeammateSpec {
  name: string;
  prompt: string;
  description: string;
  agentType: string;
  /** The agent type's own mode, if it has one (narrowed to the lead's). */
  requestedMode?: PermissionMode;
}

export interface SpawnedTeammate {
  name: string;
  team: string;
  pid?: number;
  permissionMode: PermissionMode;
  denyRules: string[];
  logFile: string;
  tmuxPane?: string;
}

/** The lead's rules a teammate inherits (deny and ask; allow rules are not handed down). */
export function inheritedRules(lead: LoopHandle): { deny: string[]; ask: string[] } {
  const rules = lead.options.permissionEngine?.settings.rules;
  if (!rules) return { deny: [], ask: [] };
  const texts = (b: 'deny' | 'ask') => [...new Set(rules.list(b).map((r) => r.rule.text))];
  return { deny: texts('deny'), ask: texts('ask') };
}

/** The command that runs a teammate (argv[0] is the program). */
export function teammateCommand(team: string, name: string, env = process.env): string[] {
  const entry = env.GANTRY_BIN ?? process.argv[1];
  if (!entry)
    throw new Error('cannot tell how this gantry was started; set GANTRY_BIN to the gantry entry script');
  return [process.execPath, ...process.execArgv, entry, 'teammate', '--team', team, '--name', name];
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * A teammate in a tmux pane is not this process's child: it has ended once its config entry says
 * so or its pane is gone. The poll is not unref'd, so the lead's process stays up meanwhile.
 */
function memberEnded(team: LeadTeam, name: string, pane: string): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      let ended = false;
      try {
        ended = readTeam(team.dir).members.find((m) => m.name === name)?.status === 'ended';
      } catch {
        ended = true; // The team folder is gone.
      }
      if (!ended) {
        const r = spawnSync('tmux', ['display-message', '-p', '-t', pane, '#{pane_dead}'], {
          encoding: 'utf8',
        });
        ended = r.status !== 0 || r.stdout.trim() === '1';
      }
      if (!ended) return;
      clearInterval(timer);
      pollLeadInbox(team);
      resolve();
    }, 200);
  });
}

export async function spawnTeammate(team: LeadTeam, spec: TeammateSpec): Promise<SpawnedTeammate> {
  if (!validName(spec.name) || spec.name === TEAM_LEAD)
    throw new Error(`"${spec.name}" cannot name a teammate (letters, digits, -, _, .; not "${TEAM_LEAD}")`);
  const lead = team.lead;
  const mode = narrowPermissionMode(lead.permissionMode(), spec.requestedMode);
  const rules = inheritedRules(lead);
  const memberDir = path.join(team.dir, 'members', spec.name);
  mkdirSync(memberDir, { recursive: true });
  const settingsFile = path.join(memberDir, 'settings.json');
  writeFileSync(settingsFile, `${JSON.stringify({ permissions: rules }, null, 2)}\n`);
  const logFile = path.join(memberDir, 'output.jsonl');

  await updateTeam(team.dir, (config) => {
    const existing = config.members.find((m) => m.name === spec.name);
    if (existing && existing.status !== 'ended')
      throw new Error(`teammate "${spec.name}" is already in team ${config.name} (${existing.status})`);
    const member: TeamMember = {
      name: spec.name,
      role: 'teammate',
      agentType: spec.agentType,
      status: 'starting',
      permissionMode: mode,
      settingsFile,
      logFile,
      cwd: lead.cwd(),
      joinedAtMs: Date.now(),
    };
    config.members = [...config.members.filter((m) => m.name !== spec.name), member];
  });
  // Its task: the first message in its inbox.
  deliverToInbox(team.dir, spec.name, { from: TEAM_LEAD, text: spec.prompt, summary: spec.description });

  const argv = teammateCommand(team.name, spec.name);
  const env = { ...process.env, GANTRY_FEATURE_TEAMS: '1', GANTRY_TEAMS_ROOT: path.dirname(team.dir) };
  let child: ChildProcess | undefined;
  let tmuxPane: string | undefined;
  if (process.env.GANTRY_TEAMMATE_MODE === 'tmux' && process.env.TMUX) {
    // A pane gets the tmux server's environment, not this process's: the variables the teammate
    // needs from the lead (model provider, Gantry's own) go in a file only the user can read.
    const passed = Object.fromEntries(
      Object.entries(env).filter(([k]) => /^(ANTHROPIC_|OPENAI_|GANTRY_|CLAUDE_)/.test(k) || k === 'HOME'),
    );
    writeFileSync(path.join(memberDir, 'env.json'), JSON.stringify(passed), { mode: 0o600 });
    const shell = `cd ${quote(lead.cwd())} && GANTRY_TEAMS_ROOT=${quote(env.GANTRY_TEAMS_ROOT)} ${argv.map(quote).join(' ')} > ${quote(logFile)} 2>&1`;
    const r = spawnSync('tmux', ['split-window', '-d', '-P', '-F', '#{pane_id}', shell], {
      encoding: 'utf8',
      env,
    });
    if (r.status !== 0) throw new Error(`tmux could not open a pane: ${r.stderr.trim()}`);
    tmuxPane = r.stdout.trim();
    lead.hold(memberEnded(team, spec.name, tmuxPane));
  } else {
    const fd = openSync(logFile, 'a');
    try {
      child = spawn(argv[0] as string, argv.slice(1), {
        cwd: lead.cwd(),
        env,
        stdio: ['ignore', fd, fd],
        detached: true,
      });
    } finally {
      closeSync(fd);
    }
    // Not unref'd: while a teammate runs, the lead's process stays up to hear from it (its loop
    // holds the session open; the child handle keeps Node's event loop alive).
    const started = child;
    const exited = new Promise<void>((resolve) => {
      started.once('exit', () => {
        // Its last messages (a shutdown_response) reach the lead before the lead may end.
        pollLeadInbox(team);
        resolve();
      });
      started.once('error', () => resolve());
    });
    team.processes.set(spec.name, { child: started, exited });
    lead.hold(exited);
  }
  await updateTeam(team.dir, (config) => {
    const m = config.members.find((x) => x.name === spec.name);
    if (m) {
      if (child?.pid !== undefined) m.pid = child.pid;
      if (tmuxPane) m.tmuxPane = tmuxPane;
    }
  });
  return {
    name: spec.name,
    team: team.name,
    ...(child?.pid !== undefined ? { pid: child.pid } : {}),
    permissionMode: mode,
    denyRules: rules.deny,
    logFile,
    ...(tmuxPane ? { tmuxPane } : {}),
  };
}
