/**
 * Agent set-up, phase 4: the MCP servers (docs/mcp-client.md) and the tool pool the loop sends.
 * `openSetupMcp` reads the configuration and creates the manager (nothing connects yet);
 * `startSetupMcp` connects every server in parallel before the first request (a server that
 * fails is reported in system/init and never stops the session), decides tool search, and builds
 * the session pool and the engine that checks MCP approval pins.
 */
import { withApprovalPinning } from '../../mcp/client/security/pinning-engine.js';
import { type McpSession, setupMcpSession } from '../../mcp/client/session-setup.js';
import { decideToolSearch, parseToolSearchSetting } from '../../mcp/tool-search/activation.js';
import { createSessionToolPool, type LoopToolPool } from '../../mcp/tool-search/session-pool.js';
import type { ConfiguredModelClient } from '../../model/create-model-client.js';
import { modelInfo } from '../../model/models.js';
import type { LoadedSettings, PermissionEngine } from '../../permissions/index.js';
import type { SandboxManager } from '../../sandbox/index.js';
import type { AnyTool } from '../../core/tool.js';
import { sessionDirFor } from '../../tools/file-io/session-files.js';
import type { AgentFlags } from './agent-setup-types.js';
import { type MainAgent, mainAgentMcpConfig } from './main-agent.js';

/** Reads the MCP configuration and creates the manager; problems go to `warnings`. */
export function openSetupMcp(input: {
  flags: AgentFlags;
  cwd: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  settings: LoadedSettings;
  mainAgent: MainAgent | undefined;
  sandbox: SandboxManager | undefined;
  warnings: string[];
}): McpSession {
  const { flags, cwd, home, env, settings, mainAgent, sandbox, warnings } = input;
  const agentMcp = mainAgent ? mainAgentMcpConfig(mainAgent, settings.trust.trusted, warnings) : undefined;
  const mcpConfig = [...(flags.mcpConfig ?? []), ...(agentMcp ? [agentMcp] : [])];
  const mcp = setupMcpSession({
    projectRoot: cwd,
    cwd,
    home,
    env,
    ...(mcpConfig.length ? { mcpConfig } : {}),
    ...(flags.strictMcpConfig ? { strictMcpConfig: true } : {}),
    settingsFiles: settings.files,
    trusted: settings.trust.trusted,
    interactive: flags.interactive === true,
    sessionDir: sessionDirFor(flags.sessionId ?? `mcp-${process.pid}`, home),
    ...(sandbox ? { sandbox } : {}),
    ...(flags.elicit ? { elicit: flags.elicit } : {}),
    roots: () => [cwd, ...settings.additionalDirectories],
    ...(flags.clientInfo ? { clientInfo: flags.clientInfo } : {}),
  });
  for (const p of mcp.problems)
    warnings.push(`mcp config ${p.severity}: ${p.file ? `${p.file}: ` : ''}${p.message}`);
  return mcp;
}

/** Connects the servers, then builds the session's tool pool and engine. */
export async function startSetupMcp(input: {
  mcp: McpSession;
  flags: AgentFlags;
  env: Readonly<Record<string, string | undefined>>;
  builtIn: readonly AnyTool[];
  baseEngine: PermissionEngine;
  modelClient: ConfiguredModelClient;
  mainAgent: MainAgent | undefined;
  warnings: string[];
}): Promise<{ toolPool: LoopToolPool; engine: PermissionEngine }> {
  const { mcp, flags, env, builtIn, baseEngine, modelClient, mainAgent, warnings } = input;
  await mcp.manager.start();
  for (const r of mcp.manager.reports())
    if (r.status === 'failed')
      warnings.push(`MCP server "${r.name}" failed: ${r.error ?? 'no reason given'}`);
  const toolSearchSetting = parseToolSearchSetting(env.ENABLE_TOOL_SEARCH);
  if (toolSearchSetting.warning) warnings.push(toolSearchSetting.warning);
  const toolSearch = decideToolSearch(
    toolSearchSetting.setting,
    [...builtIn, ...mcp.manager.tools()],
    modelInfo(modelClient.model, modelClient.config.provider).contextWindow,
  );
  const sessionPool = createSessionToolPool({
    builtIn,
    mcp: mcp.manager,
    toolSearch: toolSearch.enabled,
    provider: modelClient.config.provider,
    isDenied: (name) =>
      baseEngine.isToolDenied(name) ??
      (mainAgent?.excludesMcpTool(name) && name.startsWith('mcp__') ? { agent: flags.agent } : undefined),
  });
  const toolPool = sessionPool.loopPool();
  const engine = mcp.pins
    ? withApprovalPinning(baseEngine, { pins: mcp.pins, tools: () => mcp.manager.tools() })
    : baseEngine;
  return { toolPool, engine };
}
