/**
 * Model names: the alias table (`sonnet`, `opus`, `haiku` → current Anthropic ids) and what Gantry
 * knows about a model's limits (context window, output cap), in one place.
 *
 * - Aliases are Claude Code's `--model` aliases (Claude Code documentation, "Model configuration").
 *   A name that is not an alias is used as given (full ids, dated ids, OpenAI-compatible names).
 * - `modelInfo` answers for unknown models too, with `known: false` and conservative defaults, so
 *   callers (compaction thresholds, `modelUsage.contextWindow`) never have to special-case.
 * - Ids are matched after `normalizeModelId`: lower case, without a date suffix (`-YYYYMMDD`,
 *   `-YYYY-MM-DD`) and without a bracketed variant such as `[1m]`.
 */

export type ProviderName = 'anthropic' | 'openai';

/** `--model` aliases for the Anthropic provider → the id sent on the wire. */
export const ANTHROPIC_MODEL_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  opus: 'claude-opus-5-5',
  sonnet: 'claude-sonnet-5-5',
  haiku: 'claude-haiku-5-5',
});

/** The model used when nothing names one (flag, env, settings). */
export const DEFAULT_MODEL: Readonly<Record<ProviderName, string>> = Object.freeze({
  anthropic: 'opus',
  openai: 'gpt-4.1',
});

/** Resolves an alias to the wire id (Anthropic aliases only; other names pass through trimmed). */
export function resolveModelAlias(provider: ProviderName, name: string): string {
  const trimmed = name.trim();
  if (provider === 'anthropic') return ANTHROPIC_MODEL_ALIASES[trimmed.toLowerCase()] ?? trimmed;
  return trimmed;
}

/** Lower case, no date suffix (`-YYYYMMDD`, `-YYYY-MM-DD`), no bracketed variant (`[1m]`). */
export function normalizeModelId(model: string): string {
  return model
    .trim()
    .toLowerCase()
    .replace(/\[[^\]]*\]$/, '')
    .replace(/-\d{8}$/, '')
    .replace(/-\d{4}-\d{2}-\d{2}$/, '');
}

export interface ModelInfo {
  /** Input + output tokens the model accepts in one request. */
  contextWindow: number;
  /** The largest `max_tokens` the model accepts. */
  maxOutputTokens: number;
  /** False when the model is not in the table and the figures are defaults. */
  known: boolean;
}

interface InfoRow {
  contextWindow: number;
  maxOutputTokens: number;
}

// Limits per model: the Anthropic "Models overview" and OpenAI model pages; for the 5.x Claude
// families, the figures Claude Code itself reports in `modelUsage` (1M context, 128K output).
// Prefix rows (ending in `*`) cover a family; the longest matching key wins.
const INFO: Readonly<Record<string, InfoRow>> = {
  'claude-opus-5*': { contextWindow: 1_000_000, maxOutputTokens: 128_000 },
  'claude-sonnet-5*': { contextWindow: 1_000_000, maxOutputTokens: 128_000 },
  'claude-haiku-5*': { contextWindow: 1_000_000, maxOutputTokens: 128_000 },
  'claude-fable-5*': { contextWindow: 1_000_000, maxOutputTokens: 128_000 },
  'claude-opus-4*': { contextWindow: 200_000, maxOutputTokens: 32_000 },
  'claude-opus-4-5': { contextWindow: 200_000, maxOutputTokens: 64_000 },
  'claude-sonnet-4*': { contextWindow: 200_000, maxOutputTokens: 64_000 },
  'claude-haiku-4*': { contextWindow: 200_000, maxOutputTokens: 64_000 },
  'claude-3-7-sonnet': { contextWindow: 200_000, maxOutputTokens: 64_000 },
  'claude-3-5-haiku': { contextWindow: 200_000, maxOutputTokens: 8_192 },
  'claude-3-haiku': { contextWindow: 200_000, maxOutputTokens: 4_096 },
  'gpt-4o*': { contextWindow: 128_000, maxOutputTokens: 16_384 },
  'gpt-4.1*': { contextWindow: 1_047_576, maxOutputTokens: 32_768 },
  'gpt-5*': { contextWindow: 400_000, maxOutputTokens: 128_000 },
};

const DEFAULT_INFO: Readonly<Record<ProviderName, InfoRow>> = {
  anthropic: { contextWindow: 200_000, maxOutputTokens: 32_000 },
  // Local and third-party OpenAI-compatible models vary widely; this is deliberately small.
  openai: { contextWindow: 128_000, maxOutputTokens: 8_192 },
};

/** Finds the row for `model` in a table with exact and `prefix*` keys (longest match wins). */
export function lookupModelRow<T>(table: Readonly<Record<string, T>>, model: string): T | undefined {
  const id = normalizeModelId(model);
  const exact = table[id];
  if (exact !== undefined) return exact;
  let best: { len: number; row: T } | undefined;
  for (const [key, row] of Object.entries(table)) {
    if (!key.endsWith('*')) continue;
    const prefix = key.slice(0, -1);
    if (id.startsWith(prefix) && (!best || prefix.length > best.len)) best = { len: prefix.length, row };
  }
  return best?.row;
}

/** Limits of `model` (an id or an alias); unknown models get the provider's defaults and `known: false`. */
export function modelInfo(model: string, provider: ProviderName = 'anthropic'): ModelInfo {
  const id = resolveModelAlias(provider, model);
  const row = lookupModelRow(INFO, id);
  if (row) return { ...row, known: true };
  return { ...DEFAULT_INFO[provider], known: false };
}
