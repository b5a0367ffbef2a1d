/**
 * `createModelClient`: the one entry that turns flags, environment and settings into a ready
 * `ModelClient` (Anthropic Messages or OpenAI-compatible). Throws ModelConfigError at start-up
 * when the configuration cannot work (see config.ts).
 */
import type { ModelClient } from '../core/model-client.js';
import { AnthropicModelClient } from './anthropic/client.js';
import { type ModelConfigInput, type ResolvedModelConfig, resolveModelConfig } from './config.js';
import type { OpenAIClientOptions } from './openai/client.js';
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
      : lazyOpenAIClient({
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

/**
 * The OpenAI-compatible client, with the `openai` SDK loaded on the first call rather than at start
 * (an Anthropic session never loads it; docs/cli-print.md, "Start-up"). The options are checked
 * here as the client's constructor checks them, so a missing key is still a start-up error.
 */
function lazyOpenAIClient(options: OpenAIClientOptions): ModelClient {
  if (!options.apiKey?.trim() && !options.baseURL?.trim())
    throw new TypeError('OpenAIModelClient needs an apiKey, or a baseURL for a local server without one');
  let client: Promise<ModelClient> | undefined;
  const load = (): Promise<ModelClient> =>
    (client ??= import('./openai/client.js').then((m) => new m.OpenAIModelClient(options)));
  return {
    provider: 'openai',
    async *stream(request, callOptions) {
      yield* (await load()).stream(request, callOptions);
    },
    countTokens: async (request, callOptions) => (await load()).countTokens(request, callOptions),
  };
}

/** Resolves the configuration from flags, environment and settings and builds the client. */
export function createModelClient(
  input: ModelConfigInput = {},
  overrides: ModelClientOverrides = {},
): ConfiguredModelClient {
  return createModelClientFromConfig(resolveModelConfig(input), overrides);
}
