/**
 * Everything a face (`gantry -p`, the interactive TUI) needs before it can start the loop, built
 * once from the command line: settings → permission engine, model configuration → model client,
 * the tool set, the permission mode, the system prompt options, the command hooks from settings,
 * the OS sandbox when settings enable it. The face adds what it alone knows (the prompt source,
 * `canUseTool`, callback hooks, the output) and calls `query()`.
 *
 * Start-up problems are `AgentSetupError`s whose message says what to fix (a broken `--settings`
 * file, an unknown provider, a missing key, an unknown mode, an unreadable prompt file); the face
 * reports them as an error result or on stderr. Warnings (settings problems, ignored project keys,
 * unknown `--tools` names) are collected for stderr.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { ThinkingRequest } from '../../core/model-client.js';
import { fsPathResolver } from '../../core/paths.js';
import type { PermissionMode } from '../../core/permission-types.js';
import type { SubagentRunner } from '../../core/services.js';
import type { AnyTool } from '../../core/tool.js';
import { defaultGantryHome } from '../../loop/transcript/paths.js';
import { readManagedToolLimits } from '../../loop/thresholds.js';
import type { HookCommandConfig, ToolResultLimits } from '../../loop/types.js';
import type { ElicitationHandler } from '../../mcp/client/connection/connection.js';
import type { McpClientManager } from '../../mcp/client/manager.js';
import { withApprovalPinning } from '../../mcp/client/security/pinning-engine.js';
import { setupMcpSession } from '../../mcp/client/session-setup.js';
import { decideToolSearch, parseToolSearchSetting } from '../../mcp/tool-search/activation.js';
import { createSessionToolPool, type LoopToolPool } from '../../mcp/tool-search/session-pool.js';
// The model room's modules directly, not its barrel: the barrel also exports the OpenAI client,
// which loads the `openai` SDK (loaded on the first OpenAI request instead).
import { ModelConfigError } from '../../model/config.js';
import { type ConfiguredModelClient, createModelClient } from '../../model/create-model-client.js';
import { modelInfo } from '../../model/models.js';
import { sessionDirFor } from '../../tools/file-io/session-files.js';
import {
  createPermissionEngine,
  type LoadedSettings,
  loadSettings,
  type PermissionEngine,
  parsePermissionMode,
  splitToolList,
} from '../../permissions/index.js';
import type { ToolPool } from '../../runtime/index.js';
import { createSandboxManager, type SandboxManager } from '../../sandbox/index.js';
import {
  type AgentHost,
  createAgentTool,
  createSubagentRunner,
  loadAgentDefinitions,
} from '../../agents/index.js';
import { agentFeatureTools } from '../../agents/feature-tools.js';
import { getAllBaseTools, planFileFor } from '../../tools/index.js';
import { readFeatureSettings } from '../../loop/feature-settings-files.js';
import { readWebSettings } from '../../loop/web-settings-files.js';
import { readLspSettings } from '../../loop/lsp-settings-files.js';
import { describerFor } from '../shared/guard.js';
import { type MainAgent, mainAgentMcpConfig, mainAgentMode, resolveMainAgent } from './main-agent.js';
import { readSettingsExtras } from './settings-extras.js';
import { resolveSettingsInput, SettingsInputError } from './settings-input.js';
import { requestedToolNames, selectTools } from './tool-selection.js';

export class AgentSetupError extends Error {
  override readonly name = 'AgentSetupError';
}

/** The face-independent flags (Claude Code's names; see docs/cli-print.md). */
export interface AgentFlags {
  /** Absolute working directory. */
  cwd: string;
  home?: string;
  /** Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  model?: string;
  provider?: string;
  permissionMode?: string;
  dangerouslySkipPermissions?: boolean;
  allowDangerouslySkipPermissions?: boolean;
  allowedTools?: readonly string[];
  disallowedTools?: readonly string[];
  /** Raw `--tools` values (undefined: default set). */
  tools?: readonly string[];
  addDirs?: readonly string[];
  /** `--settings` values (file or inline JSON). */
  settings?: readonly string[];
  settingSources?: readonly ('user' | 'project' | 'local')[];
  systemPrompt?: string;
  systemPromptFile?: string;
  appendSystemPrompt?: string;
  appendSystemPromptFile?: string;
  maxThinkingTokens?: number;
  thinking?: 'enabled' | 'adaptive' | 'disabled';
  /** `transcript_path` for hooks run by the permission engine. */
  transcriptPath?: string;
  /** Managed settings files (tests). */
  managedFiles?: readonly string[];
  /** Explicit workspace trust (tests, `--trust`). */
  trust?: boolean;
  /** `--agents` as JSON text: sub-agent definitions for this session. */
  agentsJson?: string;
  /** `--agent <name>`: run the main session as this agent definition (main-agent.ts). */
  agent?: string;
  /** `--mcp-config` values (files or JSON strings). */
  mcpConfig?: readonly string[];
  strictMcpConfig?: boolean;
  /** Interactive sessions ask before using project MCP servers (print mode: false). */
  interactive?: boolean;
  /** The session id (the MCP servers' logs go to its session directory). */
  sessionId?: string;
  /** Answers MCP elicitations (absent: declined). */
  elicit?: ElicitationHandler;
  /** Client name and version the MCP servers see. */
  clientInfo?: { name: string; version: string };
}

