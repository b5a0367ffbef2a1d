/**
 * The runtime's surface for other rooms and the package entry: `createToolRuntime`, the streaming
 * executor, the deciders, the limits a host may tune, the outcome types, and the tool definitions
 * the model sees. The phases (plan, authorize, run, budget, persist) stay private to the room.
 */
export {
  createToolRuntime,
  type ToolRuntime,
  type ToolRuntimeOptions,
  type TurnRunOptions,
} from './create-tool-runtime.js';
export { allowAllDecider, askAllDecider } from './deciders.js';
export {
  DEFAULT_MAX_TOOL_USE_CONCURRENCY,
  GLOBAL_MAX_RESULT_SIZE_CHARS,
  MAX_TOOL_USE_CONCURRENCY_ENV,
  MAX_TURN_RESULTS_CHARS,
} from './limits.js';
export { StreamingToolExecutor } from './streaming-executor.js';
export { NoSuchToolError } from './to-tool-result.js';
export {
  renderToolDefinitionsJson,
  type ToolDefinition,
  toolDefinition,
  toolDefinitions,
} from './tool-definitions.js';
export type {
  AskDecision,
  CallOutcome,
  CallStatus,
  CanUseTool,
  ToolRuntimeUpdate,
  TurnResult,
} from './types.js';
