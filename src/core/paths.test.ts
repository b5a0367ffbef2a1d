import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandPath, fsPathResolver, isNormalAbsolute, isPathInside, mapPathResolver } from './paths.js';

describe('expandPath', () => {
  it.each([
    ['~/x', '/home/u/x', 'tilde means home'],
    ['~', '/home/u', 'bare tilde is home'],
    ['a/../b', '/p/b', 'relative resolved against cwd, .. folded'],
    ['/abs/./y', '/abs/y', 'absolute normalised'],
    ['file:///etc/passwd', '/etc/passwd', 'file:// URL means its path'],
    ['/abs/y/', '/abs/y', 'trailing slash dropped'],
    ['//abs//y', '/abs/y', 'doubled slashes folded'],
    ['/abs/y/..', '/abs', 'trailing .. folded'],
    ['/abs/y/.', '/abs/y', 'trailing . folded'],
    ['/abs/~/y', '/abs/~/y', 'a ~ segment inside an absolute path is a name'],
    ['/abs/.hidden/..x', '/abs/.hidden/..x', 'names starting with dots stay'],
  ])('%s → %s (%s)', (input, out) => {
    expect(expandPath(input, { cwd: '/p', home: '/home/u' })).toBe(out);
  });
});

describe('isNormalAbsolute (the shortcut expandPath and the permission view take)', () => {
  it.each([
    ['/', true, 'the root'],
    ['/a/b.txt', true, 'plain absolute'],
    ['/a/..b/.c', true, 'dot-led names'],
    ['a/b', false, 'relative'],
    ['~/a', false, 'tilde'],
    ['/a//b', false, 'doubled slash'],
    ['/a/./b', false, '. segment'],
    ['/a/../b', false, '.. segment'],
    ['/a/.', false, 'trailing .'],
    ['/a/..', false, 'trailing ..'],
    ['/a/', false, 'trailing slash'],
    ['file:///a', false, 'a URL'],
  ])('%s → %s (%s)', (p, out) => {
    expect(isNormalAbsolute(p)).toBe(out);
    // whenever it says yes, path.resolve agrees the path is already normal
    if (out) expect(path.resolve('/cwd', p)).toBe(p);
  });
});

describe('isPathInside', () => {
  it.each([
    ['/p/project/a', '/p/project', true, 'child'],
    ['/p/project', '/p/project', true, 'itself'],
    ['/p/project-secrets/a', '/p/project', false, 'string prefix is not containment'],
    ['/p', '/p/project', false, 'parent is outside'],
    ['/p/project/../x', '/p/project', false, 'un-normalised escape'],
    ['/p/project/...', '/p/project', true, 'a file named ... is inside (red team: over-blocking)'],
    ['/p/project/..foo/x', '/p/project', true, 'a name starting with .. is inside'],
  ])('%s in %s → %s (%s)', (child, parent, out) => {
    expect(isPathInside(path.resolve(child), parent)).toBe(out);
  });
});

describe('resolvers', () => {
  it('map resolver follows a symlinked parent of a new file', () => {
    const r = mapPathResolver({ '/p/project/link': '/etc' });
    expect(r.realpath('/p/project/link/new.conf')).toBe('/etc/new.conf');
  });
  it('fs resolver follows a real symlinked parent of a file that does not exist', () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-paths-')));
    try {
      mkdirSync(path.join(root, 'out'));
      symlinkSync(path.join(root, 'out'), path.join(root, 'link'));
      expect(fsPathResolver.realpath(path.join(root, 'link', 'new.txt'))).toBe(
        path.join(root, 'out', 'new.txt'),
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
