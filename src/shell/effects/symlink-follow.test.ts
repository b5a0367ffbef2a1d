import { describe, expect, it } from 'vitest';
import { mapPathResolver } from '../../core/paths.js';
import { simple } from '../testing-helpers.js';
import { commandEffects, EffectSink } from './index.js';

function followsLinks(line: string): boolean {
  const sink = new EffectSink(
    { home: '/h', resolver: mapPathResolver({}), createdLinks: new Map() },
    '/p',
    0,
  );
  commandEffects(simple(line), sink);
  return sink.effects.some(
    (e) => e.kind === 'read' && e.certainty === 'unknown' && /symlink/.test(e.detail ?? ''),
  );
}

describe('recursive walks that follow symlinks are unknown reads', () => {
  it.each([
    ['grep -R token .', true, 'grep -R dereferences every link (K-1038)'],
    ['grep -rnR token src', true, 'R inside a bundle'],
    ['grep --dereference-recursive x', true, 'long form'],
    ['grep -r token .', false, 'grep -r skips links below the roots'],
    ['rg -L token', true, 'rg -L follows links (K-1039)'],
    ['rg --follow token', true, 'long form'],
    ['rg -l token', false, 'rg -l only lists'],
    ["find -L . -name '*.pem'", true, 'find -L (K-1040)'],
    ['find . -follow -name x', true, 'find -follow'],
    ['find . -name x', false, 'find does not follow by default'],
    ['du -shL h', true, 'du -L (K-1042)'],
    ['du -sh .', false, 'du without -L'],
    ['cp -rL src out', true, 'cp -rL copies link targets'],
    ['cp -L a b', false, 'cp -L without recursion: only the named operands'],
    ['grep -- -R x', false, 'after -- it is a pattern'],
  ])('%s → %s (%s)', (line, expected) => {
    expect(followsLinks(line)).toBe(expected);
  });
});
