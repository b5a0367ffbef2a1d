/**
 * `createAgent`: the library face for TypeScript hosts (docs/loop.md, "createAgent"). It wires what
 * `query` needs from Gantry's own parts — the model client from flags/env/settings, the built-in
 * tools in a tool pool, the permission engine over the settings files, command hooks from those
 * files, result thresholds from managed settings, the auto-mode classifier — once, and hands out
 * sessions:
 *
 * ```ts
 * const agent = createAgent({ cwd: process.cwd(), model: 'sonnet', permissionMode: 'acceptEdits' });
 * for await (const event of agent.query('Fix the failing test')) console.log(event.type);
 * ```
 *
 * Errors at creation are configuration errors (`ModelConfigError`: an unknown provider, a missing
 * key, a bad base URL), thrown before any session starts. Everything else is a session's `result`.
 */
import { homedir } from 'node:os';
import type { AnyTool } from '../core/index.js';
import type { ModelClient } from '../core/model-client.js';
import { fsPathResolver } from '../core/paths.js';
import type { PermissionMode } from '../core/permission-types.js';
import { createModelClient } from '../model/create-model-client.js';
import { builtinClassifier } from '../permissions/classifier/builtin-scorer.js';
import {
  createModelClassifier,
  type ModelAutoModeClassifier,
} from '../permissions/classifier/model-classifier.js';
import { createPermissionEngine, type PermissionEngine } from '../permissions/engine.js';
import { loadSettings } from '../permissions/settings/load.js';
import type { LoadedSettings } from '../permissions/settings/types.js';
import { assembleToolPool, type ToolPool } from '../runtime/index.js';
import { toolDescriberFor } from '../tools/describers.js';
import { pruneSessionDirs, sessionsRoot } from '../tools/file-io/session-files.js';
import { getAllBaseTools, planFileFor } from '../tools/index.js';
import { createInputQueue } from './input-queue.js';
import { loadMcpToolPool } from './mcp-tool-pool.js';
import { query } from './query.js';
import { readManagedToolLimits } from './thresholds.js';
import { readWebSettings } from './web-settings-files.js';
import { readLspSettings } from './lsp-settings-files.js';
import { defaultGantryHome, latestTranscript } from './transcript/paths.js';
import { resumeSession } from './transcript/reader.js';
import type { InputQueue, Query, QueryOptions, QueryPrompt, ToolResultLimits } from './types.js';

/** Which settings files feed permissions, hooks and thresholds. */
export interface AgentSettingsOptions {
  /** `--settings` files. */
  files?: string[];
  /** `--allowedTools` / `--disallowedTools` rule lists. */
  allowedTools?: string[];
  disallowedTools?: string[];
  /** `--add-dir`. */
  addDirs?: string[];
  /** Managed settings files (default `/etc/gantry/managed-settings.json`, `/etc/claude-code/managed-settings.json`). */
  managedFiles?: string[];
  /** `--setting-sources` (default user, project, local). */
  settingSources?: ('user' | 'project' | 'local')[];
  /** Workspace trust for project settings (see docs: trusted folders). */
  trust?: boolean;
}

export interface CreateAgentOptions
  extends Partial<
    Omit<QueryOptions, 'prompt' | 'modelClient' | 'model' | 'tools' | 'toolPool' | 'cwd' | 'resume'>
  > {
  cwd: string;
  /** Model name or alias (`sonnet`, `claude-…`, an OpenAI-compatible model); default per provider. */
  model?: string;
  /** `anthropic` (default) or `openai`. */
  provider?: string;
  /** A ready client instead of one built from `provider`/`model`/`env`. */
  modelClient?: ModelClient;
  /** Environment for the model configuration and the built-in tools (search keys, feature flags; default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The tools (default: Gantry's built-in tools). Bare deny rules remove tools either way. */
  tools?: readonly AnyTool[];
  settings?: AgentSettingsOptions;
  /** A ready permission engine instead of one built from `settings`. */
  permissionEngine?: PermissionEngine;
  /**
   * The auto-mode classifier: `builtin` (default; local, deterministic) or a fast model
   * (`{model}`, optionally with its own client) asked in two passes, the built-in scorer its
   * fallback.
   */
  autoModeClassifier?: 'builtin' | { model: string; modelClient?: ModelClient };
  /**
   * MCP servers each session connects when it starts and closes when it ends, in the `.mcp.json`
   * entry format: `{name: {command, args?, env?} | {type: 'http' | 'sse', url, headers?}}`, with
   * `${VAR}` expanded from `env`. Their tools join the built-in ones as `mcp__<server>__<tool>`,
   * deferred behind ToolSearch unless `ENABLE_TOOL_SEARCH` (in `env`) says otherwise; a server
   * that fails is reported in `system/init.mcp_servers` and the session goes on.
   * docs/mcp-client.md.
   */
  mcpServers?: Readonly<Record<string, unknown>>;
}

