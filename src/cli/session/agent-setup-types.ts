/**
 * The types of the agent set-up (agent-setup.ts builds it): the face-independent flags a face
 * passes in, the `AgentSetup` it gets back, and `AgentSetupError`, whose message says what to fix.
 */
import type { ThinkingRequest } from '../../core/model-client.js';
import type { PermissionMode } from '../../core/permission-types.js';
import type { SubagentRunner } from '../../core/services.js';
import type { AnyTool } from '../../core/tool.js';
import type { HookCommandConfig, ToolResultLimits } from '../../loop/types.js';
import type { ElicitationHandler } from '../../mcp/client/connection/connection.js';
import type { McpClientManager } from '../../mcp/client/manager.js';
import type { LoopToolPool } from '../../mcp/tool-search/session-pool.js';
import type { ConfiguredModelClient } from '../../model/create-model-client.js';
import type { LoadedSettings, PermissionEngine } from '../../permissions/index.js';
import type { ToolPool } from '../../runtime/index.js';

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
