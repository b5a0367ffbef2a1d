/** The runtime's public surface: createToolRuntime, the streaming executor, deciders, limits, and the phases' pure helpers. */
export { type AuthorizeCallOptions, type Authorization, authorizeCall } from './authorize-call.js';
export {
  createToolRuntime,
  type ToolRuntime,
  type ToolRuntimeOptions,
  type TurnRunOptions,
} from './create-tool-runtime.js';
export { allowAllDecider, askAllDecider } from './deciders.js';
export { formatIssuePath, schemaErrorToInputError } from './format-input-error.js';
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
export { type Batch, partitionToolCalls, prepareCall } from './plan-batches.js';
export { StreamingToolExecutor } from './streaming-executor.js';
export { middleTruncate, NoSuchToolError } from './to-tool-result.js';
export type {
  AskDecision,
  CallOutcome,
  CallStatus,
  CanUseTool,
  PreparedCall,
  ToolRuntimeUpdate,
  TurnResult,
} from './types.js';