export interface Agent {
  readonly cwd: string;
  readonly model: string;
  readonly modelClient: ModelClient;
  readonly permissionEngine: PermissionEngine;
  /** The loaded settings (problems included) when the agent built its own engine. */
  readonly settings: LoadedSettings | undefined;
  readonly toolResultLimits: ToolResultLimits;
  /** Starts a session with `prompt`; `overrides` change any query option for this session. */
  query(prompt: QueryPrompt, overrides?: Partial<QueryOptions>): Query;
  /** Continues the session whose transcript is `transcriptPath` (`--resume`). */
  resume(transcriptPath: string, prompt: QueryPrompt, overrides?: Partial<QueryOptions>): Query;
  /** Continues the most recent session of this cwd (`--continue`); a new session when there is none. */
  continue(prompt: QueryPrompt, overrides?: Partial<QueryOptions>): Query;
  /** A queue to feed a long-running session (`agent.query(agent.inputQueue())`). */
  inputQueue(): InputQueue;
}

/** Builds an agent (see the module comment). Throws ModelConfigError on a configuration that cannot work. */
export function createAgent(options: CreateAgentOptions): Agent {
  const cwd = options.cwd;
  const home = options.home ?? homedir();
  let modelClient: ModelClient;
  let model: string;
  if (options.modelClient) {
    if (!options.model) throw new TypeError('createAgent: give `model` with `modelClient`');
    modelClient = options.modelClient;
    model = options.model;
  } else {
    const configured = createModelClient({
      flags: {
        ...(options.provider ? { provider: options.provider } : {}),
        ...(options.model ? { model: options.model } : {}),
      },
      ...(options.env ? { env: options.env } : {}),
    });
    modelClient = configured;
    model = configured.model;
  }

  const s = options.settings ?? {};
  let settings: LoadedSettings | undefined;
  let classifier: ModelAutoModeClassifier | undefined;
  if (options.autoModeClassifier && options.autoModeClassifier !== 'builtin') {
    classifier = createModelClassifier({
      modelClient: options.autoModeClassifier.modelClient ?? modelClient,
      model: options.autoModeClassifier.model,
    });
  }
  let engine = options.permissionEngine;
  if (!engine) {
    settings = loadSettings({
      projectRoot: cwd,
      home,
      cli: {
        ...(s.allowedTools ? { allowedTools: s.allowedTools } : {}),
        ...(s.disallowedTools ? { disallowedTools: s.disallowedTools } : {}),
        ...(s.addDirs ? { addDirs: s.addDirs } : {}),
        ...(options.permissionMode ? { permissionMode: options.permissionMode } : {}),
      },
      ...(s.files ? { settingsFiles: s.files } : {}),
      ...(s.managedFiles ? { managedFiles: s.managedFiles } : {}),
      ...(s.settingSources ? { settingSources: s.settingSources } : {}),
      ...(s.trust !== undefined ? { trust: s.trust } : {}),
    });
    engine = createPermissionEngine({
      settings,
      classifier: classifier ?? builtinClassifier,
      // Spilled results live in the session folders (`~/.gantry/sessions/<id>/`): the model may
      // Read them back without asking.
      readableDirectories: [sessionsRoot(home)],
      // The plan-mode tools keep the session's plan in this file; plan mode may write exactly it.
      planFile: (request) => planFileFor(request.sessionId, home),
      describe: async (toolName, input, request) => {
        const describer = toolDescriberFor(toolName);
        if (!describer) throw new Error(`no describer for ${toolName}`);
        return describer.describe(input, { cwd: request.cwd, home, resolver: fsPathResolver });
      },
    });
  }
  const permissionEngine = engine;
  // Old session folders go at start, as `gantry mcp` does (never a live session's; never throws).
  void pruneSessionDirs(sessionsRoot(home));
  const toolResultLimits =
    options.toolResultLimits ??
    readManagedToolLimits({
      ...(s.managedFiles ? { managedFiles: s.managedFiles } : {}),
      projectRoot: cwd,
      home,
    }).limits;
  const permissionMode: PermissionMode = options.permissionMode ?? settings?.defaultMode ?? 'default';

  let builtInTools: Promise<readonly AnyTool[]> | undefined;
  const loadBuiltIn = (): Promise<readonly AnyTool[]> => {
    builtInTools ??= options.tools
      ? Promise.resolve(options.tools)
      : getAllBaseTools({
          modelProvider: modelClient.provider,
          ...(settings ? { web: readWebSettings(settings).web } : {}),
          ...(settings ? { lspServers: readLspSettings(settings, cwd).servers } : {}),
          ...(options.env ? { env: options.env } : {}),
        });
    return builtInTools;
  };
  let pool: Promise<ToolPool> | undefined;
  const plainToolPool = (): Promise<ToolPool> => {
    pool ??= (async () =>
      assembleToolPool({
        builtIn: await loadBuiltIn(),
        isDenied: (name) => permissionEngine.isToolDenied(name),
      }))();
    return pool;
  };
  const mcpServers = options.mcpServers;
  const loadToolPool: QueryOptions['loadToolPool'] =
    mcpServers && Object.keys(mcpServers).length
      ? (session) =>
          loadMcpToolPool({
            servers: mcpServers,
            builtIn: loadBuiltIn,
            cwd,
            additionalDirectories: s.addDirs ?? [],
            env: options.env ?? process.env,
            sessionDir: session.sessionDir,
            model,
            provider: modelClient.provider,
            isDenied: (name) => permissionEngine.isToolDenied(name),
          })
      : plainToolPool;

  const {
    cwd: _cwd,
    model: _model,
    provider: _provider,
    modelClient: _client,
    env: _env,
    tools: _tools,
    settings: _settings,
    permissionEngine: _engine,
    autoModeClassifier: _classifier,
    mcpServers: _mcpServers,
    ...queryDefaults
  } = options;

  const start = (prompt: QueryPrompt, overrides: Partial<QueryOptions> = {}): Query =>
    query({
      ...queryDefaults,
      prompt,
      modelClient,
      model,
      cwd,
      home,
      permissionMode,
      permissionEngine,
      toolResultLimits,
      loadToolPool,
      // The same file the engine lets plan mode write (see its `planFile` above).
      planFile: (sessionId: string) => planFileFor(sessionId, home),
      ...(settings && Object.keys(settings.eventHooks).length ? { settingsHooks: settings.eventHooks } : {}),
      ...(classifier ? { transcriptConsumers: [...(options.transcriptConsumers ?? []), classifier] } : {}),
      ...overrides,
    });

  const gantryHome = options.transcript?.gantryHome ?? defaultGantryHome(home);
  return {
    cwd,
    model,
    modelClient,
    permissionEngine,
    settings,
    toolResultLimits,
    query: start,
    resume: (transcriptPath, prompt, overrides) =>
      start(prompt, { ...overrides, resume: resumeSession(transcriptPath) }),
    continue: (prompt, overrides) => {
      const last = latestTranscript(gantryHome, cwd);
      return last ? start(prompt, { ...overrides, resume: resumeSession(last) }) : start(prompt, overrides);
    },
    inputQueue: createInputQueue,
  };
}
