import { describe, expect, it } from 'vitest';
import { RecentDecisions } from './session.js';

const d = (n: number) => ({ behavior: 'allow' as const, source: 'rule', toolName: `T${n}` });

describe("RecentDecisions (the session's decisions by tool_use id)", () => {
  it('keeps at least the last `half` and at most `2 × half` ids', () => {
    const r = new RecentDecisions(100);
    for (let i = 0; i < 1_000; i++) {
      r.set(`toolu_${i}`, d(i));
      expect(r.size).toBeLessThanOrEqual(200);
    }
    for (let i = 900; i < 1_000; i++) expect(r.get(`toolu_${i}`)).toEqual(d(i));
    expect(r.get('toolu_0')).toBeUndefined();
    expect(r.get('toolu_799')).toBeUndefined();
  });

  it('answers a re-recorded id with its newest decision, also across a generation change', () => {
    const r = new RecentDecisions(2);
    r.set('a', d(1));
    r.set('b', d(2));
    r.set('c', d(3)); // a, b move to the older generation
    r.set('a', d(4)); // newer than the older generation's entry
    expect(r.get('a')).toEqual(d(4));
    expect(r.size).toBe(3);
    r.set('e', d(5)); // the current generation (c, a) is full: it becomes the older one
    expect(r.get('a')).toEqual(d(4));
    expect(r.get('b')).toBeUndefined();
    expect(r.has('c')).toBe(true);
    expect(r.has('b')).toBe(false);
    expect([...r.entries()].map(([id]) => id)).toEqual(['c', 'a', 'e']);
  });
});
