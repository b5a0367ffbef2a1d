/**
 * Auto mode with a worst-case classifier model (it rates every call LOW, both passes) on the
 * shared security cases: nothing that must be denied — deny rules, protected writes, the
 * destructive floor — is ever allowed, because the engine decides those before it asks the
 * classifier. The figures for the should-ask cases are what a fully compromised classifier could
 * let through; `npm run bench auto-mode` prints them.
 */
import { describe, expect, it } from 'vitest';
import { measureAutoModeCorpus } from '../../src/testing/auto-mode-corpus.js';
import { sharedFile } from '../../src/testing/shared-data.js';

const corpus = sharedFile('data/security/cases.jsonl');

describe.skipIf(!corpus)('auto mode with a classifier model that always says LOW', () => {
  it('allows none of the cases that must be denied, and keeps the built-in HIGH floor', async () => {
    const withFloor = await measureAutoModeCorpus(corpus as string, 'model-worst-case');
    expect(withFloor.cases).toBeGreaterThan(300);
    expect(withFloor.mustDenyAllowed.map((r) => `${r.id} [${r.class}]: ${r.reason}`)).toEqual([]);
    expect(withFloor.classifierRequests).toBeGreaterThan(0);
    const noFloor = await measureAutoModeCorpus(corpus as string, 'model-worst-case-no-floor');
    expect(noFloor.mustDenyAllowed).toEqual([]);
    // The floor can only keep more of the should-ask cases from being allowed.
    expect(withFloor.shouldAskAllowed.length).toBeLessThanOrEqual(noFloor.shouldAskAllowed.length);
  }, 120_000);
});
