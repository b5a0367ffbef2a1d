/**
 * Collecting the MCP servers of a session (docs/mcp-client.md "Configuration").
 *
 * Sources, lowest precedence first; a server defined in several places is taken whole from the
 * highest one (entries are never merged field by field):
 *
 *   user     `~/.claude.json` → `mcpServers`; `~/.gantry/mcp.json` → `mcpServers`;
 *            user settings files → `mcpServers`
 *   project  `<project>/.mcp.json` → `mcpServers`; project settings files → `mcpServers`
 *   local    `~/.claude.json` → `projects["<project>"].mcpServers`; the same in `~/.gantry/mcp.json`;
 *            local settings files → `mcpServers`
 *   dynamic  `--mcp-config` values (files or JSON strings, later ones winning); `--settings` files
 *   managed  managed settings files → `mcpServers`
 *
 * At one level Gantry's file wins over Claude Code's. `--strict-mcp-config` keeps only the
 * `--mcp-config` servers. Claude Code's files are only read.
 *
 * Project servers (`.mcp.json` and project settings) need approval in interactive sessions:
 * `enableAllProjectMcpServers` / `enabledMcpjsonServers` approve, `disabledMcpjsonServers` turns a
 * server off, and otherwise the remembered answer (store/project-approvals.ts) decides, or the
 * server waits for the host to ask (`pendingApproval`). Settings that *enable* project servers are
 * read from user, local, `--settings` and managed files, and from project settings only when the
 * folder is trusted: a repository cannot approve its own servers. In print mode (`interactive:
 * false`) project servers are used unless disabled, as Claude Code's `-p` does.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RuleSource } from '../../../core/permission-types.js';
import type { ProjectApprovalStore } from '../store/project-approvals.js';
import { isObject, readJsonFile } from '../store/json-file.js';
import { parseServerEntry } from './parse-entry.js';
import type { McpConfigProblem, McpConfigScope, McpServerConfig } from './types.js';

/** A settings file the permission loader looked at (`LoadedSettings.files`), highest precedence first. */
export interface SettingsFileRef {
  file: string;
  source: RuleSource;
  loaded: boolean;
}

export interface LoadMcpConfigOptions {
  projectRoot: string;
  home: string;
  /** Gantry's home (default `<home>/.gantry`). */
  gantryHome?: string;
  /** Variables for `${VAR}` expansion (normally `process.env` merged with settings `env`). */
  env: Readonly<Record<string, string | undefined>>;
  /** `--mcp-config` values: paths of JSON files or JSON strings, in the order given. */
  mcpConfig?: readonly string[];
  /** `--strict-mcp-config`: use only the `--mcp-config` servers. */
  strictMcpConfig?: boolean;
  /** Directory `--mcp-config` paths are relative to (default `projectRoot`). */
  cwd?: string;
  /** The settings files, highest precedence first. */
  settingsFiles?: readonly SettingsFileRef[];
  /** Whether project settings may widen what the session does (permissions' trust decision). */
  trusted?: boolean;
  /** Interactive session: project servers need approval. Print mode: false. */
  interactive: boolean;
  /** Remembered approvals (interactive sessions). */
  approvals?: ProjectApprovalStore;
}

export interface DisabledServer {
  config: McpServerConfig;
  reason: string;
}

export interface McpConfiguration {
  /** Servers to connect, by name (sorted). */
  servers: McpServerConfig[];
  /** Project servers waiting for the user's approval (interactive sessions). */
  pendingApproval: McpServerConfig[];
  /** Project servers turned off (rejected, or in `disabledMcpjsonServers`). */
  disabled: DisabledServer[];
  problems: McpConfigProblem[];
  /** The raw entries of project servers as written (for approval hashing), by server name. */
  rawProjectEntries: ReadonlyMap<string, unknown>;
}

interface Layer {
  scope: McpConfigScope;
  file: string;
  baseDir: string;
  servers: Record<string, unknown>;
}

