/**
 * The start of a session, shared by both faces (`gantry -p` and the interactive `gantry`): the
 * session flags → which session (new / continue / resume / fork), then the agent set-up
 * (settings, permission engine, model client, tool pool), then the `query()` options both faces
 * start the loop with. The face adds the prompt source, `canUseTool`, callback hooks and the output.
 *
 * Errors: `SessionTargetError` (an unknown `--resume` id, `--continue` with nothing to continue)
 * and `AgentSetupError` (a broken settings file, no credentials, …) — the face reports them.
 */
import { homedir } from 'node:os';
import { defaultGantryHome } from '../../loop/transcript/paths.js';
import type { QueryOptions, QueryPrompt } from '../../loop/types.js';
import { GANTRY_VERSION } from '../../loop/index.js';
import type { ElicitationHandler } from '../../mcp/client/connection/connection.js';
import { pruneSessionDirs, sessionDirFor, sessionsRoot } from '../../tools/file-io/session-files.js';
import { mcpPromptToolCanUseTool } from '../print/permission-prompt-tool.js';
import { type AgentSetup, createAgentSetup } from './agent-setup.js';
import { resolveSessionTarget, type SessionTarget } from './session-target.js';

/** The agent command line's fields a session start reads (a subset of `PrintArgs`). */
export interface SessionArgs {
  model?: string;
  provider?: string;
  permissionMode?: string;
  dangerouslySkipPermissions: boolean;
  allowDangerouslySkipPermissions: boolean;
  allowedTools: readonly string[];
  disallowedTools: readonly string[];
  tools?: readonly string[];
  maxTurns?: number;
  maxBudgetUsd?: number;
  systemPrompt?: string;
  systemPromptFile?: string;
  appendSystemPrompt?: string;
  appendSystemPromptFile?: string;
  settings: readonly string[];
  settingSources?: readonly ('user' | 'project' | 'local')[];
  addDirs: readonly string[];
  sessionId?: string;
  continue: boolean;
  /** An id, or `true` when given without one (the caller decides what that means). */
  resume?: string | true;
  forkSession: boolean;
  noSessionPersistence: boolean;
  maxThinkingTokens?: number;
  thinking?: 'enabled' | 'adaptive' | 'disabled';
  includePartialMessages: boolean;
  /** `--mcp-config` values and `--strict-mcp-config` (the MCP client connects them at set-up). */
  mcpConfig?: readonly string[];
  strictMcpConfig?: boolean;
  /** `--permission-prompt-tool`: `stdio` (the host) or an MCP tool that answers asks. */
  permissionPromptTool?: string;
  /** `--agent <name>`: the main session runs as this agent definition (main-agent.ts). */
  agent?: string;
}

