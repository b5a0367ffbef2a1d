/**
 * BoundedMap (bounded-map.ts) against the `lru-cache` package it replaces on the start-up path:
 * the same operations, in generated sequences, give the same answers, the same sizes and the same
 * entries in the same recency order, with an entry bound, a size bound and a time to live.
 */
import { LRUCache } from 'lru-cache';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/seeded-random.js';
import { BoundedMap } from './bounded-map.js';

const rng = seededRandom;

type Config = { max: number; maxSize?: number; ttl?: number };

function pair(c: Config, clock: { t: number }) {
  const sizeOf = (v: string) => Math.max(1, v.length);
  const lru = new LRUCache<string, string>({
    max: c.max,
    ...(c.maxSize ? { maxSize: c.maxSize, sizeCalculation: sizeOf } : {}),
    ...(c.ttl ? { ttl: c.ttl, ttlResolution: 0, perf: { now: () => clock.t } } : {}),
  });
  const ours = new BoundedMap<string, string>({
    max: c.max,
    ...(c.maxSize ? { maxSize: c.maxSize, sizeOf } : {}),
    ...(c.ttl ? { ttlMs: c.ttl, now: () => clock.t } : {}),
  });
  return { lru, ours };
}

describe('BoundedMap answers as lru-cache does', () => {
  it.each([
    [{ max: 1 }, 'one entry: every new key evicts the last'],
    [{ max: 5 }, 'an entry bound only (the permission session)'],
    [
      { max: 8, maxSize: 20 },
      'an entry and a size bound (the read-file state), entries larger than maxSize too',
    ],
    [{ max: 6, ttl: 10 }, 'an entry bound and a time to live (the recent analyses)'],
    [{ max: 4, maxSize: 9, ttl: 5 }, 'all three bounds at once'],
  ] as [Config, string][])('%j (%s)', (config, _reason) => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = rng(seed);
      const clock = { t: 1000 };
      const { lru, ours } = pair(config, clock);
      const log: string[] = [];
      for (let step = 0; step < 300; step++) {
        const key = `k${Math.floor(next() * 10)}`;
        const op = next();
        if (op < 0.4) {
          const value = 'v'.repeat(1 + Math.floor(next() * 12));
          log.push(`set ${key} ${value.length}`);
          lru.set(key, value);
          ours.set(key, value);
        } else if (op < 0.65) {
          log.push(`get ${key}`);
          expect(ours.get(key), log.join('; ')).toBe(lru.get(key));
        } else if (op < 0.8) {
          log.push(`has ${key}`);
          expect(ours.has(key), log.join('; ')).toBe(lru.has(key));
        } else if (op < 0.9) {
          log.push(`delete ${key}`);
          expect(ours.delete(key), log.join('; ')).toBe(lru.delete(key));
        } else if (op < 0.93) {
          log.push('clear');
          lru.clear();
          ours.clear();
        } else {
          const dt = Math.floor(next() * 4);
          log.push(`tick ${dt}`);
          clock.t += dt;
        }
        // live entries, least recent first, on both sides
        expect([...ours.entries()], log.join('; ')).toEqual([...lru.rentries()]);
        if (!config.ttl) expect(ours.size, log.join('; ')).toBe(lru.size);
      }
    }
  });

  it('keeps the recency order over many evictions (the evicting iterator lives across table compactions)', () => {
    // Evictions take the oldest key from one long-lived iterator (bounded-map.ts `oldestKey`);
    // thousands of sets, gets and deletes over a key space three times the bound make the Map
    // compact its table many times under that iterator.
    const next = rng(11);
    const lru = new LRUCache<string, number>({ max: 200 });
    const ours = new BoundedMap<string, number>({ max: 200 });
    for (let step = 0; step < 20_000; step++) {
      const key = `k${Math.floor(next() * 600)}`;
      const op = next();
      if (op < 0.55) {
        lru.set(key, step);
        ours.set(key, step);
      } else if (op < 0.85) expect(ours.get(key)).toBe(lru.get(key));
      else if (op < 0.999) expect(ours.delete(key)).toBe(lru.delete(key));
      else {
        lru.clear();
        ours.clear();
      }
      if (step % 500 === 0) expect([...ours.entries()]).toEqual([...lru.rentries()]);
    }
    expect([...ours.entries()]).toEqual([...lru.rentries()]);
  });

  it('an entry exactly at its time to live is still there; one millisecond later it is gone', () => {
    // (lru-cache takes a start time of 0 for "no time to live": the clock starts later)
    const clock = { t: 500 };
    const { lru, ours } = pair({ max: 3, ttl: 10 }, clock);
    lru.set('a', 'x');
    ours.set('a', 'x');
    clock.t = 510;
    expect([ours.get('a'), ours.has('a')]).toEqual([lru.get('a'), lru.has('a')]);
    expect(ours.get('a')).toBe('x');
    clock.t = 511;
    expect([ours.get('a'), ours.has('a')]).toEqual([lru.get('a'), lru.has('a')]);
    expect(ours.get('a')).toBeUndefined();
  });

  it('refuses bounds that would make it unbounded or empty', () => {
    expect(() => new BoundedMap({ max: 0 })).toThrow(RangeError);
    expect(() => new BoundedMap({ max: 1.5 })).toThrow(RangeError);
    expect(() => new BoundedMap({ max: Number.POSITIVE_INFINITY })).toThrow(RangeError);
    expect(() => new BoundedMap({ max: 2, maxSize: 0, sizeOf: () => 1 })).toThrow(RangeError);
    expect(() => new BoundedMap({ max: 2, maxSize: 5 })).toThrow(TypeError);
    expect(() => new BoundedMap({ max: 2, ttlMs: 0 })).toThrow(RangeError);
    const m = new BoundedMap<string, string>({ max: 2, maxSize: 5, sizeOf: () => 0 });
    expect(() => m.set('a', 'b')).toThrow(TypeError);
  });

  it('keys a prototype name like any other key', () => {
    const m = new BoundedMap<string, number>({ max: 3 });
    for (const k of ['__proto__', 'constructor', 'toString']) m.set(k, k.length);
    expect([...m.keys()]).toEqual(['__proto__', 'constructor', 'toString']);
    expect(m.get('__proto__')).toBe(9);
    expect(m.has('valueOf')).toBe(false);
  });
});
