import { describe, expect, it } from 'vitest';
import { globsOverlap, segmentsOverlap } from './glob-overlap.js';

describe('segmentsOverlap (shell glob vs rule glob)', () => {
  it.each([
    ['s*', 'secrets', true, 'prefix star'],
    ['s*', '*s', true, 'two stars can meet (ss)'],
    ['*.md', '*.env', false, 'different literal suffixes'],
    ['.e*', '.env', true, 'dot-glob names the dot-file'],
    ['*', '.env', false, 'bash * skips dot-files'],
    ['?env', '.env', false, 'bash ? skips a leading dot'],
    ['[.]env', '.env', false, 'bash: a bracket class never matches a leading dot'],
    ['e[nx]v', 'env', true, 'a class is treated as any character (over-approximation)'],
    ['secre?s', 'secrets', true, 'question mark'],
    ['a*b', 'a*c', false, 'different last characters'],
  ])('%s vs %s → %s (%s)', (a, b, expected, _why) => {
    expect(segmentsOverlap(a, b, true, false)).toBe(expected);
  });
});

describe('globsOverlap (paths)', () => {
  it.each([
    ['/p/s*/k', '/p/secrets/**', true, 'glob directory under a denied tree'],
    ['/p/.e*', '/p/.env', true, 'dot-glob names the denied file'],
    ['/p/*', '/p/.env', false, 'a plain star cannot name a dot-file'],
    ['/p/*', '/**/*.env', true, 'any-depth rule: prod.env could be named'],
    ['/p/docs/*.md', '/**/*.env', false, 'incompatible extensions'],
    ['/p/secrets/*', '/p/secrets', true, 'the rule covers the directory and its contents'],
    ['/p/src/*', '/p/secrets/**', false, 'a different directory'],
    ['/p/*/api.key', '/p/secrets/api.key', true, 'glob in a middle segment'],
    ['/p/*/x/y', '/p/a', true, 'the rule covers an ancestor the glob descends through'],
  ])('%s vs %s → %s (%s)', (shell, rule, expected, _why) => {
    expect(globsOverlap(shell, rule)).toBe(expected);
  });
});
