/**
 * Everything a face (`gantry -p`, the interactive TUI) needs before it can start the loop, built
 * once from the command line, in phases: settings (setup-settings.ts) → agent definitions → model
 * client (setup-model.ts) → permission engine, OS sandbox and tool set (setup-tools.ts) → MCP
 * servers and the tool pool (setup-mcp.ts) → system prompt options, thresholds and permission mode
 * (setup-prompt.ts). The face adds what it alone knows (the prompt source, `canUseTool`, callback
 * hooks, the output) and calls `query()`.
 *
 * Start-up problems are `AgentSetupError`s whose message says what to fix (a broken `--settings`
 * file, an unknown provider, a missing key, an unknown mode, an unreadable prompt file); the face
 * reports them as an error result or on stderr. Warnings (settings problems, ignored project keys,
 * unknown `--tools` names) are collected for stderr, in the order the phases find them.
 */
import { homedir } from 'node:os';
import path from 'node:path';
import { createSubagentRunner, loadAgentDefinitions } from '../../agents/index.js';
import { defaultGantryHome } from '../../loop/transcript/paths.js';
import type { HookCommandConfig } from '../../loop/types.js';
import type { McpClientManager } from '../../mcp/client/manager.js';
import { parsePermissionMode } from '../../permissions/index.js';
import { createSandboxManager, type SandboxManager } from '../../sandbox/index.js';
import { type AgentFlags, type AgentSetup, AgentSetupError } from './agent-setup-types.js';
import { type MainAgent, resolveMainAgent } from './main-agent.js';
import { openSetupMcp, startSetupMcp } from './setup-mcp.js';
import { createSetupModelClient } from './setup-model.js';
import { readSetupPrompt } from './setup-prompt.js';
import { loadSetupSettings, resolveFlagSettings } from './setup-settings.js';
import { buildSetupTools, createSetupEngine } from './setup-tools.js';

export { type AgentFlags, type AgentSetup, AgentSetupError } from './agent-setup-types.js';

/** Builds the setup (see the module comment). Throws `AgentSetupError`. */
export async function createAgentSetup(flags: AgentFlags): Promise<AgentSetup> {
  const cwd = path.resolve(flags.cwd);
  const home = flags.home ?? homedir();
  const env = flags.env ?? process.env;
  const warnings: string[] = [];

  if (flags.permissionMode !== undefined && !parsePermissionMode(flags.permissionMode))
    throw new AgentSetupError(
      `--permission-mode: unknown mode "${flags.permissionMode}" (use default, acceptEdits, plan, dontAsk, bypassPermissions or auto)`,
    );

  const settingsInput = resolveFlagSettings(flags, cwd, home);
  let sandbox: SandboxManager | undefined;
  let mcpManager: McpClientManager | undefined;
  let disposed: Promise<void> | undefined;
  const dispose = (): Promise<void> => {
    disposed ??= (async () => {
      settingsInput.dispose();
      await mcpManager?.dispose();
      await sandbox?.dispose();
    })();
    return disposed;
  };

  try {
    const { settings, extras } = loadSetupSettings(flags, { cwd, home, env }, settingsInput, warnings);

    const loadedAgents = loadAgentDefinitions({
      cwd,
      home,
      ...(flags.agentsJson !== undefined ? { flagJson: flags.agentsJson } : {}),
    });
    for (const p of loadedAgents.problems)
      warnings.push(`agent definition skipped: ${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`);
    let mainAgent: MainAgent | undefined;
    if (flags.agent !== undefined) {
      try {
        mainAgent = resolveMainAgent(flags.agent, loadedAgents.agents);
      } catch (e) {
        throw new AgentSetupError((e as Error).message);
      }
    }

    const modelClient = createSetupModelClient(flags, env, extras, mainAgent, warnings);
    const { baseEngine, planFile } = createSetupEngine(flags, { cwd, home }, settings, extras);
    if (settings.sandbox.enabled)
      sandbox = createSandboxManager({
        settings: settings.sandbox,
        workingDirectories: () => [cwd, ...settings.additionalDirectories],
      });
    const { selection, agentHost } = await buildSetupTools({
      flags,
      cwd,
      home,
      env,
      settings,
      extras,
      baseEngine,
      modelClient,
      agents: loadedAgents.agents,
      mainAgent,
      sandbox,
      mcp: () => mcpManager,
      warnings,
    });

    const mcp = openSetupMcp({ flags, cwd, home, env, settings, mainAgent, sandbox, warnings });
    mcpManager = mcp.manager;
    const { toolPool, engine } = await startSetupMcp({
      mcp,
      flags,
      env,
      builtIn: selection.pool.callable,
      baseEngine,
      modelClient,
      mainAgent,
      warnings,
    });

    const prompt = readSetupPrompt({ flags, cwd, home, settings, mainAgent, warnings });
    const { permissionMode } = prompt;
    return {
      cwd,
      home,
      gantryHome: defaultGantryHome(home),
      settings,
      engine,
      modelClient,
      model: modelClient.model,
      provider: modelClient.config.provider,
      toolPool,
      mcp: mcp.manager,
      answerMcpApproval: mcp.answerApproval,
      tools: toolPool.callable,
      permissionMode,
      bypassAvailable:
        !settings.disableBypassPermissionsMode &&
        (permissionMode === 'bypassPermissions' ||
          flags.allowDangerouslySkipPermissions === true ||
          flags.dangerouslySkipPermissions === true),
      ...(prompt.systemPrompt !== undefined ? { systemPrompt: prompt.systemPrompt } : {}),
      ...(prompt.appendSystemPrompt !== undefined ? { appendSystemPrompt: prompt.appendSystemPrompt } : {}),
      settingsHooks: settings.eventHooks as HookCommandConfig,
      toolResultLimits: prompt.toolResultLimits,
      ...(prompt.thinking ? { thinking: prompt.thinking } : {}),
      apiKeySource: modelClient.config.credentialSource,
      runSubagent: createSubagentRunner({ agents: loadedAgents.agents, host: agentHost }),
      ...(mainAgent
        ? {
            agent: {
              name: mainAgent.definition.agentType,
              ...(mainAgent.definition.maxTurns !== undefined
                ? { maxTurns: mainAgent.definition.maxTurns }
                : {}),
            },
          }
        : {}),
      planFile,
      warnings,
      dispose,
    };
  } catch (e) {
    await dispose();
    throw e;
  }
}
