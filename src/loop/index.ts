/**
 * The agent loop (docs/loop.md): `query()` and `createAgent()`, the input queue, transcripts and
 * resume, the system prompt's parts, and the public event and option types.
 */
export { type Agent, type AgentSettingsOptions, type CreateAgentOptions, createAgent } from './agent.js';
export { DEFAULT_MAX_TOOL_CALLS, DEFAULT_REPEATED_CALL_LIMIT, canonicalJson } from './breakers.js';
export { COMPACT_INSTRUCTION } from './context/compact.js';
export { TokenEstimator } from './context/token-estimator.js';
export { createInputQueue, toUserInputMessage } from './input-queue.js';
export { MAX_STOP_HOOK_BLOCKS } from './prompt-turn.js';
export { assembleSystemPrompt } from './prompt/assemble.js';
export { loadMemoryFiles, type MemoryFile } from './prompt/memory.js';
export { SECURITY_SECTION_TEXT } from './prompt/security.js';
export { query } from './query.js';
export { isForwardedEvent } from './response.js';
export { type ManagedLimitsResult, readManagedToolLimits } from './thresholds.js';
export {
  defaultGantryHome,
  latestTranscript,
  projectSlug,
  projectTranscriptDir,
  transcriptPathFor,
} from './transcript/paths.js';
export {
  loadSessionMessages,
  readTranscriptLines,
  resumeSession,
  type TranscriptReadStats,
} from './transcript/reader.js';
export { TranscriptWriter } from './transcript/writer.js';
export type {
  PermissionMode,
  ApiRetryEvent,
  AssistantEvent,
  AutoCompactOptions,
  BaseHookInput,
  CanUseTool,
  CanUseToolOptions,
  CompactBoundaryEvent,
  ForwardedEventProgress,
  HookCallback,
  HookCallbackMatcher,
  HookCallbacks,
  HookCommandConfig,
  HookEventName,
  HookInput,
  HookJSONOutput,
  InformationalEvent,
  InitEvent,
  InputQueue,
  PermissionDenial,
  PermissionDeniedEvent,
  PermissionResult,
  PermissionUpdate,
  PostCompactHookInput,
  PostToolUseFailureHookInput,
  PostToolUseHookInput,
  PreCompactHookInput,
  PreToolUseHookInput,
  Query,
  QueryEvent,
  QueryOptions,
  QueryPrompt,
  QueryResult,
  RecordedToolResult,
  ResultEvent,
  ResultSubtype,
  ResumedSession,
  SessionEndHookInput,
  SessionStartHookInput,
  StopHookInput,
  StreamEvent,
  SubagentStartHookInput,
  SystemEvent,
  SystemPromptOption,
  TaskNotificationEvent,
  TaskProgressEvent,
  TaskStartedEvent,
  TaskUpdatedEvent,
  TerminalReason,
  ToolPoolLike,
  ToolProgressMessage,
  ToolResultLimits,
  ToolResultMeta,
  TranscriptConsumer,
  TranscriptOptions,
  UserEvent,
  UserInputMessage,
  UserPromptSubmitHookInput,
} from './types.js';
export { GANTRY_VERSION } from './version.js';
