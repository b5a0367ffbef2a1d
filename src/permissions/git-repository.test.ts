/**
 * git in another repository asks (git-repository.ts): the analysis states each git sub-command's
 * repository (`gitRepository`); the engine compares it with the working directories' repositories.
 * Hand-made descriptions (the analysis side is tested in src/shell), an injected repository map,
 * and the real filesystem lookup on temp directories. A reason per row.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mapPathResolver } from '../core/paths.js';
import type { GitRepositoryInfo, PermissionMode } from '../core/permission-types.js';
import { createPermissionEngine } from './engine.js';
import { fsRepositoryRoot } from './git-repository.js';
import { type InlineSettings, settingsFromRules } from './settings/from-rules.js';
import { bash, HOME, PROJECT, request, ro } from './test-support.js';

/** Which directories are repositories in this world. */
const REPOS = [PROJECT, `${PROJECT}/vendor/lib`, '/tmp/clone', '/work/lib'];
const rootOf = (dir: string) =>
  REPOS.filter((r) => dir === r || dir.startsWith(`${r}/`)).sort((a, b) => b.length - a.length)[0];

function decide(
  text: string,
  repo: GitRepositoryInfo,
  mode: PermissionMode = 'default',
  extra: Partial<InlineSettings> = {},
) {
  const engine = createPermissionEngine({
    settings: settingsFromRules({ projectRoot: PROJECT, home: HOME, ...extra }),
    resolver: mapPathResolver({}),
    repositoryRoot: rootOf,
  });
  return engine.decideSync(request('Bash', bash([ro(text, { gitRepository: repo })]), { mode }));
}

describe('git in another repository', () => {
  it.each([
    ['git status', { dir: PROJECT, via: 'cwd' }, 'allow', 'the project itself'],
    [
      'git -C src log',
      { dir: `${PROJECT}/src`, via: '-C' },
      'allow',
      'a directory of the project repository',
    ],
    [
      'git --git-dir=.git log',
      { dir: `${PROJECT}/.git`, via: '--git-dir' },
      'allow',
      "the project's own git dir",
    ],
    [
      'git -C /tmp/clone log',
      { dir: '/tmp/clone', via: '-C' },
      'ask',
      'a clone elsewhere: its config can run programs',
    ],
    ['git status', { dir: '/tmp/clone/sub', via: 'cwd' }, 'ask', 'after cd into another repository'],
    [
      'git -C vendor/lib status',
      { dir: `${PROJECT}/vendor/lib`, via: '-C' },
      'ask',
      'a nested repository inside the project',
    ],
    ['git log', { dir: '/tmp/evil/.git', via: 'GIT_DIR' }, 'ask', 'GIT_DIR points at another repository'],
    ['git log', { via: '-C' }, 'ask', 'the directory cannot be known (an expansion)'],
  ] as const)('%s in %j → %s (%s)', (text, repo, expected, _why) => {
    const d = decide(text, repo);
    expect(d.decision.behavior, d.decision.reason.message).toBe(expected);
    if (expected === 'ask') expect(d.decision.reason.checkId).toBe('GIT_OTHER_REPOSITORY');
  });

  it('an allow rule for the git sub-command does not answer another repository', () => {
    const d = decide('git -C /tmp/clone log', { dir: '/tmp/clone', via: '-C' }, 'default', {
      allow: ['Bash(git log:*)', 'Bash(git -C:*)'],
    });
    expect(d.decision.behavior).toBe('ask');
  });

  it('a repository of an additional working directory is the session’s own', () => {
    const d = decide('git -C /work/lib status', { dir: '/work/lib', via: '-C' }, 'default', {
      additionalDirectories: ['/work/lib'],
    });
    expect(d.decision.behavior).toBe('allow');
  });
});

describe('fsRepositoryRoot (real filesystem)', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'gantry-repo-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  it('finds the nearest ancestor with .git (a directory or a worktree file), else nothing', () => {
    mkdirSync(path.join(root, 'a', '.git'), { recursive: true });
    mkdirSync(path.join(root, 'a', 'b', 'c'), { recursive: true });
    mkdirSync(path.join(root, 'w'), { recursive: true });
    writeFileSync(path.join(root, 'w', '.git'), 'gitdir: /elsewhere\n');
    mkdirSync(path.join(root, 'none'), { recursive: true });
    const find = fsRepositoryRoot();
    expect(find(path.join(root, 'a', 'b', 'c'))).toBe(path.join(root, 'a'));
    expect(find(path.join(root, 'w'))).toBe(path.join(root, 'w'));
    const none = find(path.join(root, 'none'));
    expect(none === undefined || !none.startsWith(root)).toBe(true);
  });
});
