/**
 * The security corpus gates: on ../shared/data/security/cases.jsonl, 0 unsafe decisions
 * and at most 5% over-blocking on the benign (expected allow) cases. The corpus is loaded at test
 * time, never copied. Nothing is executed: Bash cases go through the shell analysis, file-tool
 * cases through the tools' own describers (what `gantry check` and the runtime use), in the corpus
 * world (mapPathResolver for symlinks).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CaseResult,
  evaluateCase,
  parseCases,
  scoreCase,
  summarise,
} from '../permissions/corpus/evaluate.js';
import { sharedFile } from '../testing/shared-data.js';
import { loadCorpusDescribers } from './shared/corpus-describers.js';

const corpus = sharedFile('data/security/cases.jsonl');

describe.skipIf(!corpus)('security corpus gates', () => {
  let results: CaseResult[] = [];
  beforeAll(async () => {
    const describers = await loadCorpusDescribers();
    const { cases, errors } = parseCases(readFileSync(corpus as string, 'utf8'));
    expect(errors).toEqual([]);
    results = cases.map((c) => evaluateCase(c, describers));
  });

  it('evaluates every case without an evaluation error', () => {
    expect(results.length).toBeGreaterThan(300);
    expect(results.filter((r) => r.error).map((r) => `${r.id}: ${r.error}`)).toEqual([]);
  });

  it('has 0 unsafe decisions', () => {
    const unsafe = results
      .filter((r) => r.failure === 'unsafe')
      .map((r) => `${r.id} [${r.class}] expected ${r.expected}, got ${r.decision}: ${r.reason}`);
    expect(unsafe).toEqual([]);
  });

  it('over-blocks at most 5% of the benign cases', () => {
    const s = summarise(results);
    const over = results
      .filter((r) => r.failure === 'over-blocking')
      .map((r) => `${r.id} [${r.class}] got ${r.decision}: ${r.reason}`);
    expect(s.overBlocking / s.benign, over.join('\n')).toBeLessThanOrEqual(0.05);
  });

  it('every decision carries a reason', () => {
    expect(results.filter((r) => r.reason.length < 10).map((r) => r.id)).toEqual([]);
  });
});

/**
 * Gantry's own variants of the corpus classes (written here, not copied): other spellings,
 * wrappers, globs, recursive reads, modes and file tools. Same gates, every case must pass.
 */
describe('gantry variants of the corpus classes', () => {
  const file = fileURLToPath(new URL('../permissions/corpus/gantry-variants.jsonl', import.meta.url));
  let results: CaseResult[] = [];
  beforeAll(async () => {
    const describers = await loadCorpusDescribers();
    const { cases, errors } = parseCases(readFileSync(file, 'utf8'));
    expect(errors).toEqual([]);
    results = cases.map((c) => evaluateCase(c, describers));
  });

  it('passes every variant (reason per case in its "why")', () => {
    const failed = results
      .filter((r) => !r.pass)
      .map(
        (r) => `${r.id} [${r.class}] ${r.failure}: expected ${r.expected}, got ${r.decision}: ${r.reason}`,
      );
    expect(results.length).toBeGreaterThan(300);
    expect(failed).toEqual([]);
  });
});

/**
 * Variants of the shell-analysis classes of docs/shell-analysis.md (written here): redirections on
 * every command kind, continuations, heredocs, wrappers with --, brace expansion, copies into
 * directories, shell state, arithmetic, program options, one-liners, hidden writes, read-only
 * additions and secrets, each with benign look-alikes. Every case must pass.
 */
describe('shell-analysis class variants', () => {
  const file = fileURLToPath(new URL('../permissions/corpus/shell-round2.jsonl', import.meta.url));
  let results: CaseResult[] = [];
  beforeAll(async () => {
    const describers = await loadCorpusDescribers();
    const { cases, errors } = parseCases(readFileSync(file, 'utf8'));
    expect(errors).toEqual([]);
    results = cases.map((c) => evaluateCase(c, describers));
  });

  it('passes every case (reason per case in its "why")', () => {
    const failed = results
      .filter((r) => !r.pass)
      .map(
        (r) => `${r.id} [${r.class}] ${r.failure}: expected ${r.expected}, got ${r.decision}: ${r.reason}`,
      );
    expect(results.length).toBeGreaterThan(100);
    expect(failed).toEqual([]);
  });
});

describe('scoreCase', () => {
  it.each([
    ['allow', undefined, 'allow', true, undefined, 'exact'],
    ['deny', ['ask'], 'ask', true, undefined, 'also_ok'],
    ['ask', undefined, 'allow', false, 'unsafe', 'allowed where ask was expected'],
    ['deny', undefined, 'ask', false, 'unsafe', 'ask where deny was expected'],
    ['allow', undefined, 'ask', false, 'over-blocking', 'benign case asked'],
    ['allow', undefined, 'deny', false, 'over-blocking', 'benign case denied'],
    ['ask', undefined, 'deny', false, 'stricter', 'deny where ask was expected'],
  ] as const)(
    'expected %s (also_ok %j), got %s → pass %s, %s (%s)',
    (expected, alsoOk, got, pass, failure, _why) => {
      const r = scoreCase({ expected, ...(alsoOk ? { also_ok: [...alsoOk] } : {}) }, got);
      expect(r.pass).toBe(pass);
      expect(r.failure).toBe(failure);
    },
  );
});
