/**
 * The built-in tool registry: adding a tool touches its own folder and one line in the tool list.
 *
 * - `getAllBaseTools()` is ONE explicit list of the leaf tools. Always-on tools are imported
 *   statically; conditional tools sit behind a named feature flag and are loaded by dynamic
 *   `import()` only when the flag is on, so a disabled tool's module is never even evaluated.
 * - What a session's model sees is assembled above the registry (`assembleToolPool` in
 *   `runtime/`: these tools plus MCP tools, the Agent tool and tool search, `isEnabled()`, the one
 *   deny filter, a fixed order). `getTools()` is the registry's part of it: the enabled built-ins.
 * - A feature is on when `GANTRY_FEATURE_<NAME>=1` (or `true`) is set, or the config says so
 *   (`{ features: { SLEEP: true } }`); config wins over env when both are given.
 */
import type { AnyTool } from '../core/index.js';
import type { WebSettings } from '../core/web-settings.js';
import type { LspServerConfig } from './lsp/config.js';
import { BashTool, createBashTool } from './bash/bash.tool.js';
import type { BashSandbox } from './bash/spawn-spec.js';
import { GlobTool } from './glob/glob.tool.js';
import { GrepTool } from './grep/grep.tool.js';
import { EditTool } from './edit/edit.tool.js';
import { NotebookEditTool } from './notebook-edit/notebook-edit.tool.js';
import { ReadTool } from './read/read.tool.js';
import { TaskOutputTool } from './tasks/task-output.tool.js';
import { TaskStopTool } from './tasks/task-stop.tool.js';
import { createWebFetchTool, WebFetchTool } from './web-fetch/web-fetch.tool.js';
import { createWebSearchTool, WebSearchTool } from './web-search/web-search.tool.js';
import { WriteTool } from './write/write.tool.js';
import { AskUserQuestionTool } from './ask-user-question/ask-user-question.tool.js';
import { EnterPlanModeTool } from './plan-mode/enter-plan-mode.tool.js';
import { ExitPlanModeTool } from './plan-mode/exit-plan-mode.tool.js';
import { TaskCreateTool } from './task-list/task-create.tool.js';
import { TaskGetTool } from './task-list/task-get.tool.js';
import { TaskListTool } from './task-list/task-list.tool.js';
import { TaskUpdateTool } from './task-list/task-update.tool.js';
import { TodoWriteTool } from './todo-write/todo-write.tool.js';
import { createSkillTool, type SkillToolOptions } from './skill/skill.tool.js';
import { taskToolsEnabled } from './task-list/availability.js';

