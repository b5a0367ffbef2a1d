/**
 * Sub-agents (docs/agents.md): the Agent tool (alias Task), agent definitions and the built-in
 * types, `runAgent`, tool filtering, narrowed permissions, forks, worktree isolation.
 */
export {
  AgentInput,
  type AgentTool,
  type AgentToolData,
  type AgentToolOptions,
  createAgentTool,
  renderForegroundResult,
  renderLaunchNotice,
  taskNotificationText,
} from './agent-tool.js';
export {
  type AgentDefinition,
  type AgentSource,
  BUILT_IN_AGENTS,
  DEFAULT_AGENT_TYPE,
  FORK_AGENT_TYPE,
  READ_ONLY_DISALLOWED,
} from './definitions.js';
export {
  ALL_AGENT_DISALLOWED_TOOLS,
  ASYNC_AGENT_ALLOWED_TOOLS,
  CUSTOM_AGENT_DISALLOWED_TOOLS,
  DEFAULT_MAX_AGENT_DEPTH,
  definitionKeepsTool,
  filterToolsForAgent,
  resolveAgentTools,
} from './filter-tools.js';
export { buildForkMessages, FORK_PLACEHOLDER_RESULT, forkDirectiveText } from './fork.js';
export { meetDecisions, narrowedDecider, narrowingNote, narrowPermissionMode } from './narrow.js';
export { type AgentOutcome, agentTools, type RunAgentOptions, runAgent } from './run-agent.js';
export { newAgentId, type SidechainMeta, sidechainPaths } from './sidechain.js';
export { createAgentWorktree, finishAgentWorktree } from './worktree.js';
export {
  type AgentLoadProblem,
  type LoadAgentsOptions,
  type LoadedAgents,
  loadAgentDefinitions,
  parseAgentFile,
} from './load-agents.js';
export { createSubagentRunner } from './subagent-runner.js';
export { type AgentHost, type AgentScope, openAgentScope, parseAgentHooks } from './agent-scope.js';
// SendMessage and the agent-team tools load only when their flag is on (docs/teams.md).
export { type AgentFeatureTools, agentFeatureTools } from './feature-tools.js';
