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
  /**
   * Deadline of one Bash analysis (ms). Default: `GANTRY_ANALYSIS_DEADLINE_MS`, else the settings
   * key `analysisDeadlineMs`, else 1000 (docs/analysis-budget.md). Past it the call asks.
   */
  analysisDeadlineMs?: number;
  /**
   * The environment the decision reads (`GANTRY_ANALYSIS_DEADLINE_MS`, `GANTRY_TRUST_PROJECT`;
   * default `process.env`). The resident hook server passes the calling client's, so its own
   * start-up environment never applies.
   */
  env?: Readonly<Record<string, string | undefined>>;
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
  /** Deadline of one Bash analysis (ms): the option, the environment, the settings, or 1000. */
  readonly analysisDeadlineMs: number;
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

/** Default deadline of one Bash analysis (ms; the shell room's, not imported here so the hook's Read path stays small). */
const DEFAULT_ANALYSIS_DEADLINE_MS = 1000;

/** A deadline in ms from the first source that sets one, clamped to 10 ms … 120 s (docs/analysis-budget.md). */
function pickDeadline(...sources: (number | string | undefined)[]): number {
  for (const v of sources) {
    if (v === undefined || (typeof v === 'string' && v.trim() === '')) continue;
    const n = Number(v);
    if (!Number.isFinite(n)) continue;
    return Math.min(120_000, Math.max(10, Math.round(n)));
  }
  return DEFAULT_ANALYSIS_DEADLINE_MS;
}

/** Loads settings and builds the engine (see module doc). Never throws on bad settings: problems are in `settings.problems`. */
export function createGuard(opts: GuardOptions): Guard {
  const cwd = path.resolve(opts.cwd);
  const projectRoot = path.resolve(opts.projectRoot ?? cwd);
  // `HOME` first, as os.homedir() itself does: a decision then need not load node:os (docs/startup.md)
  const home = opts.home ?? (process.env.HOME || homedir());
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
    ...(opts.env ? { env: opts.env } : {}),
  });

  /** The explicit option, else the environment variable, else the settings key, else the default. */
  const analysisDeadlineMs = pickDeadline(
    opts.analysisDeadlineMs,
    (opts.env ?? process.env).GANTRY_ANALYSIS_DEADLINE_MS,
    settings.analysisDeadlineMs,
  );

  const describe = async (
    toolName: string,
    input: Record<string, unknown>,
    callCwd = cwd,
  ): Promise<CallDescription> => {
    const world: DescribeWorld = { cwd: callCwd, home, resolver: fsPathResolver, analysisDeadlineMs };
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
    analysisDeadlineMs,
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
