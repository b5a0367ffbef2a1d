import { describe, expect, it } from 'vitest';
import { matchProtectedPath, protectedNameMatches } from './protected-paths.js';

describe('matchProtectedPath', () => {
  it.each<[string, string, string | undefined, string]>([
    ['/p/.bashrc', '.bashrc', '/p/.bashrc', 'shell rc file at the project root'],
    ['/home/u/.zshrc', '.zshrc', '/home/u/.zshrc', 'shell rc file in home'],
    ['/p/.git/config', '.git', '/p/.git', 'inside .git: the directory entry wins'],
    ['/p/sub/.git/hooks/pre-commit', '.git', '/p/sub/.git', 'nested repository'],
    ['/p/.env.local', '.env*', '/p/.env.local', '.env prefix pattern'],
    ['/home/u/.config/git/config', '.config/git', '/home/u/.config/git', 'two-segment directory entry'],
    ['/p/.claude/settings.json', '.claude', '/p/.claude', 'agent settings'],
    ['/home/u/.ssh/id_rsa', '.ssh', '/home/u/.ssh', 'ssh material'],
    [
      '/p/gradle/wrapper/gradle-wrapper.properties',
      'gradle-wrapper.properties',
      undefined,
      'base name anywhere',
    ],
  ])('%s → %s (%s)', (input, name, protectedPath) => {
    const m = matchProtectedPath(input);
    expect(m?.entry.name).toBe(name);
    if (protectedPath) expect(m?.protectedPath).toBe(protectedPath);
  });

  it.each([
    ['/p/src/index.ts', 'ordinary source file'],
    ['/p/.claude/worktrees/feature/file.ts', '.claude/worktrees is the documented exception'],
    ['/p/git/config', 'a directory named git (no dot) is not .git'],
    ['/p/.github/workflows/ci.yml', '.github is not in the list'],
    ['/p/environment.ts', 'does not start with .env'],
    ['/', 'root'],
  ])('%s is not protected (%s)', (input) => {
    expect(matchProtectedPath(input)).toBeUndefined();
  });
});

describe('protectedNameMatches', () => {
  it.each([
    ['.env*', '.env', true, 'prefix pattern matches the bare name'],
    ['.env*', '.env.production', true, 'prefix pattern matches a suffix'],
    ['.env*', 'x.env', false, 'prefix must be at the start'],
    ['.env*', '.env.example', false, 'template variant holds placeholders'],
    ['.env*', '.env.sample.local', false, 'template variant with a suffix'],
    ['.npmrc', '.npmrc', true, 'exact'],
    ['.npmrc', '.npmrc.bak', false, 'exact names do not match suffixes'],
  ])('%s vs %s → %s (%s)', (entry, base, expected) => {
    expect(protectedNameMatches(entry, base)).toBe(expected);
  });
});
