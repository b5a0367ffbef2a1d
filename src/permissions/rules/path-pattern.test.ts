import { describe, expect, it } from 'vitest';
import type { PermissionBehavior } from '../../core/permission-types.js';
import { anchorPathPattern, compilePathPattern } from './path-pattern.js';

const anchors = { home: '/home/user', cwd: '/home/user/project', root: '/home/user/project' };

describe('anchorPathPattern', () => {
  it.each([
    ['//etc/passwd', 'deny', '/etc/passwd', '// is the filesystem root'],
    ['~/private/**', 'deny', '/home/user/private/**', '~/ is home'],
    ['~', 'deny', '/home/user', 'bare ~'],
    ['/secrets/**', 'deny', '/home/user/project/secrets/**', 'single / is the source root'],
    ['./.env', 'deny', '/home/user/project/.env', './ is the cwd'],
    ['src/a/**', 'allow', '/home/user/project/src/a/**', 'relative with a slash is the cwd'],
    ['.env', 'deny', '/**/.env', 'no slash: any depth'],
    ['*.env', 'deny', '/**/*.env', 'glob without slash: any depth'],
    ['src/**', 'allow', '/home/user/project/src/**', 'single-segment dir in allow: at the cwd'],
    [
      'src/**',
      'deny',
      '/**/src/**',
      'single-segment dir in deny: any depth (the Claude Code permissions docs)',
    ],
    ['build/', 'allow', '/home/user/project/build/**', 'trailing slash means the directory'],
    ['**', 'deny', '/**', 'everything'],
    ['C:\\Users\\x', 'deny', '/c/Users/x', 'Windows paths normalise to POSIX'],
  ])('%s (%s) → %s (%s)', (pattern, behavior, glob) => {
    expect(anchorPathPattern(pattern, behavior as PermissionBehavior, anchors)).toBe(glob);
  });

  it('escapes glob characters in the anchor directory', () => {
    expect(anchorPathPattern('./x', 'deny', { ...anchors, cwd: '/p/[weird]' })).toBe('/p/\\[weird\\]/x');
  });
});

describe('compilePathPattern', () => {
  it.each([
    ['./secrets/**', '/home/user/project/secrets/api.key', true, 'under the directory'],
    [
      './secrets',
      '/home/user/project/secrets/api.key',
      true,
      'a directory pattern covers its contents (gitignore)',
    ],
    ['.env', '/home/user/project/sub/.env', true, 'bare name at any depth'],
    ['.env', '/home/user/project/.env.example', false, 'exact name only'],
    ['*.env', '/home/user/project/.env', true, 'star matches dot-files'],
    ['./src/*.ts', '/home/user/project/src/a/b.ts', false, '* stays within one segment'],
    ['./src/**/*.ts', '/home/user/project/src/a/b.ts', true, '** spans segments'],
    ['/etc/passwd', '/etc/passwd', false, 'single / is relative to the source root, not absolute'],
    ['//etc/passwd', '/etc/passwd', true, 'double slash is absolute'],
    ['~/.ssh/**', '/home/user/.ssh/id_rsa', true, 'home anchored'],
    ['./project', '/home/user/project-secrets/x', false, 'no string-prefix matching'],
  ])('%s matches %s → %s (%s)', (pattern, p, expected) => {
    expect(compilePathPattern(pattern, 'deny', anchors).test(p)).toBe(expected);
  });

  it('root "/" makes /x absolute (security corpus world)', () => {
    expect(compilePathPattern('/etc/passwd', 'deny', { ...anchors, root: '/' }).test('/etc/passwd')).toBe(
      true,
    );
  });
});