const SCOPE_RANK: Record<McpConfigScope, number> = {
  user: 0,
  project: 1,
  local: 2,
  dynamic: 3,
  managed: 4,
  sdk: 5,
};

const SETTINGS_SCOPE: Partial<Record<RuleSource, McpConfigScope>> = {
  userSettings: 'user',
  projectSettings: 'project',
  localSettings: 'local',
  cliArg: 'dynamic',
  managed: 'managed',
};

function serversOf(value: unknown): Record<string, unknown> | undefined {
  return isObject(value) && isObject(value.mcpServers) ? value.mcpServers : undefined;
}

/** Reads a file's JSON; reports a file that exists and does not parse. */
function readConfigFile(file: string, problems: McpConfigProblem[]): unknown {
  const { value, error } = readJsonFile(file);
  if (error) problems.push({ severity: 'error', message: `MCP configuration not read: ${error}`, file });
  return value;
}

/** One `--mcp-config` value: a JSON string (starts with `{`) or a file path. */
function readDynamic(value: string, cwd: string, problems: McpConfigProblem[]): Layer | undefined {
  const trimmed = value.trim();
  if (trimmed.startsWith('{')) {
    try {
      const servers = serversOf(JSON.parse(trimmed));
      if (servers) return { scope: 'dynamic', file: '<--mcp-config>', baseDir: cwd, servers };
      problems.push({
        severity: 'error',
        message: '--mcp-config JSON has no "mcpServers" object',
        file: '<--mcp-config>',
      });
    } catch (e) {
      problems.push({
        severity: 'error',
        message: `--mcp-config is not valid JSON: ${(e as Error).message}`,
        file: '<--mcp-config>',
      });
    }
    return undefined;
  }
  const file = path.resolve(cwd, trimmed);
  if (!existsSync(file)) {
    problems.push({ severity: 'error', message: `--mcp-config file not found: ${file}`, file });
    return undefined;
  }
  const servers = serversOf(readConfigFile(file, problems));
  if (servers) return { scope: 'dynamic', file, baseDir: path.dirname(file), servers };
  problems.push({
    severity: 'error',
    message: `--mcp-config file has no "mcpServers" object: ${file}`,
    file,
  });
  return undefined;
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Loads the configuration (see the module comment). Never throws; problems are reported. */
export function loadMcpConfiguration(options: LoadMcpConfigOptions): McpConfiguration {
  const problems: McpConfigProblem[] = [];
  const root = options.projectRoot;
  const gantryHome = options.gantryHome ?? path.join(options.home, '.gantry');
  const cwd = options.cwd ?? root;
  const layers: Layer[] = [];
  const settings = [...(options.settingsFiles ?? [])].filter((f) => f.loaded).reverse(); // lowest first
  const settingsJson = new Map<string, unknown>();
  for (const f of settings) {
    try {
      settingsJson.set(f.file, JSON.parse(readFileSync(f.file, 'utf8')) as unknown);
    } catch {
      // The permission loader already reported a settings file that does not parse.
    }
  }

  if (!options.strictMcpConfig) {
    const claudeJsonFile = path.join(options.home, '.claude.json');
    const gantryJsonFile = path.join(gantryHome, 'mcp.json');
    const claudeJson = readConfigFile(claudeJsonFile, problems);
    const gantryJson = readConfigFile(gantryJsonFile, problems);
    const localOf = (v: unknown): Record<string, unknown> | undefined => {
      if (!isObject(v) || !isObject(v.projects) || !Object.hasOwn(v.projects, root)) return undefined;
      return serversOf(v.projects[root]);
    };
    const push = (
      scope: McpConfigScope,
      file: string,
      baseDir: string,
      servers: Record<string, unknown> | undefined,
    ): void => {
      if (servers) layers.push({ scope, file, baseDir, servers });
    };
    const settingsLayers = (scope: McpConfigScope): void => {
      for (const f of settings)
        if (SETTINGS_SCOPE[f.source] === scope)
          push(scope, f.file, path.dirname(f.file), serversOf(settingsJson.get(f.file)));
    };
    push('user', claudeJsonFile, options.home, serversOf(claudeJson));
    push('user', gantryJsonFile, options.home, serversOf(gantryJson));
    settingsLayers('user');
    const mcpJsonFile = path.join(root, '.mcp.json');
    push('project', mcpJsonFile, root, serversOf(readConfigFile(mcpJsonFile, problems)));
    settingsLayers('project');
    push('local', claudeJsonFile, root, localOf(claudeJson));
    push('local', gantryJsonFile, root, localOf(gantryJson));
    settingsLayers('local');
    settingsLayers('dynamic');
  }
  for (const value of options.mcpConfig ?? []) {
    const layer = readDynamic(value, cwd, problems);
    if (layer) layers.push(layer);
  }
  if (!options.strictMcpConfig) {
    for (const f of settings)
      if (SETTINGS_SCOPE[f.source] === 'managed') {
        const servers = serversOf(settingsJson.get(f.file));
        if (servers) layers.push({ scope: 'managed', file: f.file, baseDir: path.dirname(f.file), servers });
      }
  }

  // Highest layer wins per name: layers are in ascending precedence, so later overwrite earlier.
  const chosen = new Map<string, { layer: Layer; raw: unknown }>();
  layers.sort((a, b) => SCOPE_RANK[a.scope] - SCOPE_RANK[b.scope]);
  for (const layer of layers)
    for (const [name, raw] of Object.entries(layer.servers)) chosen.set(name, { layer, raw });

  // Project-server approval keys.
  let enableAll = false;
  const enabled = new Set<string>();
  const disabledNames = new Set<string>();
  for (const f of settings) {
    const json = settingsJson.get(f.file);
    if (!isObject(json)) continue;
    for (const n of stringList(json.disabledMcpjsonServers)) disabledNames.add(n);
    const mayEnable = f.source !== 'projectSettings' || options.trusted === true;
    if (!mayEnable) {
      if (json.enableAllProjectMcpServers === true || stringList(json.enabledMcpjsonServers).length)
        problems.push({
          severity: 'warning',
          message: 'untrusted folder: project settings cannot approve their own MCP servers; ignored',
          file: f.file,
        });
      continue;
    }
    if (json.enableAllProjectMcpServers === true) enableAll = true;
    for (const n of stringList(json.enabledMcpjsonServers)) enabled.add(n);
  }

  const servers: McpServerConfig[] = [];
  const pendingApproval: McpServerConfig[] = [];
  const disabled: DisabledServer[] = [];
  const rawProjectEntries = new Map<string, unknown>();
  for (const name of [...chosen.keys()].sort()) {
    const { layer, raw } = chosen.get(name) as { layer: Layer; raw: unknown };
    const parsed = parseServerEntry(name, raw, {
      file: layer.file,
      env: options.env,
      baseDir: layer.baseDir,
    });
    problems.push(...parsed.problems);
    if (!parsed.entry) continue;
    const config: McpServerConfig = { name, scope: layer.scope, file: layer.file, entry: parsed.entry };
    if (layer.scope !== 'project') {
      servers.push(config);
      continue;
    }
    rawProjectEntries.set(name, raw);
    if (disabledNames.has(name)) {
      disabled.push({ config, reason: 'listed in disabledMcpjsonServers' });
      continue;
    }
    if (!options.interactive || enableAll || enabled.has(name)) {
      servers.push(config);
      continue;
    }
    const remembered = options.approvals?.get(root, name, raw);
    if (remembered === 'approved') servers.push(config);
    else if (remembered === 'rejected') disabled.push({ config, reason: 'rejected by the user' });
    else pendingApproval.push(config);
  }
  return { servers, pendingApproval, disabled, problems, rawProjectEntries };
}