// `gantry/tools`: the tools one by one (for hosts that assemble their own list), the structured
// output (`data`) of each, and the helpers a tool author describes calls with.
export {
  BashAbortError,
  BashCommandError,
  type BashOutput,
  type BashProgress,
  type BashSandbox,
  BashTool,
  type BashToolOptions,
  createBashTool,
  type SpawnSpec,
} from './bash/index.js';
export { stopAllProcessGroups } from './bash/exec.js';
export { type EditInput, type EditOutput, EditTool } from './edit/edit.tool.js';
// Session files (spilled results, task output) and their retention (docs/reliability.md).
export {
  enforceSessionCap,
  pruneSessionDirs,
  sessionDirFor,
  sessionLimits,
  sessionsRoot,
} from './file-io/session-files.js';
export {
  createGlobTool,
  type GlobInput,
  type GlobOutput,
  GlobTool,
  type GlobToolOptions,
} from './glob/glob.tool.js';
export type { GrepOutput } from './grep/grep-output.js';
export { createGrepTool, type GrepInput, GrepTool, type GrepToolOptions } from './grep/grep.tool.js';
export {
  type NotebookEditInput,
  type NotebookEditOutput,
  NotebookEditTool,
} from './notebook-edit/notebook-edit.tool.js';
export { type ReadInput, type ReadOutput, ReadTool } from './read/read.tool.js';
export { formatTaskNotification, taskEndSummary } from './tasks/task-manager.js';
export { type TaskOutputData, TaskOutputTool } from './tasks/task-output.tool.js';
export { type TaskStopData, TaskStopTool } from './tasks/task-stop.tool.js';
export { type WriteInput, type WriteOutput, WriteTool } from './write/write.tool.js';
export {
  createWebFetchTool,
  type WebFetchInput,
  type WebFetchOutput,
  WebFetchTool,
  type WebFetchToolOptions,
} from './web-fetch/web-fetch.tool.js';
export {
  type ProviderCheck,
  type WebSearchConfig,
  type WebSearchDiagnostics,
  webSearchDiagnostics,
} from './web-search/select-provider.js';
export type { SearchHit, SearchHitGroup, SearchResultEntry } from './web-search/types.js';
export {
  createWebSearchTool,
  type WebSearchInput,
  type WebSearchOutput,
  WebSearchTool,
  type WebSearchToolOptions,
} from './web-search/web-search.tool.js';
export type { WebFetchSettings, WebSearchSettings, WebSettings } from '../core/web-settings.js';
export {
  type AskUserQuestionInput,
  type AskUserQuestionOutput,
  AskUserQuestionTool,
} from './ask-user-question/ask-user-question.tool.js';
export { type EnterPlanModeOutput, EnterPlanModeTool } from './plan-mode/enter-plan-mode.tool.js';
export { type ExitPlanModeOutput, ExitPlanModeTool } from './plan-mode/exit-plan-mode.tool.js';
export { type PlansDirectorySetting, planFileFor, plansDirectory } from './plan-mode/plan-file.js';
export { type TaskCreateOutput, TaskCreateTool } from './task-list/task-create.tool.js';
export { type TaskGetOutput, TaskGetTool } from './task-list/task-get.tool.js';
export { type TaskListOutput, TaskListTool } from './task-list/task-list.tool.js';
export { type TaskUpdateOutput, TaskUpdateTool } from './task-list/task-update.tool.js';
export { taskToolsEnabled } from './task-list/availability.js';
export { type TodoWriteOutput, TodoWriteTool } from './todo-write/todo-write.tool.js';
export {
  createSkillTool,
  type SkillInput,
  type SkillOutput,
  type SkillToolOptions,
} from './skill/skill.tool.js';
export { discoverSkills, type Skill, type SkillCatalog, type SkillProblem } from './skill/discovery.js';
export { SUBAGENT_EXCLUDED_TOOLS, subagentMayUse } from './subagent-tools.js';
export {
  type Effect,
  type EffectKind,
  isMutatingEffect,
  knownEffect,
  unknownEffect,
} from '../core/effects.js';
export {
  displayPath,
  expandPath,
  fsPathResolver,
  isPathInside,
  mapPathResolver,
  type PathResolver,
  resolvePath,
} from '../core/paths.js';
export { ReadFileState } from '../core/read-file-state.js';
export { findToolByName } from '../core/tool.js';
export { canonicalToolName, type RuleKind, type ToolTraits, traitsOf } from '../core/tool-traits.js';

/** Named feature flags guarding conditional tools. */
export const FEATURE_FLAGS = [
  'SLEEP',
  'MONITOR',
  'WAKEUP',
  'CRON',
  'WORKTREE',
  'BROWSER',
  'SEND_MESSAGE',
  'TEAMS',
  'LSP',
] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

/** Registry configuration: explicit feature switches (override the environment). */
export interface ToolRegistryConfig {
  features?: Partial<Record<FeatureFlag, boolean>>;
  /** Environment to read `GANTRY_FEATURE_<NAME>` from (default `process.env`). */
  env?: Record<string, string | undefined>;
  /**
   * The OS sandbox for Bash commands (a `SandboxManager` from `src/sandbox/` when settings enable
   * it). Given → the list holds a Bash tool built with it; absent → the unsandboxed `BashTool`.
   */
  bashSandbox?: BashSandbox;
  /**
   * The merged `webFetch` / `webSearch` settings (core/web-settings.ts). Given → WebFetch and
   * WebSearch are built with them; absent → the tools with no allowances, configured from the
   * environment.
   */
  web?: Partial<WebSettings>;
  /**
   * The session's model provider (`anthropic`, `openai`): WebSearch uses Anthropic's server-side
   * search only on `anthropic`. Absent → judged from the environment.
   */
  modelProvider?: string;
  /**
   * Where the Skill tool finds project skills (`<projectRoot>/.gantry/skills`, `.claude/skills`;
   * default `process.cwd()`) and the home for user skills (default the OS home).
   */
  skills?: SkillToolOptions;
  /** The language servers of the LSP tool (settings `lspServers`, checked by `parseLspServers`). */
  lspServers?: readonly LspServerConfig[];
  /**
   * Tool names the user named explicitly (`--tools`, `--allowedTools`): a named `TodoWrite` is
   * offered beside the Task tools (Claude Code documentation, "Tools reference": naming a to-do
   * tool opts in to it).
   */
  named?: readonly string[];
}

