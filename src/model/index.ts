/**
 * The model room: providers behind `ModelClient` (core/model-client.ts), their configuration,
 * prompt-cache breakpoint placement, retries, and cost accounting. See docs/agent-wire.md.
 */
export {
  type AnthropicClientOptions,
  AnthropicModelClient,
  classifyAnthropicError,
} from './anthropic/client.js';
export {
  type AnthropicBodyOptions,
  type AnthropicWireRequest,
  buildAnthropicCountRequest,
  buildAnthropicRequest,
  sanitiseHistory,
} from './anthropic/request.js';
export { assembleAnthropicStream, usageFrom } from './anthropic/stream.js';
export {
  type CacheBreakpointPath,
  type CachePlacement,
  type CachePlacementOptions,
  placeCacheBreakpoints,
  type WireContentBlock,
  type WireMessage,
} from './cache-breakpoints.js';
export {
  type ConfigSource,
  ModelConfigError,
  type ModelConfigErrorCode,
  type ModelConfigInput,
  type ModelFlags,
  type ModelSettings,
  type ResolvedModelConfig,
  redactedModelConfig,
  resolveModelConfig,
} from './config.js';
export {
  type AddUsageExtras,
  type CostState,
  costOfUsage,
  type ModelUsageEntry,
  type ResultUsage,
  UsageAccumulator,
  type UsageAccumulatorOptions,
} from './cost.js';
export {
  type ConfiguredModelClient,
  createModelClient,
  createModelClientFromConfig,
  type ModelClientOverrides,
} from './create-model-client.js';
export { type ClassifiedFailure, kindFor } from './errors.js';
export { estimateRequestTokens, estimateTokens } from './estimate.js';
export {
  ANTHROPIC_MODEL_ALIASES,
  DEFAULT_MODEL,
  type ModelInfo,
  modelInfo,
  normalizeModelId,
  type ProviderName,
  resolveModelAlias,
} from './models.js';
export { classifyOpenAIError, type OpenAIClientOptions, OpenAIModelClient } from './openai/client.js';
export { buildChatRequest, type ChatMessage, toChatMessages } from './openai/chat-request.js';
export { buildResponsesRequest, toResponsesInput } from './openai/responses-request.js';
export { type ModelPrice, PRICES, priceOf } from './prices.js';
export {
  DEFAULT_RETRY,
  type ResolvedRetryOptions,
  type RetryOptions,
  resolveRetryOptions,
  retryAfterMs,
} from './retry.js';
export { callWithRetries, streamWithRetries } from './retrying-stream.js';
export {
  renderToolDefinitionsJson,
  type ToolDefinition,
  toolDefinition,
  toolDefinitions,
} from './tool-definitions.js';
