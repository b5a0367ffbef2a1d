/**
 * Wiring the MCP client into a session (what `gantry -p`, interactive `gantry`, `gantry mcp list`
 * and library hosts call): load the configuration from the settings files the permission loader
 * read and from `--mcp-config`, create the manager (sandbox, approval pins, elicitation, roots),
 * and register it with the session's services so it closes with the session.
 *
 * Settings keys read here besides `mcpServers` and the project-approval keys (config/load.ts):
 * `sandbox.excludedMcpServers` (a Gantry key: names of stdio servers the user lets run outside
 * the sandbox). Like every key that widens what runs, it is read from user, local, `--settings`
 * and managed files, and from project settings only when the folder is trusted.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SessionServicesHandle } from '../../runtime/session-services.js';
import {
  type LoadMcpConfigOptions,
  loadMcpConfiguration,
  type McpConfiguration,
  type SettingsFileRef,
} from './config/load.js';
import type { McpConfigProblem } from './config/types.js';
import type { ElicitationHandler } from './connection/connection.js';
import type { StdioSandbox } from './connection/transports.js';
import { createMcpClientManager, type McpClientManager } from './manager.js';
import { ApprovalPins } from './security/pins.js';
import { isObject } from './store/json-file.js';
import { projectApprovalStore } from './store/project-approvals.js';

export interface McpSessionOptions {
  projectRoot: string;
  /** Directory `--mcp-config` paths are relative to (default `projectRoot`). */
  cwd?: string;
  home: string;
  /** Default `<home>/.gantry`. */
  gantryHome?: string;
  env: Readonly<Record<string, string | undefined>>;
  mcpConfig?: readonly string[];
  strictMcpConfig?: boolean;
  /** `LoadedSettings.files` and `LoadedSettings.trust.trusted`. */
  settingsFiles?: readonly SettingsFileRef[];
  trusted?: boolean;
  /** Interactive sessions ask before using project servers. */
  interactive: boolean;
  sessionDir: string;
  services?: SessionServicesHandle;
  /** The session's OS sandbox when settings enable it: stdio servers run in it. */
  sandbox?: StdioSandbox;
  elicit?: ElicitationHandler;
  /** The working directories (roots). Default `[projectRoot]`. */
  roots?: () => readonly string[];
  clientInfo?: { name: string; version: string };
  /** Record and check approval pins (default on, under `gantryHome`). */
  pins?: boolean;
  /** Mark MCP output as untrusted (default true). */
  markUntrusted?: boolean;
}

export interface McpSession {
  manager: McpClientManager;
  configuration: McpConfiguration;
  pins: ApprovalPins | undefined;
  problems: McpConfigProblem[];
  /**
   * Records the person's answer for a project server waiting for approval (interactive sessions):
   * remembered in `~/.gantry/mcp-project-approvals.json` for this entry as written (a changed entry
   * is asked again), then the server connects (approved) or is disabled. Resolves once an approved
   * server connected or failed; rejects only when the answer could not be remembered (the server is
   * still connected or disabled as answered).
   */
  answerApproval(name: string, approved: boolean): Promise<void>;
}

/** `sandbox.excludedMcpServers` from the settings files (see the module comment). */
export function readExcludedMcpServers(files: readonly SettingsFileRef[], trusted: boolean): string[] {
  const out = new Set<string>();
  for (const f of files) {
    if (!f.loaded) continue;
    if ((f.source === 'projectSettings' || f.source === 'localSettings') && !trusted) continue;
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(f.file, 'utf8'));
    } catch {
      continue;
    }
    if (!isObject(json) || !isObject(json.sandbox)) continue;
    const list = json.sandbox.excludedMcpServers;
    if (Array.isArray(list)) for (const n of list) if (typeof n === 'string') out.add(n);
  }
  return [...out];
}

/** Loads the configuration and creates the manager (not started: call `manager.start()`). */
export function setupMcpSession(options: McpSessionOptions): McpSession {
  const gantryHome = options.gantryHome ?? path.join(options.home, '.gantry');
  const approvals = options.interactive ? projectApprovalStore(gantryHome) : undefined;
  const loadOptions: LoadMcpConfigOptions = {
    projectRoot: options.projectRoot,
    home: options.home,
    gantryHome,
    env: options.env,
    interactive: options.interactive,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.mcpConfig ? { mcpConfig: options.mcpConfig } : {}),
    ...(options.strictMcpConfig ? { strictMcpConfig: true } : {}),
    ...(options.settingsFiles ? { settingsFiles: options.settingsFiles } : {}),
    ...(options.trusted !== undefined ? { trusted: options.trusted } : {}),
    ...(approvals ? { approvals } : {}),
  };
  const configuration = loadMcpConfiguration(loadOptions);
  const pins = options.pins === false ? undefined : new ApprovalPins(gantryHome);
  const manager = createMcpClientManager({
    configuration,
    sessionDir: options.sessionDir,
    projectRoot: options.projectRoot,
    env: options.env,
    ...(options.roots ? { roots: options.roots } : {}),
    ...(options.elicit ? { elicit: options.elicit } : {}),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    unsandboxedServers: readExcludedMcpServers(options.settingsFiles ?? [], options.trusted === true),
    ...(pins ? { pins } : {}),
    ...(options.markUntrusted === false ? { markUntrusted: false } : {}),
    ...(options.clientInfo ? { clientInfo: options.clientInfo } : {}),
    ...(options.services ? { services: options.services } : {}),
  });
  const answerApproval = async (name: string, approved: boolean): Promise<void> => {
    const raw = configuration.rawProjectEntries.get(name);
    let failure: unknown;
    if (approvals && raw !== undefined) {
      try {
        approvals.set(options.projectRoot, name, raw, approved ? 'approved' : 'rejected');
      } catch (error) {
        failure = error;
      }
    }
    await manager.answerApproval(name, approved);
    if (failure) throw failure;
  };
  return { manager, configuration, pins, problems: configuration.problems, answerApproval };
}
