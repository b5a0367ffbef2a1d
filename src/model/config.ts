/**
 * Provider and model configuration from flags, environment and settings, resolved once at
 * start-up (docs/agent-wire.md, "Configuration").
 *
 * Precedence, highest first:
 * - provider: `--provider` > `GANTRY_PROVIDER` > settings `provider` > `anthropic`;
 * - model: `--model` > `GANTRY_MODEL` > `ANTHROPIC_MODEL` / `OPENAI_MODEL` (by provider) >
 *   settings `model` > the provider's default (`DEFAULT_MODEL`); Anthropic aliases resolve through
 *   `ANTHROPIC_MODEL_ALIASES`;
 * - environment: settings `env` entries apply over the process environment (as Claude Code
 *   applies its settings' `env`).
 *
 * Variables: `ANTHROPIC_API_KEY`, `ANTHROPIC_AUTH_TOKEN`, `ANTHROPIC_BASE_URL`, `ANTHROPIC_BETAS`
 * (comma list), `ANTHROPIC_CUSTOM_HEADERS` (`Name: value` lines), `DISABLE_PROMPT_CACHING`,
 * `OPENAI_API_KEY`, `OPENAI_BASE_URL`, `OPENAI_ORG_ID`, `OPENAI_PROJECT_ID`, `GANTRY_OPENAI_API`
 * (`chat` | `responses`), `GANTRY_MAX_RETRIES`, `API_TIMEOUT_MS`.
 *
 * Errors are `ModelConfigError`s whose message says what to set: an unknown provider, an Anthropic
 * model with no key or token, an OpenAI-compatible model with neither a key nor a base URL, an
 * Anthropic alias used with the OpenAI provider, a base URL that is not http(s), a bad number.
 */
import { ANTHROPIC_MODEL_ALIASES, DEFAULT_MODEL, type ProviderName, resolveModelAlias } from './models.js';
import type { RetryOptions } from './retry.js';

export type ModelConfigErrorCode = 'unknown_provider' | 'missing_credentials' | 'invalid_value';