export interface AgentSetup {
  cwd: string;
  home: string;
  gantryHome: string;
  settings: LoadedSettings;
  engine: PermissionEngine;
  modelClient: ConfiguredModelClient;
  /** Wire model id. */
  model: string;
  provider: 'anthropic' | 'openai';
  /**
   * The session's tool pool (`callable` runs, `definitions()` is sent; with MCP servers and tool
   * search, `definitionsFor(loaded)` for later requests and the deferred-names section).
   */
  toolPool: ToolPool | LoopToolPool;
  /** The MCP servers of the session (started; closed by `dispose`). */
  mcp: McpClientManager;
  /** Answers a project server's approval (interactive; see `McpSession.answerApproval`). */
  answerMcpApproval(name: string, approved: boolean): Promise<void>;
  tools: readonly AnyTool[];
  permissionMode: PermissionMode;
  /** bypassPermissions may be switched to later (started in it, or allowed at launch). */
  bypassAvailable: boolean;
  /** A custom system prompt (replaces Gantry's, the security section stays). */
  systemPrompt?: string;
  appendSystemPrompt?: string;
  settingsHooks: HookCommandConfig;
  /** Result-size thresholds from managed settings (read once per session). */
  toolResultLimits: ToolResultLimits;
  thinking?: ThinkingRequest;
  /** Which variable the model credential came from (`ANTHROPIC_API_KEY`, …) or `none`. */
  apiKeySource: string;
  warnings: string[];
  /** How tools start sub-agents (the agent types of this session). */
  runSubagent: SubagentRunner;
  /** The definition the main session runs as (`--agent`). */
  agent?: { name: string; maxTurns?: number };
  /** The plan file of a session (`plansDirectory` setting, else `~/.gantry/plans/<id>.md`). */
  planFile: (sessionId: string) => string;
  /** Stops the sandbox and removes temporary settings files. Safe to call twice. */
  dispose(): Promise<void>;
}

/** Tool names the user named in `--tools` and `--allowedTools` (rule text up to `(`). */
function namedTools(tools: readonly string[] | undefined, allowed: readonly string[] | undefined): string[] {
  const fromRules = (allowed ?? [])
    .flatMap((v) => splitToolList(v))
    .map((r) => r.split('(')[0]?.trim() ?? '');
  return [...(requestedToolNames(tools) ?? []), ...fromRules].filter(Boolean);
}

