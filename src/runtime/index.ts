/** The runtime's public surface: createToolRuntime, the streaming executor, session services, child contexts, the tool pool, deciders, limits. */
export { AdmissionGate, type AdmissionRequest, type Permit, type QueuedAdmission } from './admission-gate.js';
export { type AuthorizeCallOptions, type Authorization, authorizeCall } from './authorize-call.js';
export { BackgroundTaskManager } from './background-tasks.js';
export {
  type ChildContextOptions,
  type ChildToolUseContext,
  createChildContext,
  narrowPermissionMode,
} from './child-context.js';
export {
  createToolRuntime,
  type ToolRuntime,
  type ToolRuntimeOptions,
  type TurnRunOptions,
} from './create-tool-runtime.js';
export { allowAllDecider, askAllDecider } from './deciders.js';
export { formatIssuePath, schemaErrorToInputError } from './format-input-error.js';
export { jsonSchemaInput } from './json-schema-input.js';
export {
  DEFAULT_MAX_TOOL_USE_CONCURRENCY,
  effectiveMaxResultSizeChars,
  GLOBAL_MAX_RESULT_SIZE_CHARS,
  MAX_ERROR_MESSAGE_CHARS,
  MAX_TOOL_USE_CONCURRENCY_ENV,
  MAX_TURN_RESULTS_CHARS,
  PERSISTED_PREVIEW_BYTES,
  resolveMaxToolUseConcurrency,
} from './limits.js';
export {
  makePreview,
  type PersistedResult,
  persistedOutputMessage,
  persistToolResult,
  safeFileStem,
} from './persist-result.js';
export { prepareCall } from './prepare-call.js';
export {
  createSessionServices,
  type DisposeFailure,
  SANDBOX_RESOURCE,
  type SessionResource,
  type SessionServicesHandle,
  type SessionServicesOptions,
  TASKS_RESOURCE,
} from './session-services.js';
export { StreamingToolExecutor } from './streaming-executor.js';
export { middleTruncate, NoSuchToolError } from './to-tool-result.js';
export {
  deferredToolDefinition,
  renderToolDefinitionsJson,
  type ToolDefinition,
  toolDefinition,
  toolDefinitions,
} from './tool-definitions.js';
export { assembleToolPool, type ToolPool, type ToolPoolInputs } from './tool-pool.js';
export type {
  AskDecision,
  CallOutcome,
  CallRecord,
  CallStatus,
  CanUseTool,
  PostCallAnswer,
  PostCallEvent,
  PostCallHook,
  PreparedCall,
  ToolDecisionRecord,
  ToolRuntimeUpdate,
  TurnResult,
} from './types.js';
