/**
 * `gantry`, the package entry: what a host needs to give a model Gantry's tools and run the calls
 * the model makes. Bring your own model; hand the runtime a turn's `tool_use` blocks; get ordered,
 * budgeted `tool_result` blocks back, each call decided by the permission engine first.
 *
 *   import { createPermissionEngine, createToolRuntime, getTools, loadSettings, toolDefinitions } from 'gantry';
 *
 * More specialised surfaces have their own entry points: `gantry/permissions` (rules, settings,
 * hooks, explanations), `gantry/shell` (the shell analysis), `gantry/tools` (each tool, the registry
 * helpers, the tools' output types), `gantry/sandbox` (the Bash sandbox), `gantry/mcp` (the MCP server),
 * `gantry/model` (model providers behind `ModelClient`).
 */

// The tool contract.
export { buildTool, type ToolDef } from './core/build-tool.js';
export type { AnyTool, Tool, ToolResult, ValidationResult } from './core/tool.js';
export type { AppState, ToolProgressEvent, ToolUseContext } from './core/context.js';
export {
  AbortError,
  FatalError,
  PermissionDeniedError,
  ToolError,
  ToolExecutionError,
  ToolInputError,
} from './core/errors.js';
// Content blocks and conversation messages (Anthropic Messages shapes).
export type {
  DocumentBlock,
  ImageBlock,
  TextBlock,
  ToolResultBlock,
  ToolResultContent,
  ToolReferenceBlock,
  ToolResultContentBlock,
  ToolUseBlock,
} from './core/content.js';
export type { AssistantMessage, Message, MessageContentBlock, UserMessage } from './core/messages.js';
export type { ModelClient, ModelRequest, ModelStreamEvent } from './core/model-client.js';
// What the permission engine decides, and what it is asked.
export type {
  CallDescription,
  DecisionReason,
  PermissionDecider,
  PermissionDecision,
  PermissionMode,
  PermissionRequest,
} from './core/permission-types.js';
// The runtime: one call's pipeline, the admission gate, streaming, result budgets; session
// services (background tasks, sandbox, disposal), child contexts for subagents, the tool pool and
// the definitions the model sees.
export {
  allowAllDecider,
  askAllDecider,
  assembleToolPool,
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
  renderToolDefinitionsJson,
  type SessionServicesHandle,
  StreamingToolExecutor,
  type ToolDefinition,
  toolDefinition,
  toolDefinitions,
  type ToolPool,
  type ToolPoolInputs,
  type ToolRuntime,
  type ToolRuntimeOptions,
  type ToolRuntimeUpdate,
  type TurnResult,
  type TurnRunOptions,
} from './runtime/index.js';
// The built-in tools.
export {
  type BashSandbox,
  type BashToolOptions,
  createBashTool,
  getAllBaseTools,
  getTools,
  type ToolRegistryConfig,
} from './tools/index.js';
// The permission engine.
export {
  createPermissionEngine,
  type LoadedSettings,
  loadSettings,
  type PermissionEngine,
  type PermissionEngineOptions,
} from './permissions/index.js';
