import { describe, expect, it } from 'vitest';
import { effectiveMaxResultSizeChars, resolveMaxToolUseConcurrency } from './limits.js';

describe('resolveMaxToolUseConcurrency', () => {
  it.each([
    [undefined, {}, 10, 'default'],
    [undefined, { GANTRY_MAX_TOOL_USE_CONCURRENCY: '25' }, 25, 'env override'],
    [undefined, { GANTRY_MAX_TOOL_USE_CONCURRENCY: ' 4 ' }, 4, 'surrounding spaces are ignored'],
    [undefined, { GANTRY_MAX_TOOL_USE_CONCURRENCY: '0' }, 10, 'zero would deadlock: default'],
    [undefined, { GANTRY_MAX_TOOL_USE_CONCURRENCY: '-3' }, 10, 'negative: default'],
    [undefined, { GANTRY_MAX_TOOL_USE_CONCURRENCY: '2.5' }, 10, 'fraction: default'],
    [7, { GANTRY_MAX_TOOL_USE_CONCURRENCY: '25' }, 7, 'explicit wins'],
  ])('explicit %s, env %j → %i (%s)', (explicit, env, expected, _reason) => {
    expect(resolveMaxToolUseConcurrency(explicit, env)).toBe(expected);
  });

  it.each([
    [0, 'zero would never run anything'],
    [-1, 'negative is meaningless'],
    [1.5, 'a fraction of a call is meaningless'],
    [Number.NaN, 'NaN is a caller bug'],
  ])('throws RangeError for an explicit %s (%s)', (explicit, _reason) => {
    expect(() => resolveMaxToolUseConcurrency(explicit, {})).toThrow(RangeError);
  });
});

describe('effectiveMaxResultSizeChars', () => {
  it.each([
    [100_000, 50_000, 'clamped to the global cap'],
    [30_000, 30_000, 'a smaller cap is kept'],
    [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, 'Infinity means never spill'],
    [Number.NaN, 50_000, 'NaN falls back to the global cap'],
    [0, 50_000, 'zero falls back to the global cap'],
    [undefined, 50_000, 'missing falls back to the global cap'],
  ])('%s → %s (%s)', (declared, expected, _reason) => {
    expect(effectiveMaxResultSizeChars(declared)).toBe(expected);
  });
});
