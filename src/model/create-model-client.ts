/**
 * `createModelClient`: the one entry that turns flags, environment and settings into a ready
 * `ModelClient` (Anthropic Messages or OpenAI-compatible). Throws ModelConfigError at start-up
 * when the configuration cannot work (see config.ts).
 */
import type { ModelClient } from '../core/model-client.js';
import { AnthropicModelClient } from './anthropic/client.js';
import { type ModelConfigInput, type ResolvedModelConfig, resolveModelConfig } from './config.js';
import { OpenAIModelClient } from './openai/client.js';
import type { RetryOptions } from './retry.js';

/** A client plus the configuration it was built from (the resolved model id included). */
export interface ConfiguredModelClient extends ModelClient {
  /** The wire id of the configured model (what requests should name). */
  readonly model: string;
  readonly config: ResolvedModelConfig;
}

/** Options that are not user configuration (tests, embedders). */
export interface ModelClientOverrides {
  retry?: RetryOptions;
  timeoutMs?: number;
  streamIdleTimeoutMs?: number;
}

/** Builds the client for an already resolved configuration. */
export function createModelClientFromConfig(
  config: ResolvedModelConfig,
  overrides: ModelClientOverrides = {},
): ConfiguredModelClient {
  const retry = { ...config.retry, ...overrides.retry };
  const timeoutMs = overrides.timeoutMs ?? config.timeoutMs;
  const timing = {
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(overrides.streamIdleTimeoutMs !== undefined
      ? { streamIdleTimeoutMs: overrides.streamIdleTimeoutMs }
      : {}),
  };
  const client: ModelClient =
    config.provider === 'anthropic'
      ? new AnthropicModelClient({
          ...(config.apiKey ? { apiKey: config.apiKey } : {}),
          ...(config.authToken ? { authToken: config.authToken } : {}),
          ...(config.baseURL ? { baseURL: config.baseURL } : {}),
          model: config.model,
          betas: config.betas,
          headers: config.headers,
          promptCaching: config.promptCaching,
          retry,
          ...timing,
        })
      : new OpenAIModelClient({
          ...(config.apiKey ? { apiKey: config.apiKey } : {}),
          ...(config.baseURL ? { baseURL: config.baseURL } : {}),
          ...(config.organization ? { organization: config.organization } : {}),
          ...(config.project ? { project: config.project } : {}),
          model: config.model,
          api: config.api,
          headers: config.headers,
          retry,
          ...timing,
        });
  return {
    provider: client.provider,
    model: config.model,
    config,
    stream: (request, options) => client.stream(request, options),
    countTokens: (request, options) => client.countTokens(request, options),
  };
}

/** Resolves the configuration from flags, environment and settings and builds the client. */
export function createModelClient(
  input: ModelConfigInput = {},
  overrides: ModelClientOverrides = {},
): ConfiguredModelClient {
  return createModelClientFromConfig(resolveModelConfig(input), overrides);
}