export interface SessionWorldIo {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** `$HOME` (default: the OS's). */
  home?: string;
}

export interface OpenedSession {
  target: SessionTarget;
  setup: AgentSetup;
}

/**
 * Resolves the session target, then builds the agent set-up. `onTarget` sees the target before
 * the set-up starts (for its notes). Throws the two errors above.
 */
export async function openSession(
  args: SessionArgs,
  io: SessionWorldIo,
  onTarget?: (target: SessionTarget) => Promise<void>,
  extra: { agentsJson?: string; interactive?: boolean; elicit?: ElicitationHandler } = {},
): Promise<OpenedSession> {
  const home = io.home;
  const gantryHome = defaultGantryHome(home ?? homedir());
  const target = resolveSessionTarget(
    {
      ...(args.sessionId !== undefined ? { sessionId: args.sessionId } : {}),
      continue: args.continue,
      ...(typeof args.resume === 'string' ? { resume: args.resume } : {}),
      forkSession: args.forkSession,
      noSessionPersistence: args.noSessionPersistence,
    },
    { cwd: io.cwd, gantryHome },
  );
  await onTarget?.(target);
  // Old session folders go at start (docs/reliability.md "Retention"), beside the set-up: never
  // this session's own, never a live one's; it never throws. Awaited before the session starts
  // so a short `-p` run does not exit with the removal half done.
  const pruned = pruneSessionDirs(sessionsRoot(home ?? homedir()), {
    keep: sessionDirFor(target.sessionId, home ?? homedir()),
  });
  const setup = await createAgentSetup({
    cwd: io.cwd,
    ...(home !== undefined ? { home } : {}),
    env: io.env,
    ...(args.model !== undefined ? { model: args.model } : {}),
    ...(args.provider !== undefined ? { provider: args.provider } : {}),
    ...(args.permissionMode !== undefined ? { permissionMode: args.permissionMode } : {}),
    dangerouslySkipPermissions: args.dangerouslySkipPermissions,
    allowDangerouslySkipPermissions: args.allowDangerouslySkipPermissions,
    allowedTools: args.allowedTools,
    disallowedTools: args.disallowedTools,
    ...(args.tools !== undefined ? { tools: args.tools } : {}),
    addDirs: args.addDirs,
    settings: args.settings,
    ...(args.settingSources !== undefined ? { settingSources: args.settingSources } : {}),
    ...(args.systemPrompt !== undefined ? { systemPrompt: args.systemPrompt } : {}),
    ...(args.systemPromptFile !== undefined ? { systemPromptFile: args.systemPromptFile } : {}),
    ...(args.appendSystemPrompt !== undefined ? { appendSystemPrompt: args.appendSystemPrompt } : {}),
    ...(args.appendSystemPromptFile !== undefined
      ? { appendSystemPromptFile: args.appendSystemPromptFile }
      : {}),
    ...(args.maxThinkingTokens !== undefined ? { maxThinkingTokens: args.maxThinkingTokens } : {}),
    ...(args.thinking !== undefined ? { thinking: args.thinking } : {}),
    ...(target.transcriptPath ? { transcriptPath: target.transcriptPath } : {}),
    ...(extra.agentsJson !== undefined ? { agentsJson: extra.agentsJson } : {}),
    ...(args.agent !== undefined ? { agent: args.agent } : {}),
    ...(args.mcpConfig?.length ? { mcpConfig: args.mcpConfig } : {}),
    ...(args.strictMcpConfig ? { strictMcpConfig: true } : {}),
    ...(extra.interactive ? { interactive: true } : {}),
    ...(extra.elicit ? { elicit: extra.elicit } : {}),
    sessionId: target.sessionId,
    clientInfo: { name: 'gantry', version: GANTRY_VERSION },
  }).finally(() => pruned);
  const promptTool = args.permissionPromptTool;
  if (promptTool !== undefined && promptTool !== 'stdio' && !setup.mcp.resolveTool(promptTool))
    setup.warnings.push(
      `--permission-prompt-tool ${promptTool}: no connected MCP server has this tool; calls that would ask are denied`,
    );
  return { target, setup };
}

/** What a face needs to start `query` with, minus the host callbacks. */
export function sessionQueryOptions(
  args: SessionArgs,
  opened: OpenedSession,
  prompt: QueryPrompt,
  mcpServers: readonly { name: string; status: string; source: string }[] = [],
): QueryOptions {
  const { setup, target } = opened;
  return {
    prompt,
    modelClient: setup.modelClient,
    model: setup.model,
    toolPool: setup.toolPool,
    cwd: setup.cwd,
    home: setup.home,
    additionalDirectories: setup.settings.additionalDirectories,
    sessionId: target.sessionId,
    permissionMode: setup.permissionMode,
    permissionEngine: setup.engine,
    settingsHooks: setup.settingsHooks,
    toolResultLimits: setup.toolResultLimits,
    runSubagent: setup.runSubagent,
    planFile: setup.planFile,
    ...(args.maxTurns !== undefined
      ? { maxTurns: args.maxTurns }
      : setup.agent?.maxTurns !== undefined
        ? { maxTurns: setup.agent.maxTurns }
        : {}),
    ...(args.maxBudgetUsd !== undefined ? { maxBudgetUsd: args.maxBudgetUsd } : {}),
    ...(setup.systemPrompt !== undefined ? { systemPrompt: setup.systemPrompt } : {}),
    ...(setup.appendSystemPrompt !== undefined ? { appendSystemPrompt: setup.appendSystemPrompt } : {}),
    ...(setup.thinking ? { thinking: setup.thinking } : {}),
    includePartialMessages: args.includePartialMessages,
    transcript: { ...target.transcript, gantryHome: setup.gantryHome },
    ...(target.resume ? { resume: target.resume } : {}),
    ...(args.permissionPromptTool !== undefined && args.permissionPromptTool !== 'stdio'
      ? { canUseTool: mcpPromptToolCanUseTool(setup.mcp, args.permissionPromptTool) }
      : {}),
    initExtras: {
      apiKeySource: setup.apiKeySource,
      mcp_servers: mcpServers.map(({ name, status, source }) => ({ name, status, source })),
    },
  };
}
