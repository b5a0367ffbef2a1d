/**
 * The agent-team tools (flag `TEAMS`; docs/teams.md): TeamCreate (this session becomes the lead
 * of a new team), TeamDelete (stops the teammates' processes, removes the team's folder and
 * mailboxes), ListPeers (the agents of this session and the members of its team), the Agent
 * tool's teammate launcher (`name` while a team exists starts a teammate process) and the router
 * SendMessage uses for teammates.
 */
import { rmSync } from 'node:fs';
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import { buildTool, ToolExecutionError, ToolInputError, type ToolUseContext } from '../../core/index.js';
import { type LoopHandle, loopHandleOf } from '../../loop/subagent-host.js';
import { listPeersDescriber, teamCreateDescriber, teamDeleteDescriber } from '../../tools/teams/describe.js';
import { directoryOf } from '../messaging/agent-directory.js';
import type { TeamRouter } from '../messaging/send-message.tool.js';
import { deliverToInbox } from './mailbox.js';
import { type SpawnedTeammate, spawnTeammate, type TeammateSpec } from './spawn-teammate.js';
import { becomeLead, endLead, leadTeamOf, teammateMembership } from './team-session.js';
import { createTeamFiles, readTeam, TEAM_LEAD, teamDir, teamsRoot, validName } from './team-store.js';

function leadOf(context: ToolUseContext): LoopHandle {
  const here = loopHandleOf(context);
  if (!here) throw new ToolExecutionError('The team tools run only inside a Gantry session (query()).');
  return here;
}

function rootOf(lead: LoopHandle): string {
  return process.env.GANTRY_TEAMS_ROOT ?? teamsRoot(lead.options.home);
}

/** The team folder this session talks through: as lead, or as a teammate. */
function teamFolder(context: ToolUseContext): { dir: string; self: string; team: string } | undefined {
  const here = loopHandleOf(context);
  const lead = here ? leadTeamOf(here) : undefined;
  if (lead) return { dir: lead.dir, self: TEAM_LEAD, team: lead.name };
  const m = teammateMembership();
  return m ? { dir: m.dir, self: m.member, team: m.team } : undefined;
}

export const TeamCreateInput = z.strictObject({
  team_name: z.string().describe('A name for the team (letters, digits, -, _)'),
  description: z.string().describe('What the team is for').optional(),
  agent_type: z.string().describe('The role of the lead (informational)').optional(),
});

export function createTeamCreateTool() {
  return buildTool({
    name: 'TeamCreate',
    aliases: [],
    description: [
      'Create an agent team with this session as its lead. Then start teammates with the Agent tool',
      'and a `name`: each teammate runs as its own gantry process, with permissions narrowed from',
      'yours. Talk to them with SendMessage (`to`: the teammate name); their replies reach you as',
      'agent messages. Ask them to finish with a `shutdown_request`, and call TeamDelete when done.',
    ].join('\n'),
    inputSchema: TeamCreateInput,
    maxResultSizeChars: 10_000,
    isConcurrencySafe: () => false,
    isReadOnly: () => false,
    toAutoClassifierInput: (input) => teamCreateDescriber.toAutoClassifierInput(input),
    async describeCall(input, context) {
      return teamCreateDescriber.describe(input, describeWorldOf(context));
    },
    async *call(input, context) {
      const lead = leadOf(context);
      if (lead.depth > 0 || teammateMembership())
        throw new ToolExecutionError(
          'Only a main session can lead a team (sub-agents and teammates cannot).',
        );
      const current = leadTeamOf(lead);
      if (current)
        throw new ToolExecutionError(`This session already leads team "${current.name}"; delete it first.`);
      if (!validName(input.team_name))
        throw new ToolInputError(
          'team_name: letters, digits, -, _ and . only (1-64 characters)',
          'team_name',
        );
      const dir = teamDir(input.team_name, rootOf(lead));
      try {
        createTeamFiles(dir, {
          name: input.team_name,
          ...(input.description ? { description: input.description } : {}),
          createdAtMs: Date.now(),
          leadSessionId: lead.sessionId,
          members: [
            {
              name: TEAM_LEAD,
              role: 'lead',
              ...(input.agent_type ? { agentType: input.agent_type } : {}),
              pid: process.pid,
              status: 'active',
              permissionMode: lead.permissionMode(),
              cwd: lead.cwd(),
              joinedAtMs: Date.now(),
            },
          ],
        });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST')
          throw new ToolExecutionError(`A team named "${input.team_name}" already exists (${dir}).`);
        throw error;
      }
      becomeLead(lead, input.team_name, dir);
      return {
        data: { team_name: input.team_name, team_file_path: `${dir}/config.json`, lead_agent_id: TEAM_LEAD },
      };
    },
    mapToolResultToContent: (data: { team_name: string; team_file_path: string }) =>
      `Created team "${data.team_name}" (${data.team_file_path}); you are its lead ("${TEAM_LEAD}"). Start teammates with the Agent tool and a name.`,
  });
}

