/**
 * Cost accounting: the price table and the accumulator reproduce Claude Code's `total_cost_usd` and
 * `modelUsage` figures from a real stream-json transcript, and unknown models are flagged.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedFile } from '../testing/shared-data.js';
import { costOfUsage, UsageAccumulator } from './cost.js';
import { modelInfo, normalizeModelId } from './models.js';
import { priceOf } from './prices.js';

const usage = (input: number, output: number, cacheWrite = 0, cacheRead = 0) => ({
  input_tokens: input,
  output_tokens: output,
  cache_creation_input_tokens: cacheWrite,
  cache_read_input_tokens: cacheRead,
});

describe('prices', () => {
  it.each([
    { model: 'claude-sonnet-4-5-20250929', input: 3, why: 'dated id matches its family row' },
    { model: 'claude-3-5-haiku-20241022', input: 0.8, why: 'older dated id' },
    { model: 'CLAUDE-OPUS-4-5', input: 5, why: 'ids are case-insensitive' },
    { model: 'claude-sonnet-4-5[1m]', input: 3, why: 'bracketed variant stripped' },
    { model: 'gpt-4o-2024-08-06', input: 2.5, why: 'OpenAI dashed date suffix stripped' },
    { model: 'gpt-4o-mini', input: 0.15, why: 'exact key wins over a shorter one' },
  ])('$model → $input $/MTok input ($why)', ({ model, input }) => {
    expect(priceOf(model)?.inputPerMTok).toBe(input);
  });

  it('Anthropic cache writes cost 1.25× input and reads 0.1× input', () => {
    const p = priceOf('claude-sonnet-4-5')!;
    expect(p.cacheWritePerMTok).toBeCloseTo(3.75, 10);
    expect(p.cacheReadPerMTok).toBeCloseTo(0.3, 10);
    expect(costOfUsage(usage(1_000_000, 0), p)).toBeCloseTo(3, 10);
    expect(costOfUsage(usage(0, 1_000_000), p)).toBeCloseTo(15, 10);
  });

  it('an unpriced model is undefined, unless the caller supplies a row', () => {
    expect(priceOf('llama-3.1-8b-instruct')).toBeUndefined();
    expect(
      priceOf('llama-3.1-8b-instruct', {
        'llama-3.1*': { inputPerMTok: 0.1, outputPerMTok: 0.1, cacheWritePerMTok: 0.1, cacheReadPerMTok: 0 },
      })?.inputPerMTok,
    ).toBe(0.1);
  });
});

describe('UsageAccumulator', () => {
  it('sums per model, reports Claude Code shapes, and flags an unknown model (cost 0, tokens counted)', () => {
    const acc = new UsageAccumulator();
    const c1 = acc.add('claude-sonnet-4-5', usage(100, 200, 1000, 5000));
    acc.add('claude-sonnet-4-5', usage(10, 20, 0, 6000));
    const c3 = acc.add('local-model', usage(50, 5));
    expect(c1).toBeCloseTo((100 * 3 + 200 * 15 + 1000 * 3.75 + 5000 * 0.3) / 1e6, 12);
    expect(c3).toBe(0);
    expect(acc.hasUnknownModelCost).toBe(true);
    const mu = acc.modelUsage();
    expect(Object.keys(mu)).toEqual(['claude-sonnet-4-5', 'local-model']);
    expect(mu['claude-sonnet-4-5']).toMatchObject({
      inputTokens: 110,
      outputTokens: 220,
      cacheReadInputTokens: 11_000,
      cacheCreationInputTokens: 1000,
      webSearchRequests: 0,
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
    });
    expect(mu['local-model']!.costUSD).toBe(0);
    expect(acc.usage()).toEqual({
      input_tokens: 160,
      cache_creation_input_tokens: 1000,
      cache_read_input_tokens: 11_000,
      output_tokens: 225,
      server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
      service_tier: 'standard',
      cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 1000 },
    });
    expect(acc.totalCostUsd).toBeCloseTo(mu['claude-sonnet-4-5']!.costUSD, 12);
  });

  it('round-trips through its state and merges a subagent’s totals', () => {
    const parent = new UsageAccumulator();
    parent.add('claude-haiku-4-5', usage(1000, 100));
    const child = new UsageAccumulator();
    child.add('claude-haiku-4-5', usage(500, 50));
    child.add('mystery', usage(1, 1));
    parent.merge(child);
    const restored = UsageAccumulator.fromState(JSON.parse(JSON.stringify(parent.toState())));
    expect(restored.modelUsage()).toEqual(parent.modelUsage());
    expect(restored.totalCostUsd).toBeCloseTo((1500 * 1 + 150 * 5) / 1e6, 12);
    expect(restored.hasUnknownModelCost).toBe(true);
  });

  it('rejects usage figures that are negative or not numbers', () => {
    const acc = new UsageAccumulator();
    expect(() => acc.add('claude-haiku-4-5', usage(-1, 0))).toThrow(TypeError);
    expect(() => acc.add('claude-haiku-4-5', usage(Number.NaN, 0))).toThrow(/input_tokens/);
  });

  const transcript = sharedFile(
    'data/real/transcripts/hive-mind/stream-json-3b09acec-2c2f-4d29-bfe8-77480cedc28b.jsonl',
  );
  it.skipIf(!transcript)('reproduces the costUSD and total_cost_usd a real Claude Code run reported', () => {
    const lines = readFileSync(transcript!, 'utf8').split('\n').filter(Boolean);
    const result = lines.map((l) => JSON.parse(l)).find((e) => e.type === 'result' && e.modelUsage);
    expect(result).toBeDefined();
    const acc = new UsageAccumulator();
    for (const [model, u] of Object.entries(result.modelUsage as Record<string, any>)) {
      acc.add(
        model,
        usage(u.inputTokens, u.outputTokens, u.cacheCreationInputTokens, u.cacheReadInputTokens),
      );
      expect(acc.modelUsage()[model]!.costUSD).toBeCloseTo(u.costUSD, 9);
    }
    expect(acc.totalCostUsd).toBeCloseTo(result.total_cost_usd, 9);
    expect(acc.hasUnknownModelCost).toBe(false);
  });
});

describe('modelInfo', () => {
  it('knows aliases and families, and gives defaults for unknown models', () => {
    expect(modelInfo('opus')).toEqual({ contextWindow: 1_000_000, maxOutputTokens: 128_000, known: true });
    expect(modelInfo('claude-haiku-4-5-20251001').known).toBe(true);
    expect(modelInfo('some-local-model', 'openai')).toEqual({
      contextWindow: 128_000,
      maxOutputTokens: 8_192,
      known: false,
    });
    expect(normalizeModelId(' Claude-Sonnet-4-5-20250929 ')).toBe('claude-sonnet-4-5');
  });
});
