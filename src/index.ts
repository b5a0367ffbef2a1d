/**
 * Gantry's public API (design.md §6 "Library"): bring your own model, hand the runtime a turn's
 * `tool_use` blocks, get ordered, budgeted `tool_result` blocks back.
 *
 *   import { createToolRuntime, getTools, toolDefinitions } from 'gantry';
 */

// The tool contract and its vocabulary (Tool, buildTool, ToolUseContext, content blocks, errors, effects…).
export * from './core/index.js';
// Tool definitions for the model, rendered once per tool (byte-stable).
export {
  renderToolDefinitionsJson,
  type ToolDefinition,
  toolDefinition,
  toolDefinitions,
} from './runtime/tool-definitions.js';
// The runtime: one call's pipeline, the admission gate, streaming executor, result budgets,
// session services, child contexts, the tool pool.
export {
  allowAllDecider,
  askAllDecider,
  assembleToolPool,
  BackgroundTaskManager,
  type CallRecord,
  type CanUseTool,
  type ChildContextOptions,
  type ChildToolUseContext,
  createChildContext,
  createSessionServices,
  createToolRuntime,
  jsonSchemaInput,
  type PostCallEvent,
  type PostCallHook,
  type SessionServicesHandle,
  type ToolPool,
  type ToolPoolInputs,
  DEFAULT_MAX_TOOL_USE_CONCURRENCY,
  GLOBAL_MAX_RESULT_SIZE_CHARS,
  MAX_TURN_RESULTS_CHARS,
  StreamingToolExecutor,
  type ToolRuntime,
  type ToolRuntimeOptions,
  type ToolRuntimeUpdate,
  type TurnResult,
  type TurnRunOptions,
} from './runtime/index.js';
// The built-in tool registry.
export {
  FEATURE_FLAGS,
  type FeatureFlag,
  feature,
  filterEnabledTools,
  getAllBaseTools,
  getTools,
  type ToolRegistryConfig,
} from './tools/index.js';
// Session files: where spilled results and task output live, and their retention (docs/reliability.md).
export {
  enforceSessionCap,
  pruneSessionDirs,
  sessionDirFor,
  sessionLimits,
  sessionsRoot,
} from './tools/file-io/session-files.js';
// Stopping every process group a host started (a server shutting down; docs/reliability.md).
export { stopAllProcessGroups } from './tools/bash/exec.js';
// The permission engine: settings, rules, modes, protected paths, hooks, classifier.
export {
  createPermissionEngine,
  type LoadedSettings,
  loadSettings,
  type PermissionEngine,
  type PermissionEngineOptions,
} from './permissions/index.js';
// Shell analysis (pure): parse, split, checks, read-only, effects.
export { analyzeCommand, analyzeCommandAsync, describeBashCommand, initShellParser } from './shell/index.js';
// The Bash tool with host-specific dependencies (sandbox seam, env), and the background tasks it starts.
export {
  type BashSandbox,
  type BashToolOptions,
  createBashTool,
  type SpawnSpec,
} from './tools/bash/index.js';
export { formatTaskNotification, taskEndSummary } from './tools/tasks/task-manager.js';
