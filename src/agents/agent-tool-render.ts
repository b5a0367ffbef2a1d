/**
 * What the Agent tool returns and the texts the model reads about a sub-agent: the foreground
 * report, the background launch notice and the `<task-notification>` a finished background agent
 * delivers (layouts as Claude Code's hand-back; docs/agents.md).
 */
import type { SpawnedTeammate } from './teams/spawn-teammate.js';
import type { AgentOutcome } from './run-agent.js';

export interface AgentToolData {
  status: 'completed' | 'failed' | 'killed' | 'async_launched' | 'teammate_spawned';
  prompt: string;
  agentId: string;
  agentType: string;
  content: { type: 'text'; text: string }[];
  toolsUsed?: string[];
  totalDurationMs?: number;
  totalTokens?: number;
  totalToolUseCount?: number;
  usage?: unknown;
  resolvedModel?: string;
  permissionMode?: string;
  permission_denials?: AgentOutcome['denials'];
  outputFile?: string;
  worktree?: { path: string; branch: string; kept: boolean; note?: string };
  oneShot?: boolean;
  teammate?: SpawnedTeammate;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}

/** The foreground result text (layout as Claude Code's hand-back). */
export function renderForegroundResult(data: AgentToolData): string {
  const report = data.content.map((c) => c.text).join('\n');
  const lines = [
    `[Sub-agent report] The ${data.agentType} agent you started finished (${data.status}). Its report follows; the person has not seen it.`,
    indent(report),
  ];
  if (data.worktree)
    lines.push(
      data.worktree.kept
        ? `worktree: ${data.worktree.path} (branch ${data.worktree.branch}) kept: it has changes`
        : `worktree: ${data.worktree.path} removed: no changes`,
    );
  if (data.permission_denials?.length)
    lines.push(
      `denied in the agent: ${data.permission_denials.map((d) => `${d.tool_name} (${d.tool_use_id})`).join(', ')}`,
    );
  if (!data.oneShot) lines.push(`agentId: ${data.agentId}`);
  lines.push(
    `<usage>subagent_tokens: ${data.totalTokens ?? 0}\ntool_uses: ${data.totalToolUseCount ?? 0}\nduration_ms: ${data.totalDurationMs ?? 0}</usage>`,
  );
  return lines.join('\n');
}

/** The background launch notice. */
export function renderLaunchNotice(data: AgentToolData): string {
  return [
    `Started the ${data.agentType} agent in the background.`,
    `agentId: ${data.agentId} (also its task id for TaskOutput and TaskStop)`,
    'Do not wait for it or poll it: you will get a <task-notification> when it finishes. Go on with other work, and do not start another agent for the same task.',
    `output_file: ${data.outputFile}`,
  ].join('\n');
}

/** The `<task-notification>` the parent gets when a background agent ends. */
export function taskNotificationText(o: {
  agentId: string;
  toolUseId: string;
  outputFile: string;
  status: string;
  description: string;
  text: string;
  totalTokens: number;
  toolUses: number;
  durationMs: number;
}): string {
  return [
    '<task-notification>',
    `<task-id>${o.agentId}</task-id>`,
    `<tool-use-id>${o.toolUseId}</tool-use-id>`,
    `<output-file>${o.outputFile}</output-file>`,
    `<status>${o.status}</status>`,
    `<summary>Agent "${o.description}" ${o.status === 'completed' ? 'finished' : o.status}</summary>`,
    `<result>${o.text}</result>`,
    `<usage><subagent_tokens>${o.totalTokens}</subagent_tokens><tool_uses>${o.toolUses}</tool_uses><duration_ms>${o.durationMs}</duration_ms></usage>`,
    '</task-notification>',
  ].join('\n');
}