function readPromptFile(flag: string, file: string, cwd: string): string {
  const abs = path.resolve(cwd, file);
  try {
    return readFileSync(abs, 'utf8');
  } catch (e) {
    throw new AgentSetupError(
      `${flag}: cannot read ${abs} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
}

function thinkingFrom(flags: AgentFlags): ThinkingRequest | undefined {
  if (flags.thinking === 'disabled') return { type: 'disabled' };
  if (flags.thinking === 'adaptive') return { type: 'adaptive' };
  if (flags.maxThinkingTokens !== undefined)
    return flags.maxThinkingTokens === 0
      ? { type: 'disabled' }
      : { type: 'enabled', budgetTokens: flags.maxThinkingTokens };
  if (flags.thinking === 'enabled')
    throw new AgentSetupError('--thinking enabled needs --max-thinking-tokens <n>');
  return undefined;
}

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

  let settingsInput: ReturnType<typeof resolveSettingsInput>;
  try {
    settingsInput = resolveSettingsInput(flags.settings ?? [], cwd);
  } catch (e) {
    if (e instanceof SettingsInputError) throw new AgentSetupError(e.message);
    throw e;
  }
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
    const settings = loadSettings({
      projectRoot: cwd,
      home,
      env,
      cli: {
        ...(flags.allowedTools?.length ? { allowedTools: [...flags.allowedTools] } : {}),
        ...(flags.disallowedTools?.length ? { disallowedTools: [...flags.disallowedTools] } : {}),
        ...(flags.permissionMode ? { permissionMode: flags.permissionMode } : {}),
        ...(flags.addDirs?.length ? { addDirs: flags.addDirs.map((d) => path.resolve(cwd, d)) } : {}),
        ...(flags.dangerouslySkipPermissions ? { dangerouslySkipPermissions: true } : {}),
      },
      settingsFiles: settingsInput.files,
      settingsAnchors: settingsInput.anchors,
      ...(flags.managedFiles ? { managedFiles: flags.managedFiles } : {}),
      ...(flags.settingSources ? { settingSources: flags.settingSources } : {}),
      ...(flags.trust !== undefined ? { trust: flags.trust } : {}),
    });
    const named = new Set(settingsInput.files);
    const label = (file: string | undefined): string =>
      file && settingsInput.inline.has(file) ? '--settings (inline JSON)' : (file ?? 'settings');
    const broken = settings.problems.filter(
      (p) => p.severity === 'error' && p.file !== undefined && named.has(p.file),
    );
    if (broken.length)
      throw new AgentSetupError(
        broken.map((p) => `${label(p.file)}: ${p.message}${p.line ? ` (line ${p.line})` : ''}`).join('; '),
      );
    for (const p of settings.problems)
      warnings.push(`settings ${p.severity}: ${label(p.file)}${p.line ? `:${p.line}` : ''} ${p.message}`);

    const extras = readSettingsExtras(settings);
    warnings.push(...extras.warnings);

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

    const clientFor = (model: string | undefined): ConfiguredModelClient =>
      createModelClient({
        flags: {
          ...(model !== undefined ? { model } : {}),
          ...(flags.provider !== undefined ? { provider: flags.provider } : {}),
        },
        env,
        settings: {
          ...(extras.model ? { model: extras.model } : {}),
          ...(extras.provider ? { provider: extras.provider } : {}),
          env: extras.env,
        },
      });
    let modelClient: ConfiguredModelClient;
    try {
      const agentModel = flags.model === undefined ? mainAgent?.model : undefined;
      try {
        modelClient = clientFor(flags.model ?? agentModel);
      } catch (e) {
        // The agent's model (an Anthropic alias on another provider, say) gives way to the session's.
        if (!(e instanceof ModelConfigError) || agentModel === undefined) throw e;
        warnings.push(`--agent: model "${agentModel}" ignored: ${e.message}`);
        modelClient = clientFor(undefined);
      }
    } catch (e) {
      if (e instanceof ModelConfigError) throw new AgentSetupError(e.message);
      throw e;
    }

    const plansSetting = extras.plansDirectory
      ? { directory: extras.plansDirectory, projectRoot: cwd }
      : undefined;
    const planFile = (sessionId: string): string => planFileFor(sessionId, home, plansSetting);
    const baseEngine = createPermissionEngine({
      settings,
      describe: async (toolName, input, request) =>
        describerFor(toolName).describe(input, { cwd: request.cwd, home, resolver: fsPathResolver }),
      ...(flags.transcriptPath ? { transcriptPath: flags.transcriptPath } : {}),
      // The plan-mode tools keep the session's plan in this file; plan mode may write exactly it.
      planFile: (request) => planFile(request.sessionId),
    });

    if (settings.sandbox.enabled)
      sandbox = createSandboxManager({
        settings: settings.sandbox,
        workingDirectories: () => [cwd, ...settings.additionalDirectories],
      });
    const web = readWebSettings(settings);
    warnings.push(...web.warnings);
    const features = readFeatureSettings(settings);
    warnings.push(...features.warnings);
    const lsp = readLspSettings(settings, cwd);
    warnings.push(...lsp.warnings);
    // Agent definitions' own MCP servers and hooks: names refer to this session's servers; a
    // project definition's commands run only in a trusted folder, as project settings hooks do.
    const agentHost: AgentHost = {
      mcp: () => mcpManager,
      env,
      projectTrusted: settings.trust.trusted,
      hooksAllowed: settings.nonManagedHooksAllowed !== false,
      ...(sandbox ? { sandbox } : {}),
    };
    const agentTypes = mainAgent?.agentTypes;
    const offered = agentTypes
      ? loadedAgents.agents.filter((a) => agentTypes.includes(a.agentType))
      : loadedAgents.agents;
    const featureTools = await agentFeatureTools({ env: { ...env, ...extras.env } });
    const everyTool = [
      createAgentTool({
        agents: offered,
        host: agentHost,
        ...(featureTools.teammates ? { teammates: featureTools.teammates } : {}),
      }),
      ...featureTools.tools,
      ...(await getAllBaseTools({
        ...(sandbox ? { bashSandbox: sandbox } : {}),
        web: web.web,
        features: features.features,
        modelProvider: modelClient.config.provider,
        env: { ...env, ...extras.env },
        skills: { projectRoot: cwd, home },
        lspServers: lsp.servers,
        named: namedTools(flags.tools, flags.allowedTools),
      })),
    ];
    const all = mainAgent ? mainAgent.filterTools(everyTool) : everyTool;
    const selection = selectTools(all, flags.tools, (name) => baseEngine.isToolDenied(name));
    if (selection.unknown.length)
      warnings.push(`--tools: no built-in tool named ${selection.unknown.join(', ')}`);

    // MCP servers (docs/mcp-client.md): connected in parallel before the first request; a server
    // that fails is reported in system/init and never stops the session.
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
    mcpManager = mcp.manager;
    for (const p of mcp.problems)
      warnings.push(`mcp config ${p.severity}: ${p.file ? `${p.file}: ` : ''}${p.message}`);
    await mcp.manager.start();
    for (const r of mcp.manager.reports())
      if (r.status === 'failed')
        warnings.push(`MCP server "${r.name}" failed: ${r.error ?? 'no reason given'}`);
    const toolSearchSetting = parseToolSearchSetting(env.ENABLE_TOOL_SEARCH);
    if (toolSearchSetting.warning) warnings.push(toolSearchSetting.warning);
    const builtIn = selection.pool.callable;
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

    const systemPrompt =
      flags.systemPromptFile !== undefined
        ? readPromptFile('--system-prompt-file', flags.systemPromptFile, cwd)
        : (flags.systemPrompt ??
          (mainAgent?.definition.prompt.trim() ? mainAgent.definition.prompt : undefined));
    const appendSystemPrompt =
      flags.appendSystemPromptFile !== undefined
        ? readPromptFile('--append-system-prompt-file', flags.appendSystemPromptFile, cwd)
        : flags.appendSystemPrompt;
    const thinking = thinkingFrom(flags);
    const managedLimits = readManagedToolLimits({
      ...(flags.managedFiles ? { managedFiles: flags.managedFiles } : {}),
      projectRoot: cwd,
      home,
    });
    for (const p of managedLimits.problems) warnings.push(`managed settings: ${p.file}: ${p.message}`);

    const agentMode =
      mainAgent && flags.permissionMode === undefined && !flags.dangerouslySkipPermissions
        ? mainAgentMode(
            mainAgent,
            {
              trusted: settings.trust.trusted,
              bypassDisabled: settings.disableBypassPermissionsMode === true,
            },
            warnings,
          )
        : undefined;
    const permissionMode = agentMode ?? settings.defaultMode;
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
      ...(systemPrompt !== undefined ? { systemPrompt } : {}),
      ...(appendSystemPrompt !== undefined ? { appendSystemPrompt } : {}),
      settingsHooks: settings.eventHooks as HookCommandConfig,
      toolResultLimits: managedLimits.limits,
      ...(thinking ? { thinking } : {}),
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
