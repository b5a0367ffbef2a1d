/**
 * Agent set-up, phase 3: the permission engine and the tool set. The engine is built from the
 * settings (plan mode may write exactly the session's plan file); the tools are the Agent tool
 * (offered the session's agent definitions), the feature tools, and the built-in tools configured
 * by the web, feature and LSP settings; `--agent` and `--tools` narrow them, and a tool a deny
 * rule names leaves the pool (tool-selection.ts).
 */
import type { AnyTool } from '../../core/tool.js';
import { fsPathResolver } from '../../core/paths.js';
import { type AgentDefinition, type AgentHost, createAgentTool } from '../../agents/index.js';
import { agentFeatureTools } from '../../agents/feature-tools.js';
import { readFeatureSettings } from '../../loop/feature-settings-files.js';
import { readLspSettings } from '../../loop/lsp-settings-files.js';
import { readWebSettings } from '../../loop/web-settings-files.js';
import type { McpClientManager } from '../../mcp/client/manager.js';
import type { ConfiguredModelClient } from '../../model/create-model-client.js';
import {
  createPermissionEngine,
  type LoadedSettings,
  type PermissionEngine,
  splitToolList,
} from '../../permissions/index.js';
import type { SandboxManager } from '../../sandbox/index.js';
import { getAllBaseTools, planFileFor } from '../../tools/index.js';
import { describerFor } from '../shared/guard.js';
import type { AgentFlags } from './agent-setup-types.js';
import type { MainAgent } from './main-agent.js';
import type { SettingsExtras } from './settings-extras.js';
import { requestedToolNames, selectTools } from './tool-selection.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Tool names the user named in `--tools` and `--allowedTools` (rule text up to `(`). */
function namedTools(tools: readonly string[] | undefined, allowed: readonly string[] | undefined): string[] {
  const fromRules = (allowed ?? [])
    .flatMap((v) => splitToolList(v))
    .map((r) => r.split('(')[0]?.trim() ?? '');
  return [...(requestedToolNames(tools) ?? []), ...fromRules].filter(Boolean);
}

/** The settings' permission engine and the session's plan file. */
export function createSetupEngine(
  flags: AgentFlags,
  world: { cwd: string; home: string },
  settings: LoadedSettings,
  extras: SettingsExtras,
): { baseEngine: PermissionEngine; planFile: (sessionId: string) => string } {
  const { cwd, home } = world;
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
  return { baseEngine, planFile };
}

export interface SetupToolsInput {
  flags: AgentFlags;
  cwd: string;
  home: string;
  env: Env;
  settings: LoadedSettings;
  extras: SettingsExtras;
  baseEngine: PermissionEngine;
  modelClient: ConfiguredModelClient;
  agents: readonly AgentDefinition[];
  mainAgent: MainAgent | undefined;
  sandbox: SandboxManager | undefined;
  /** The session's MCP servers, once they exist (agent definitions name them). */
  mcp: () => McpClientManager | undefined;
  warnings: string[];
}

/** The session's built-in tools, selected; and the host sub-agents run on. */
export async function buildSetupTools(
  input: SetupToolsInput,
): Promise<{ selection: ReturnType<typeof selectTools>; agentHost: AgentHost }> {
  const { flags, cwd, home, env, settings, extras, baseEngine, mainAgent, sandbox, warnings } = input;
  const web = readWebSettings(settings);
  warnings.push(...web.warnings);
  const features = readFeatureSettings(settings);
  warnings.push(...features.warnings);
  const lsp = readLspSettings(settings, cwd);
  warnings.push(...lsp.warnings);
  // Agent definitions' own MCP servers and hooks: names refer to this session's servers; a
  // project definition's commands run only in a trusted folder, as project settings hooks do.
  const agentHost: AgentHost = {
    mcp: input.mcp,
    env,
    projectTrusted: settings.trust.trusted,
    hooksAllowed: settings.nonManagedHooksAllowed !== false,
    ...(sandbox ? { sandbox } : {}),
  };
  const agentTypes = mainAgent?.agentTypes;
  const offered = agentTypes ? input.agents.filter((a) => agentTypes.includes(a.agentType)) : input.agents;
  const featureTools = await agentFeatureTools({ env: { ...env, ...extras.env } });
  const everyTool: AnyTool[] = [
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
      modelProvider: input.modelClient.config.provider,
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
  return { selection, agentHost };
}
