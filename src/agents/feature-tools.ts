/**
 * The agents room's tools behind feature flags (`FEATURE_FLAGS` in tools/index.ts): SendMessage
 * (`SEND_MESSAGE`, or `TEAMS`, which implies it) and the agent-team tools (`TEAMS`). Like the
 * registry's conditional tools, a module is imported only when its flag is on, so with the flags
 * off none of messaging/send-message.tool.ts or teams/ is even evaluated.
 */
import type { AnyTool } from '../core/index.js';
import { feature, type ToolRegistryConfig } from '../tools/index.js';
import type { TeammateLauncher } from './teams/team-tools.js';

export interface AgentFeatureTools {
  /** The tools to add to the session's list (after the Agent tool). */
  tools: AnyTool[];
  /** For `createAgentTool({ teammates })`: `name` while the session leads a team starts a teammate. */
  teammates?: TeammateLauncher;
}

export async function agentFeatureTools(config: ToolRegistryConfig = {}): Promise<AgentFeatureTools> {
  const teams = feature('TEAMS', config);
  const sendMessage = teams || feature('SEND_MESSAGE', config);
  if (!sendMessage) return { tools: [] };
  const { createSendMessageTool } = await import('./messaging/send-message.tool.js');
  if (!teams) return { tools: [createSendMessageTool()] };
  const t = await import('./teams/team-tools.js');
  return {
    tools: [
      createSendMessageTool({ teams: t.teamRouter }),
      t.createTeamCreateTool(),
      t.createTeamDeleteTool(),
      t.createListPeersTool(),
    ],
    teammates: t.launchTeammate,
  };
}
