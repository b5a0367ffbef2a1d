import { describe, expect, it } from 'vitest';
import { recursiveRead, ruleCertainlyBelow } from './recursive-reads.js';
import { sub } from './test-support.js';

describe('recursiveRead', () => {
  it.each([
    ['grep -r KEY .', { hidden: true }, 'grep -r'],
    ['grep -rn KEY .', { hidden: true }, 'bundled -rn'],
    ['grep -d recurse KEY .', { hidden: true }, '-d recurse'],
    ['grep -n KEY file', undefined, 'plain grep reads its operands only'],
    ['rg KEY', { hidden: false }, 'rg recurses but skips dot-files'],
    ['rg -uu KEY', { hidden: true }, 'rg -uu reads hidden files'],
    ['tar czf x.tgz .', { hidden: true }, 'tar create'],
    ['tar -xzf x.tgz', undefined, 'tar extract reads the archive only'],
    ['cp -a . /tmp/x', { hidden: true }, 'cp -a copies the tree'],
    ['cp a b', undefined, 'plain cp'],
    ['zip -r x.zip .', { hidden: true }, 'zip -r'],
    ['ls -R .', undefined, 'listing names is not reading contents'],
  ])('%s → %j (%s)', (text, expected, _why) => {
    expect(recursiveRead(sub(text))).toEqual(expected);
  });
});

describe('ruleCertainlyBelow', () => {
  it.each([
    ['/p/.env', '/p', true, '/p/.env', 'literal rule path below the directory'],
    ['/p/.env', '/p', false, undefined, 'a dot-file is skipped by readers that skip hidden files'],
    ['/p/secrets/**', '/p', true, '/p/secrets', 'a denied tree below the directory'],
    ['/**/.env', '/p/src', true, '/p/src/.env', 'a literal any-depth name sits directly inside'],
    ['/**/*.env', '/p', true, undefined, 'a glob name is only possible, not certain'],
    ['/p/.env', '/p/src', true, undefined, 'not below the directory'],
    ['/p', '/p', true, undefined, 'the directory itself is the plain read, not this check'],
  ])('%s under %s (hidden %s) → %s (%s)', (rule, dir, hidden, expected, _why) => {
    expect(ruleCertainlyBelow(rule, dir, hidden)).toBe(expected);
  });
});