/** True when feature `name` is on: config first, then env `GANTRY_FEATURE_<NAME>` ∈ {`1`, `true`}. */
export function feature(name: FeatureFlag, config: ToolRegistryConfig = {}): boolean {
  const configured = config.features?.[name];
  if (configured !== undefined) return configured;
  const raw = (config.env ?? process.env)[`GANTRY_FEATURE_${name}`];
  return raw === '1' || raw === 'true';
}

/**
 * Every built-in tool available under `config`'s feature flags, in the order the model sees them.
 * Not filtered by `isEnabled` or deny rules (see `getTools`). Each call returns a new array of the
 * same tool objects (tools are module singletons).
 */
export async function getAllBaseTools(config: ToolRegistryConfig = {}): Promise<AnyTool[]> {
  return [
    // Always on: one line per tool (import it statically above).
    GlobTool,
    GrepTool,
    ReadTool,
    EditTool,
    WriteTool,
    NotebookEditTool,
    config.bashSandbox ? createBashTool({ sandbox: config.bashSandbox }) : BashTool,
    TaskOutputTool,
    TaskStopTool,
    config.web ? createWebFetchTool({ settings: config.web.webFetch ?? {} }) : WebFetchTool,
    config.web || config.modelProvider || config.env
      ? createWebSearchTool({
          settings: config.web?.webSearch ?? {},
          ...(config.env ? { env: config.env } : {}),
          ...(config.modelProvider ? { modelProvider: config.modelProvider } : {}),
        })
      : WebSearchTool,
    // The to-do list: the Task tools by default, TodoWrite instead when they are switched off.
    ...(taskToolsEnabled(config.env)
      ? [
          TaskCreateTool,
          TaskGetTool,
          TaskUpdateTool,
          TaskListTool,
          ...(config.named?.includes(TodoWriteTool.name) ? [TodoWriteTool] : []),
        ]
      : [TodoWriteTool]),
    AskUserQuestionTool,
    EnterPlanModeTool,
    ExitPlanModeTool,
    createSkillTool(config.skills),

    // Behind feature flags: the module is imported only when the flag is on.
    ...(feature('SLEEP', config) ? [(await import('./sleep/sleep.tool.js')).SleepTool] : []),
    ...(feature('MONITOR', config)
      ? [
          (await import('./monitor/monitor.tool.js')).createMonitorTool({
            ports: (await import('./monitor-ports.js')).monitorPorts({
              ...(config.bashSandbox ? { sandbox: config.bashSandbox } : {}),
              ...(config.web?.webFetch ? { webFetch: config.web.webFetch } : {}),
            }),
          }),
        ]
      : []),
    ...(feature('WORKTREE', config) ? (await import('./worktree/index.js')).worktreeTools() : []),
    ...(feature('BROWSER', config)
      ? [
          (await import('./web-browser/web-browser.tool.js')).createWebBrowserTool({
            ports: (await import('./web-browser-ports.js')).webBrowserPorts({
              settings: config.web?.webFetch ?? {},
            }),
          }),
        ]
      : []),
    ...(feature('LSP', config)
      ? [
          (await import('./lsp/lsp.tool.js')).createLspTool({
            servers: config.lspServers ?? [],
            ...(config.env ? { env: config.env } : {}),
          }),
        ]
      : []),
    ...(feature('WAKEUP', config)
      ? [(await import('./schedule-wakeup/schedule-wakeup.tool.js')).ScheduleWakeupTool]
      : []),
    ...(feature('CRON', config) ? (await import('./cron/cron-tools.js')).CRON_TOOLS : []),
  ];
}

/**
 * The enabled built-in tools: `getAllBaseTools(config)` → those whose `isEnabled()` is true.
 * `isEnabled` throwing counts as disabled (fail closed). Deny rules are applied by the tool pool.
 */
export async function getTools(options: ToolRegistryConfig = {}): Promise<AnyTool[]> {
  return filterEnabledTools(await getAllBaseTools(options));
}

/** Keeps the tools whose `isEnabled()` returns true; one that throws counts as disabled (fail closed). */
export function filterEnabledTools(tools: readonly AnyTool[]): AnyTool[] {
  return tools.filter((tool) => {
    try {
      return tool.isEnabled() === true;
    } catch {
      return false;
    }
  });
}
