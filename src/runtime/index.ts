/**
 * The runtime's surface for other rooms and the package entry: `createToolRuntime`, the admission
 * gate, the streaming executor, session services, child contexts, the tool pool, the deciders, the
 * limits a host may tune, the outcome types, and the tool definitions the model sees. The phases
 * (prepare, authorize, run, budget, persist) stay private to the room.
 */
export { AdmissionGate, type AdmissionRequest, type Permit, type QueuedAdmission } from './admission-gate.js';
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
export { jsonSchemaInput } from './json-schema-input.js';
export {
  DEFAULT_MAX_TOOL_USE_CONCURRENCY,
  GLOBAL_MAX_RESULT_SIZE_CHARS,
  MAX_TOOL_USE_CONCURRENCY_ENV,
  MAX_TURN_RESULTS_CHARS,
} from './limits.js';
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
export { NoSuchToolError } from './to-tool-result.js';
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
  ToolDecisionRecord,
  ToolRuntimeUpdate,
  TurnResult,
} from './types.js';
