/**
 * Which search provider WebSearch uses, and why (README.md "Providers" and "Diagnostics"). Pure:
 * settings, environment and the session's model provider in, a provider (or none) and the reasons
 * out. `webSearchDiagnostics` is what `gantry doctor` prints; the tool's `isEnabled()` is
 * `diagnostics.enabled`, so with no provider the model is never offered the tool.
 *
 * Availability:
 * - `anthropic`: the session's model provider is Anthropic (the host says so through
 *   `modelProvider`; a host that does not say is judged from the environment: `GANTRY_PROVIDER`
 *   unset or `anthropic`, and `ANTHROPIC_API_KEY` or `ANTHROPIC_AUTH_TOKEN` set);
 * - `brave`: `BRAVE_API_KEY`; `tavily`: `TAVILY_API_KEY`;
 * - `searxng`: an http(s) instance URL in settings `webSearch.searxngUrl` or `SEARXNG_URL`.
 *
 * Choice: settings `webSearch.provider`, else `GANTRY_WEB_SEARCH_PROVIDER`, else the first
 * available in the order above. A named provider that is not available disables the tool (with the
 * reason) rather than silently searching elsewhere.
 */
import {
  WEB_SEARCH_PROVIDERS,
  type WebSearchProviderName,
  type WebSearchSettings,
} from '../../core/web-settings.js';
import { anthropicSearchProvider } from './providers/anthropic.js';
import { braveProvider } from './providers/brave.js';
import { searxngProvider } from './providers/searxng.js';
import { tavilyProvider } from './providers/tavily.js';
import type { SearchProvider } from './types.js';

export interface WebSearchConfig {
  /** The settings `webSearch` object (core/web-settings.ts). */
  settings?: WebSearchSettings;
  /** Environment (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The session's model provider (`anthropic`, `openai`), when the host knows it. */
  modelProvider?: string;
}

export interface ProviderCheck {
  provider: WebSearchProviderName;
  available: boolean;
  reason: string;
}

export interface WebSearchDiagnostics {
  /** True when WebSearch is offered to the model. */
  enabled: boolean;
  /** The provider it uses, when enabled. */
  provider?: WebSearchProviderName;
  /** One sentence: which provider and why, or why none. */
  reason: string;
  /** Every provider, in order of preference, with what makes it available or not. */
  checks: ProviderCheck[];
}

const has = (v: string | undefined) => typeof v === 'string' && v.trim() !== '';

function searxngUrl(
  config: WebSearchConfig,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const raw = config.settings?.searxngUrl ?? env.SEARXNG_URL;
  if (!has(raw)) return undefined;
  try {
    const u = new URL(raw as string);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function checks(config: WebSearchConfig): ProviderCheck[] {
  const env = config.env ?? process.env;
  const mp = config.modelProvider;
  const envProvider = (env.GANTRY_PROVIDER ?? '').trim().toLowerCase();
  const anthropicByEnv =
    (envProvider === '' || envProvider === 'anthropic') &&
    (has(env.ANTHROPIC_API_KEY) || has(env.ANTHROPIC_AUTH_TOKEN));
  const anthropic: ProviderCheck =
    mp !== undefined
      ? {
          provider: 'anthropic',
          available: mp === 'anthropic',
          reason:
            mp === 'anthropic'
              ? "the session's model is on the Anthropic API, which runs web searches server-side"
              : `the session's model is on ${mp}, not the Anthropic API`,
        }
      : {
          provider: 'anthropic',
          available: anthropicByEnv,
          reason: anthropicByEnv
            ? 'ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN is set and the provider is Anthropic'
            : 'the model provider is not Anthropic with a key (ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN)',
        };
  const rawSearx = config.settings?.searxngUrl ?? env.SEARXNG_URL;
  const searx = searxngUrl(config, env);
  return [
    anthropic,
    {
      provider: 'brave',
      available: has(env.BRAVE_API_KEY),
      reason: has(env.BRAVE_API_KEY) ? 'BRAVE_API_KEY is set' : 'BRAVE_API_KEY is not set',
    },
    {
      provider: 'tavily',
      available: has(env.TAVILY_API_KEY),
      reason: has(env.TAVILY_API_KEY) ? 'TAVILY_API_KEY is set' : 'TAVILY_API_KEY is not set',
    },
    {
      provider: 'searxng',
      available: searx !== undefined,
      reason: searx
        ? `the SearXNG instance is ${searx}`
        : has(rawSearx)
          ? `the SearXNG URL "${rawSearx}" is not an http(s) URL`
          : 'neither webSearch.searxngUrl nor SEARXNG_URL is set',
    },
  ];
}

/** Why WebSearch is or is not offered, provider by provider (for `gantry doctor`). */
export function webSearchDiagnostics(config: WebSearchConfig = {}): WebSearchDiagnostics {
  const env = config.env ?? process.env;
  const list = checks(config);
  const namedRaw = config.settings?.provider ?? env.GANTRY_WEB_SEARCH_PROVIDER?.trim().toLowerCase();
  const source = config.settings?.provider ? 'settings webSearch.provider' : 'GANTRY_WEB_SEARCH_PROVIDER';
  if (has(namedRaw)) {
    const named = namedRaw as string;
    if (!(WEB_SEARCH_PROVIDERS as readonly string[]).includes(named))
      return {
        enabled: false,
        reason: `WebSearch is off: ${source} names "${named}", which is not one of ${WEB_SEARCH_PROVIDERS.join(', ')}.`,
        checks: list,
      };
    const check = list.find((c) => c.provider === named) as ProviderCheck;
    return check.available
      ? {
          enabled: true,
          provider: check.provider,
          reason: `WebSearch uses ${named} (${source}): ${check.reason}.`,
          checks: list,
        }
      : {
          enabled: false,
          reason: `WebSearch is off: ${source} is ${named}, but ${check.reason}.`,
          checks: list,
        };
  }
  const first = list.find((c) => c.available);
  if (first)
    return {
      enabled: true,
      provider: first.provider,
      reason: `WebSearch uses ${first.provider}: ${first.reason}.`,
      checks: list,
    };
  return {
    enabled: false,
    reason:
      'WebSearch is off: no search provider is configured. Use a model on the Anthropic API, or set BRAVE_API_KEY, TAVILY_API_KEY or SEARXNG_URL (settings webSearch.provider picks one).',
    checks: list,
  };
}

/** The provider WebSearch would use now, or undefined when it is off. */
export function resolveSearchProvider(config: WebSearchConfig = {}): SearchProvider | undefined {
  const diagnostics = webSearchDiagnostics(config);
  const env = config.env ?? process.env;
  switch (diagnostics.provider) {
    case 'anthropic':
      return anthropicSearchProvider({
        model:
          config.settings?.model ??
          (has(env.GANTRY_WEB_SEARCH_MODEL) ? (env.GANTRY_WEB_SEARCH_MODEL as string) : 'haiku'),
        maxUses: config.settings?.maxUses ?? 8,
      });
    case 'brave':
      return braveProvider({
        apiKey: (env.BRAVE_API_KEY as string).trim(),
        ...(has(env.BRAVE_SEARCH_BASE_URL) ? { baseUrl: env.BRAVE_SEARCH_BASE_URL as string } : {}),
      });
    case 'tavily':
      return tavilyProvider({
        apiKey: (env.TAVILY_API_KEY as string).trim(),
        ...(has(env.TAVILY_BASE_URL) ? { baseUrl: env.TAVILY_BASE_URL as string } : {}),
      });
    case 'searxng':
      return searxngProvider({ instanceUrl: searxngUrl(config, env) as string });
    default:
      return undefined;
  }
}
