/**
 * The guard: what `gantry check`, `gantry hook` and `gantry replay` share. It loads the settings
 * Claude Code would load for a project (plus Gantry's own files), builds the permission engine, and
 * decides tool calls given by name and input — including calls of tools Gantry does not run itself
 * (a host's TodoWrite, WebFetch, MCP tools).
 *
 * Descriptions come from the tools' own describers (`src/tools/describers.ts`: the functions each
 * tool's `describeCall` uses), and for host tools Gantry has no tool for, from their traits
 * (`describeToolInput`). A decision never loads a tool's runtime dependencies (images, PDFs), and
 * the shell parser is loaded only when a Bash call needs it. The request is built by
 * `buildPermissionRequest`, as the runtime builds it.
 */
import { homedir } from 'node:os';
import path from 'node:path';
import type { DescribeWorld, ToolDescriberEntry } from '../../core/call-describer.js';
import type { CallDescription, PermissionMode } from '../../core/index.js';
import { fsPathResolver } from '../../core/paths.js';
import { buildPermissionRequest } from '../../core/permission-request.js';
import { hostToolDescriber } from '../../permissions/describe-input.js';
import {
  createPermissionEngine,
  type DetailedDecision,
  type LoadedSettings,
  loadSettings,
  type PermissionEngine,
} from '../../permissions/index.js';
import { toolDescriberFor } from '../../tools/describers.js';

export interface GuardOptions {
  /** Working directory of the calls (absolute or relative to process.cwd()). */
  cwd: string;
  /** Project root (default: cwd). */
  projectRoot?: string;
  /** Extra settings files (`--settings`), highest precedence after managed. */
  settingsFiles?: string[];
  /** `--permission-mode` (overrides settings' defaultMode). */
  mode?: string;
  /** `--add-dir` directories. */
  addDirs?: string[];
  allowedTools?: string[];
  disallowedTools?: string[];
  home?: string;
  /** Explicit workspace trust (`--trust`). */
  trust?: boolean;
  /** Managed settings files (tests point these at temp files). */
  managedFiles?: string[];
  /** Read user/project/local settings (default: all three). */
  settingSources?: ('user' | 'project' | 'local')[];
  /** transcript_path handed to PreToolUse hooks. */
  transcriptPath?: string;
  /** Directories readable without asking (a runtime's session directory of spilled results). */
  readableDirectories?: string[];
}

export interface GuardCheck {
  toolName: string;
  input: Record<string, unknown>;
  description: CallDescription;
  detailed: DetailedDecision;
}

export interface Guard {
  readonly settings: LoadedSettings;
  readonly engine: PermissionEngine;
  readonly projectRoot: string;
  /** The mode in force when a call does not name one. */
  readonly mode: PermissionMode;
  /** Describes one call (loads the shell parser on the first Bash call). */
  describe(toolName: string, input: Record<string, unknown>, cwd?: string): Promise<CallDescription>;
  /** Describes and decides one call. `hooks` (default false) runs the PreToolUse hooks from settings. */
  check(
    toolName: string,
    input: Record<string, unknown>,
    opts?: { cwd?: string; mode?: PermissionMode; hooks?: boolean; toolUseId?: string; sessionId?: string },
  ): Promise<GuardCheck>;
}

/** Gantry's describer for the tool, or the host describer from its traits (never undefined). */
export function describerFor(toolName: string): ToolDescriberEntry {
  return toolDescriberFor(toolName) ?? hostToolDescriber(toolName);
}

/**
 * Errors in the settings files the user named explicitly (`--settings`): a missing or unparsable
 * file there would silently drop its rules, so commands refuse to decide without it.
 */
export function explicitSettingsErrors(settings: LoadedSettings, files: readonly string[] | undefined) {
  const named = new Set((files ?? []).map((f) => path.resolve(f)));
  return settings.problems.filter((p) => p.severity === 'error' && p.file !== undefined && named.has(p.file));
}

/** Loads settings and builds the engine (see module doc). Never throws on bad settings: problems are in `settings.problems`. */
export function createGuard(opts: GuardOptions): Guard {
  const cwd = path.resolve(opts.cwd);
  const projectRoot = path.resolve(opts.projectRoot ?? cwd);
  const home = opts.home ?? homedir();
  const settings = loadSettings({
    projectRoot,
    home,
    cli: {
      ...(opts.allowedTools ? { allowedTools: opts.allowedTools } : {}),
      ...(opts.disallowedTools ? { disallowedTools: opts.disallowedTools } : {}),
      ...(opts.mode ? { permissionMode: opts.mode } : {}),
      ...(opts.addDirs ? { addDirs: opts.addDirs.map((d) => path.resolve(cwd, d)) } : {}),
    },
    ...(opts.settingsFiles ? { settingsFiles: opts.settingsFiles.map((f) => path.resolve(f)) } : {}),
    ...(opts.managedFiles ? { managedFiles: opts.managedFiles } : {}),
    ...(opts.settingSources ? { settingSources: opts.settingSources } : {}),
    ...(opts.trust !== undefined ? { trust: opts.trust } : {}),
  });

  const describe = async (
    toolName: string,
    input: Record<string, unknown>,
    callCwd = cwd,
  ): Promise<CallDescription> => {
    const world: DescribeWorld = { cwd: callCwd, home, resolver: fsPathResolver };
    return describerFor(toolName).describe(input, world);
  };

  const engine = createPermissionEngine({
    settings,
    describe: (toolName, input, request) => describe(toolName, input, request.cwd),
    ...(opts.transcriptPath ? { transcriptPath: opts.transcriptPath } : {}),
    ...(opts.readableDirectories ? { readableDirectories: opts.readableDirectories } : {}),
  });

  return {
    settings,
    engine,
    projectRoot,
    mode: settings.defaultMode,
    describe,
    async check(toolName, input, o = {}) {
      const callCwd = path.resolve(o.cwd ?? cwd);
      const description = await describe(toolName, input, callCwd);
      const request = buildPermissionRequest({
        tool: describerFor(toolName),
        toolName,
        input,
        description,
        toolUseId: o.toolUseId ?? 'toolu_gantry_cli',
        session: {
          cwd: callCwd,
          projectRoot,
          additionalDirectories: [],
          permissionMode: o.mode ?? settings.defaultMode,
          sessionId: o.sessionId ?? 'gantry-cli',
        },
      });
      const detailed = o.hooks
        ? await engine.decideDetailed(request)
        : await engine.decideDetailed(request, { skipHooks: true });
      return { toolName, input, description, detailed };
    },
  };
}
