/**
 * The price table: USD per million tokens (MTok) for input, output, cache writes and cache reads,
 * per model. This is the only place prices live; `cost.ts` turns usage into `costUSD` with it.
 *
 * - Source: the providers' public list prices (Anthropic "Pricing": a 5-minute cache write costs
 *   1.25× input and a cache read 0.1× input; OpenAI "Pricing": cached input at the listed rate,
 *   no write charge). Only models whose list price is published are here. A model that is not in
 *   the table costs 0 and sets `hasUnknownModelCost` (as Claude Code does), rather than a guess.
 * - Keys are normalised ids (see `normalizeModelId`); a key ending in `*` covers a family and the
 *   longest match wins. Callers can pass their own rows (`extraPrices`) for private deployments.
 */
import { lookupModelRow } from './models.js';

export interface ModelPrice {
  /** USD per MTok of uncached input. */
  inputPerMTok: number;
  /** USD per MTok of output (thinking included). */
  outputPerMTok: number;
  /** USD per MTok written to the prompt cache (5-minute TTL). */
  cacheWritePerMTok: number;
  /** USD per MTok read from the prompt cache. */
  cacheReadPerMTok: number;
}

/** Anthropic rows: cache write = 1.25 × input, cache read = 0.1 × input. */
function claude(input: number, output: number): ModelPrice {
  return {
    inputPerMTok: input,
    outputPerMTok: output,
    cacheWritePerMTok: input * 1.25,
    cacheReadPerMTok: input * 0.1,
  };
}

/** OpenAI rows: automatic caching, no write charge. */
function openai(input: number, output: number, cachedInput: number): ModelPrice {
  return {
    inputPerMTok: input,
    outputPerMTok: output,
    cacheWritePerMTok: input,
    cacheReadPerMTok: cachedInput,
  };
}

export const PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  'claude-opus-4-5': claude(5, 25),
  'claude-opus-4-1': claude(15, 75),
  'claude-opus-4': claude(15, 75),
  'claude-opus-4-0': claude(15, 75),
  'claude-sonnet-4-5': claude(3, 15),
  'claude-sonnet-4': claude(3, 15),
  'claude-sonnet-4-0': claude(3, 15),
  'claude-3-7-sonnet': claude(3, 15),
  'claude-haiku-4-5': claude(1, 5),
  'claude-3-5-haiku': claude(0.8, 4),
  'claude-3-haiku': claude(0.25, 1.25),
  'gpt-4o': openai(2.5, 10, 1.25),
  'gpt-4o-mini': openai(0.15, 0.6, 0.075),
  'gpt-4.1': openai(2, 8, 0.5),
  'gpt-4.1-mini': openai(0.4, 1.6, 0.1),
  'gpt-4.1-nano': openai(0.1, 0.4, 0.025),
  'gpt-5': openai(1.25, 10, 0.125),
  'gpt-5-mini': openai(0.25, 2, 0.025),
  'gpt-5-nano': openai(0.05, 0.4, 0.005),
});

/** The price of `model`, or undefined when neither `extraPrices` nor the table has it. */
export function priceOf(
  model: string,
  extraPrices?: Readonly<Record<string, ModelPrice>>,
): ModelPrice | undefined {
  return (extraPrices && lookupModelRow(extraPrices, model)) ?? lookupModelRow(PRICES, model);
}
