/** The core vocabulary: tool contract, context, content blocks, errors, effects, permission types, paths. */
export {
  buildTool,
  type BuiltTool,
  DEFAULT_TOOL_MAX_RESULT_SIZE_CHARS,
  type DefaultableToolKeys,
  type ToolDef,
} from './build-tool.js';
export {
  budgetChars,
  contentLength,
  contentText,
  type DocumentBlock,
  type ImageBlock,
  MEDIA_BLOCK_BUDGET_CHARS,
  type TextBlock,
  type ToolResultBlock,
  type ToolResultContent,
  type ToolResultContentBlock,
  type ToolUseBlock,
} from './content.js';
export type {
  AppState,
  BackgroundTaskInfo,
  McpClientInfo,
  ThinkingConfig,
  ToolProgressEvent,
  ToolUseContext,
  ToolUseContextOptions,
} from './context.js';
export {
  type Effect,
  type EffectCertainty,
  type EffectKind,
  type EffectSource,
  isMutatingEffect,
  knownEffect,
  unknownEffect,
} from './effects.js';
export {
  AbortError,
  errorMessage,
  FatalError,
  isAbortError,
  PermissionDeniedError,
  ToolError,
  ToolExecutionError,
  ToolInputError,
} from './errors.js';
export {
  displayPath,
  expandPath,
  fsPathResolver,
  isInsideAny,
  isPathInside,
  mapPathResolver,
  type PathResolver,
  resolvePath,
} from './paths.js';
export {
  type CallDescription,
  type DecisionReason,
  type DecisionReasonType,
  type EnvAssignment,
  type Finding,
  type HostPermissionAnswer,
  PERMISSION_MODES,
  type PermissionBehavior,
  type PermissionDecider,
  type PermissionDecision,
  type PermissionMode,
  type PermissionRequest,
  type PermissionRule,
  type PermissionSuggestion,
  type RuleSource,
  type SubcommandInfo,
  type ToolPermissionResult,
} from './permission-types.js';
export {
  hashContent,
  type ReadFileEntry,
  ReadFileState,
} from './read-file-state.js';
export {
  type AnyObject,
  type AnyTool,
  findToolByName,
  type JSONSchemaObject,
  type Tool,
  type ToolResult,
  type ValidationResult,
} from './tool.js';
export {
  addUsage,
  type AssistantContentBlock,
  type AssistantMessage,
  type CacheControl,
  emptyUsage,
  type Message,
  type MessageContentBlock,
  type RedactedThinkingBlock,
  type StopReason,
  type SystemBlock,
  type ThinkingBlock,
  type ToolReferenceBlock,
  type Usage,
  type UserContentBlock,
  type UserMessage,
} from './messages.js';
export {
  type ModelCallOptions,
  type ModelClient,
  ModelError,
  type ModelErrorKind,
  type ModelRequest,
  type ModelStreamEvent,
  type ModelToolDefinition,
  type ThinkingRequest,
} from './model-client.js';