/** A configuration a session cannot start with; `message` tells the user what to set. */
export class ModelConfigError extends Error {
  override readonly name = 'ModelConfigError';
  constructor(
    readonly code: ModelConfigErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface ModelFlags {
  provider?: string;
  model?: string;
}

/** The settings keys the model room reads (settings.json `provider`, `model`, `env`). */
export interface ModelSettings {
  provider?: string;
  model?: string;
  env?: Readonly<Record<string, string>>;
}

export interface ModelConfigInput {
  flags?: ModelFlags;
  /** Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  settings?: ModelSettings;
}

export type ConfigSource = 'flag' | 'env' | 'settings' | 'default';

export interface ResolvedModelConfig {
  provider: ProviderName;
  providerSource: ConfigSource;
  /** The wire id (aliases resolved). */
  model: string;
  /** The name as the user gave it (alias or id). */
  requestedModel: string;
  modelSource: ConfigSource;
  apiKey?: string;
  authToken?: string;
  /** Which variable the credential came from (`ANTHROPIC_API_KEY`, …), or `none`. */
  credentialSource: string;
  baseURL?: string;
  /** OpenAI-compatible only. */
  api: 'chat' | 'responses';
  organization?: string;
  project?: string;
  /** Anthropic only. */
  betas: string[];
  headers: Record<string, string>;
  promptCaching: boolean;
  retry: RetryOptions;
  timeoutMs?: number;
}

function present(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}

function pick(candidates: [string | undefined, ConfigSource][]): [string, ConfigSource] | undefined {
  for (const [v, source] of candidates) {
    const p = present(v);
    if (p) return [p, source];
  }
  return undefined;
}

function parseProvider(value: string, source: ConfigSource): ProviderName {
  const v = value.toLowerCase();
  if (v === 'anthropic' || v === 'openai') return v;
  const where = {
    flag: '--provider',
    env: 'GANTRY_PROVIDER',
    settings: 'settings "provider"',
    default: 'default',
  }[source];
  throw new ModelConfigError(
    'unknown_provider',
    `Unknown provider "${value}" (from ${where}). Use anthropic or openai.`,
  );
}

function parseBaseUrl(value: string | undefined, variable: string): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ModelConfigError('invalid_value', `${variable} is not a URL: "${value}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ModelConfigError('invalid_value', `${variable} must be an http or https URL (got "${value}").`);
  }
  return value.replace(/\/+$/, '');
}

function parseCount(value: string | undefined, variable: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    throw new ModelConfigError(
      'invalid_value',
      `${variable} must be a non-negative whole number (got "${value}").`,
    );
  }
  return n;
}

function parseHeaderLines(value: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of (value ?? '').split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    if (name) out[name] = line.slice(colon + 1).trim();
  }
  return out;
}

/** Resolves the configuration; throws ModelConfigError (see the module comment). */
export function resolveModelConfig(input: ModelConfigInput = {}): ResolvedModelConfig {
  const env: Record<string, string | undefined> = { ...(input.env ?? process.env), ...input.settings?.env };
  const flags = input.flags ?? {};
  const settings = input.settings ?? {};

  const providerPick = pick([
    [flags.provider, 'flag'],
    [env.GANTRY_PROVIDER, 'env'],
    [settings.provider, 'settings'],
  ]) ?? ['anthropic', 'default'];
  const provider = parseProvider(providerPick[0], providerPick[1]);

  const modelPick = pick([
    [flags.model, 'flag'],
    [env.GANTRY_MODEL, 'env'],
    [provider === 'anthropic' ? env.ANTHROPIC_MODEL : env.OPENAI_MODEL, 'env'],
    [settings.model, 'settings'],
  ]) ?? [DEFAULT_MODEL[provider], 'default'];
  const [requestedModel, modelSource] = modelPick;
  if (provider === 'openai' && ANTHROPIC_MODEL_ALIASES[requestedModel.toLowerCase()]) {
    throw new ModelConfigError(
      'invalid_value',
      `"${requestedModel}" is an Anthropic model alias, but the provider is openai. Name a model the OpenAI-compatible endpoint serves, or use --provider anthropic.`,
    );
  }
  const model = resolveModelAlias(provider, requestedModel);
  const retries = parseCount(present(env.GANTRY_MAX_RETRIES), 'GANTRY_MAX_RETRIES');
  const timeoutMs = parseCount(present(env.API_TIMEOUT_MS), 'API_TIMEOUT_MS');
  const common = {
    providerSource: providerPick[1],
    model,
    requestedModel,
    modelSource,
    retry: retries === undefined ? {} : { maxRetries: retries },
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };

  if (provider === 'anthropic') {
    const apiKey = present(env.ANTHROPIC_API_KEY);
    const authToken = apiKey ? undefined : present(env.ANTHROPIC_AUTH_TOKEN);
    if (!apiKey && !authToken) {
      throw new ModelConfigError(
        'missing_credentials',
        `No credentials for model ${model} (provider anthropic): set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a gateway), or choose another provider with --provider.`,
      );
    }
    const baseURL = parseBaseUrl(present(env.ANTHROPIC_BASE_URL), 'ANTHROPIC_BASE_URL');
    const disable = present(env.DISABLE_PROMPT_CACHING);
    return {
      provider,
      ...common,
      ...(apiKey ? { apiKey } : { authToken: authToken! }),
      credentialSource: apiKey ? 'ANTHROPIC_API_KEY' : 'ANTHROPIC_AUTH_TOKEN',
      ...(baseURL ? { baseURL } : {}),
      api: 'chat',
      betas: (present(env.ANTHROPIC_BETAS) ?? '')
        .split(',')
        .map((b) => b.trim())
        .filter(Boolean),
      headers: parseHeaderLines(env.ANTHROPIC_CUSTOM_HEADERS),
      promptCaching: !(disable && disable !== '0' && disable.toLowerCase() !== 'false'),
    };
  }

  const apiKey = present(env.OPENAI_API_KEY);
  const baseURL = parseBaseUrl(present(env.OPENAI_BASE_URL), 'OPENAI_BASE_URL');
  if (!apiKey && !baseURL) {
    throw new ModelConfigError(
      'missing_credentials',
      `No endpoint for model ${model} (provider openai): set OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL for a local or compatible server (llama.cpp, vLLM, Ollama).`,
    );
  }
  const api = present(env.GANTRY_OPENAI_API) ?? 'chat';
  if (api !== 'chat' && api !== 'responses') {
    throw new ModelConfigError(
      'invalid_value',
      `GANTRY_OPENAI_API must be chat or responses (got "${api}").`,
    );
  }
  const organization = present(env.OPENAI_ORG_ID);
  const project = present(env.OPENAI_PROJECT_ID);
  return {
    provider,
    ...common,
    ...(apiKey ? { apiKey } : {}),
    credentialSource: apiKey ? 'OPENAI_API_KEY' : 'none',
    ...(baseURL ? { baseURL } : {}),
    api,
    ...(organization ? { organization } : {}),
    ...(project ? { project } : {}),
    betas: [],
    headers: {},
    promptCaching: true,
  };
}

/** The configuration without secrets, for logs and `init` reports. */
export function redactedModelConfig(
  config: ResolvedModelConfig,
): Omit<ResolvedModelConfig, 'apiKey' | 'authToken'> {
  const { apiKey: _k, authToken: _t, ...rest } = config;
  return rest;
}
