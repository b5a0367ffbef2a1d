/**
 * Cost accounting: turns each response's usage into USD with the price table and accumulates the
 * figures Claude Code reports at the end of a run — `total_cost_usd`, `usage` (session totals in
 * the Messages API's field names) and `modelUsage` (per model, camelCase) — see docs/agent-wire.md
 * ("Costs").
 *
 * - cost of one response = (input × inputPerMTok + output × outputPerMTok + cache writes ×
 *   cacheWritePerMTok + cache reads × cacheReadPerMTok) / 1,000,000, in USD.
 * - A model missing from the price table costs 0 and sets `hasUnknownModelCost`; its tokens are
 *   still counted.
 * - Usage figures must be non-negative finite numbers; anything else is a TypeError (a provider bug
 *   must not turn into a silently wrong bill).
 */
import type { Usage } from '../core/messages.js';
import { modelInfo, type ProviderName } from './models.js';
import { type ModelPrice, priceOf } from './prices.js';

/** One model's line in `modelUsage` (Claude Code's `result.modelUsage[<model>]`). */
export interface ModelUsageEntry {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  webSearchRequests: number;
  costUSD: number;
  contextWindow: number;
  maxOutputTokens: number;
}

/** Session totals in the shape of Claude Code's `result.usage`. */
export interface ResultUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
  server_tool_use: { web_search_requests: number; web_fetch_requests: number };
  service_tier: 'standard';
  cache_creation: { ephemeral_1h_input_tokens: number; ephemeral_5m_input_tokens: number };
}

/** What a transcript keeps to restore the totals on resume (Claude Code's `cost-state` fields). */
export interface CostState {
  totalCostUSD: number;
  modelUsage: Record<string, ModelUsageEntry>;
  hasUnknownModelCost: boolean;
  webFetchRequests: number;
}

/** USD for one response's usage at `price`. */
export function costOfUsage(usage: Usage, price: ModelPrice): number {
  return (
    (usage.input_tokens * price.inputPerMTok +
      usage.output_tokens * price.outputPerMTok +
      usage.cache_creation_input_tokens * price.cacheWritePerMTok +
      usage.cache_read_input_tokens * price.cacheReadPerMTok) /
    1_000_000
  );
}

function checkCount(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new TypeError(`usage.${name} must be a non-negative number (got ${String(value)})`);
  }
  return value;
}

export interface UsageAccumulatorOptions {
  /** Price rows that take precedence over the built-in table (keys: lower-case ids or `prefix*`). */
  extraPrices?: Readonly<Record<string, ModelPrice>>;
  /** Provider of the models added (for `contextWindow`/`maxOutputTokens` defaults). */
  provider?: ProviderName;
}

export interface AddUsageExtras {
  webSearchRequests?: number;
  webFetchRequests?: number;
}

/** Accumulates usage and cost over a session (and its subagents, through `merge`). */
export class UsageAccumulator {
  private readonly models = new Map<string, ModelUsageEntry>();
  private unknownCost = false;
  private webFetch = 0;

  constructor(private readonly options: UsageAccumulatorOptions = {}) {}

  /** Adds one response's usage for `model` (the wire id); returns that response's cost in USD. */
  add(model: string, usage: Usage, extras: AddUsageExtras = {}): number {
    const u: Usage = {
      input_tokens: checkCount('input_tokens', usage.input_tokens),
      output_tokens: checkCount('output_tokens', usage.output_tokens),
      cache_creation_input_tokens: checkCount(
        'cache_creation_input_tokens',
        usage.cache_creation_input_tokens,
      ),
      cache_read_input_tokens: checkCount('cache_read_input_tokens', usage.cache_read_input_tokens),
    };
    const price = priceOf(model, this.options.extraPrices);
    if (!price) this.unknownCost = true;
    const cost = price ? costOfUsage(u, price) : 0;
    const entry = this.entry(model);
    entry.inputTokens += u.input_tokens;
    entry.outputTokens += u.output_tokens;
    entry.cacheReadInputTokens += u.cache_read_input_tokens;
    entry.cacheCreationInputTokens += u.cache_creation_input_tokens;
    entry.webSearchRequests += checkCount('webSearchRequests', extras.webSearchRequests ?? 0);
    entry.costUSD += cost;
    this.webFetch += checkCount('webFetchRequests', extras.webFetchRequests ?? 0);
    return cost;
  }

  /** Adds another accumulator's totals (a subagent's) into this one. */
  merge(other: UsageAccumulator): void {
    this.mergeState(other.toState());
  }

  /** `total_cost_usd`: the sum of every model's cost. */
  get totalCostUsd(): number {
    let total = 0;
    for (const e of this.models.values()) total += e.costUSD;
    return total;
  }

  /** True once any model without a price was added. */
  get hasUnknownModelCost(): boolean {
    return this.unknownCost;
  }

  /** `result.usage`: totals over every model. Cache writes are all counted as 5-minute writes. */
  usage(): ResultUsage {
    let input = 0;
    let output = 0;
    let cacheRead = 0;
    let cacheWrite = 0;
    let webSearch = 0;
    for (const e of this.models.values()) {
      input += e.inputTokens;
      output += e.outputTokens;
      cacheRead += e.cacheReadInputTokens;
      cacheWrite += e.cacheCreationInputTokens;
      webSearch += e.webSearchRequests;
    }
    return {
      input_tokens: input,
      cache_creation_input_tokens: cacheWrite,
      cache_read_input_tokens: cacheRead,
      output_tokens: output,
      server_tool_use: { web_search_requests: webSearch, web_fetch_requests: this.webFetch },
      service_tier: 'standard',
      cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: cacheWrite },
    };
  }

  /** `result.modelUsage`: a copy, one entry per model in the order first used. */
  modelUsage(): Record<string, ModelUsageEntry> {
    const out: Record<string, ModelUsageEntry> = {};
    for (const [model, e] of this.models) out[model] = { ...e };
    return out;
  }

  /** The totals for a transcript (restore with `UsageAccumulator.fromState`). */
  toState(): CostState {
    return {
      totalCostUSD: this.totalCostUsd,
      modelUsage: this.modelUsage(),
      hasUnknownModelCost: this.unknownCost,
      webFetchRequests: this.webFetch,
    };
  }

  /** An accumulator holding `state`'s totals (a resumed session continues from them). */
  static fromState(state: CostState, options: UsageAccumulatorOptions = {}): UsageAccumulator {
    const acc = new UsageAccumulator(options);
    acc.mergeState(state);
    return acc;
  }

  private mergeState(state: CostState): void {
    for (const [model, e] of Object.entries(state.modelUsage)) {
      const mine = this.entry(model);
      mine.inputTokens += e.inputTokens;
      mine.outputTokens += e.outputTokens;
      mine.cacheReadInputTokens += e.cacheReadInputTokens;
      mine.cacheCreationInputTokens += e.cacheCreationInputTokens;
      mine.webSearchRequests += e.webSearchRequests;
      mine.costUSD += e.costUSD;
    }
    this.unknownCost ||= state.hasUnknownModelCost;
    this.webFetch += state.webFetchRequests ?? 0;
  }

  private entry(model: string): ModelUsageEntry {
    let e = this.models.get(model);
    if (!e) {
      const info = modelInfo(model, this.options.provider ?? 'anthropic');
      e = {
        inputTokens: 0,
        outputTokens: 0,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
        webSearchRequests: 0,
        costUSD: 0,
        contextWindow: info.contextWindow,
        maxOutputTokens: info.maxOutputTokens,
      };
      this.models.set(model, e);
    }
    return e;
  }
}