/** Stops one teammate process: SIGTERM to its group, SIGKILL after `graceMs`. */
async function stopProcess(pid: number, exited: Promise<void> | undefined, graceMs: number): Promise<void> {
  const alive = (): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const signal = (s: NodeJS.Signals): void => {
    try {
      process.kill(-pid, s);
    } catch {
      try {
        process.kill(pid, s);
      } catch {
        // Already gone.
      }
    }
  };
  if (!alive()) return;
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (alive() && Date.now() < deadline) {
    if (exited) await Promise.race([exited, new Promise((r) => setTimeout(r, 50))]);
    else await new Promise((r) => setTimeout(r, 50));
  }
  if (alive()) signal('SIGKILL');
}

export function createTeamDeleteTool() {
  return buildTool({
    name: 'TeamDelete',
    aliases: [],
    description:
      "Delete this session's agent team: stops every teammate process that still runs and removes the team's folder and mailboxes.",
    inputSchema: z.strictObject({}),
    maxResultSizeChars: 10_000,
    isConcurrencySafe: () => false,
    isReadOnly: () => false,
    toAutoClassifierInput: (input) => teamDeleteDescriber.toAutoClassifierInput(input),
    async describeCall(input, context) {
      return teamDeleteDescriber.describe(input, describeWorldOf(context));
    },
    async *call(_input, context) {
      const lead = leadOf(context);
      const team = leadTeamOf(lead);
      if (!team) throw new ToolExecutionError('This session leads no team.');
      const config = readTeam(team.dir);
      const stopped: string[] = [];
      for (const m of config.members) {
        if (m.role === 'lead') continue;
        const own = team.processes.get(m.name);
        if (m.pid && m.status !== 'ended') {
          await stopProcess(m.pid, own?.exited, 3_000);
          stopped.push(m.name);
        }
        if (m.tmuxPane) {
          const { spawnSync } = await import('node:child_process');
          spawnSync('tmux', ['kill-pane', '-t', m.tmuxPane]);
        }
      }
      endLead(lead);
      rmSync(team.dir, { recursive: true, force: true });
      return { data: { success: true, team_name: team.name, stopped } };
    },
    mapToolResultToContent: (data: { team_name: string; stopped: string[] }) =>
      `Deleted team "${data.team_name}"${data.stopped.length ? `; stopped ${data.stopped.join(', ')}` : ''}; its folder and mailboxes are removed.`,
  });
}

export interface PeerList {
  team?: {
    name: string;
    self: string;
    members: {
      name: string;
      role: string;
      status: string;
      pid?: number;
      alive: boolean;
      permissionMode: string;
    }[];
  };
  agents: { agentId: string; name?: string; agentType: string; status: string; description: string }[];
}

function pidAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function createListPeersTool() {
  return buildTool({
    name: 'ListPeers',
    aliases: [],
    description:
      'List who you can send messages to: the agents started in this session (id, name, state) and the members of your agent team.',
    inputSchema: z.strictObject({}),
    maxResultSizeChars: 20_000,
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    toAutoClassifierInput: (input) => listPeersDescriber.toAutoClassifierInput(input),
    async describeCall(input, context) {
      return listPeersDescriber.describe(input, describeWorldOf(context));
    },
    async *call(_input, context) {
      const here = leadOf(context);
      const agents = directoryOf(here.tasks)
        .list()
        .map((r) => ({
          agentId: r.agentId,
          ...(r.name ? { name: r.name } : {}),
          agentType: r.definition.agentType,
          status: r.status,
          description: r.description,
        }));
      const folder = teamFolder(context);
      let team: PeerList['team'];
      if (folder) {
        const config = readTeam(folder.dir);
        team = {
          name: config.name,
          self: folder.self,
          members: config.members.map((m) => ({
            name: m.name,
            role: m.role,
            status: m.status,
            ...(m.pid !== undefined ? { pid: m.pid } : {}),
            alive: m.status !== 'ended' && pidAlive(m.pid),
            permissionMode: m.permissionMode,
          })),
        };
      }
      const data: PeerList = { agents, ...(team ? { team } : {}) };
      return { data };
    },
    mapToolResultToContent: (data: PeerList) => {
      const lines: string[] = [];
      if (data.team) {
        lines.push(`Team "${data.team.name}" (you are ${data.team.self}):`);
        for (const m of data.team.members)
          lines.push(
            `- ${m.name} (${m.role}): ${m.status}${m.alive ? '' : m.role === 'teammate' ? ', process not running' : ''}, mode ${m.permissionMode}`,
          );
      } else lines.push('You are in no agent team.');
      lines.push(data.agents.length ? 'Agents of this session:' : 'No agents were started in this session.');
      for (const a of data.agents)
        lines.push(
          `- ${a.agentId}${a.name ? ` "${a.name}"` : ''} (${a.agentType}): ${a.status} — ${a.description}`,
        );
      return lines.join('\n');
    },
  });
}

/** The Agent tool's hook: `name` while this session leads a team → a teammate process. */
export type TeammateLauncher = (
  spec: TeammateSpec,
  context: ToolUseContext,
) => Promise<SpawnedTeammate | undefined>;

export const launchTeammate: TeammateLauncher = async (spec, context) => {
  const here = loopHandleOf(context);
  const team = here && here.depth === 0 ? leadTeamOf(here) : undefined;
  if (!team) return undefined;
  try {
    return await spawnTeammate(team, spec);
  } catch (error) {
    throw new ToolExecutionError(error instanceof Error ? error.message : String(error));
  }
};

/** SendMessage's route to teammates. */
export const teamRouter: TeamRouter = {
  self(context) {
    const f = teamFolder(context);
    return f ? { team: f.team, member: f.self } : undefined;
  },
  memberNames(context) {
    const f = teamFolder(context);
    if (!f) return [];
    try {
      return readTeam(f.dir).members.map((m) => m.name);
    } catch {
      return [];
    }
  },
  async send(to, message, context) {
    const f = teamFolder(context);
    if (!f) return undefined;
    const config = readTeam(f.dir);
    const member = config.members.find((m) => m.name === to);
    if (!member) return undefined;
    if (to === f.self) throw new ToolInputError('That is you: send to another member of the team.', 'to');
    if (member.status === 'ended')
      throw new ToolExecutionError(`Teammate "${to}" has ended; its process no longer reads messages.`);
    deliverToInbox(f.dir, to, {
      from: f.self,
      text: message.text,
      ...(message.summary ? { summary: message.summary } : {}),
      ...(message.structured ? { structured: message.structured } : {}),
    });
    return `Message written to ${to}'s mailbox in team "${config.name}"${message.structured?.type === 'shutdown_request' ? ': it will finish and exit, and answer with a shutdown_response' : ''}.`;
  },
};
