import { describe, expect, it } from 'vitest';
import type { SubcommandInfo } from '../../core/index.js';
import { detectGitOperations, gitSubcommand } from './git-operations.js';

/** A sub-command as the shell analysis reports it (only the fields git detection reads matter). */
function sub(text: string): SubcommandInfo {
  const argv = text.split(' ');
  return {
    text,
    rawText: text,
    argv,
    program: argv[0]!,
    wrappers: [],
    envAssignments: [],
    readOnly: false,
    readOnlyReason: '',
    dynamicProgram: false,
    via: 'top',
  };
}

describe('gitSubcommand', () => {
  it.each([
    [['git', 'status'], 'status', 'plain'],
    [['git', '-C', 'repo', 'commit', '-m', 'x'], 'commit', '-C takes a value'],
    [['git', '--no-pager', '-c', 'a=b', 'push'], 'push', 'flags and -c value skipped'],
    [['/usr/bin/git', 'switch', 'main'], 'switch', 'path-qualified git'],
    [['gitk'], undefined, 'not git'],
  ])('%j → %s (%s)', (argv, name, _why) => {
    expect(gitSubcommand(argv)?.name).toBe(name);
  });
});

describe('detectGitOperations', () => {
  it.each([
    [
      ['git add a.ts', 'git commit -m fix'],
      '[main 1a2b3c4] fix\n 1 file changed, 1 insertion(+)\n',
      [{ kind: 'commit', branch: 'main', sha: '1a2b3c4', amend: false }],
      'commit with the sha git printed',
    ],
    [
      ['git commit --amend --no-edit'],
      '[feature/x (root-commit) abcdef0] msg\n',
      [{ kind: 'commit', branch: 'feature/x', sha: 'abcdef0', amend: true }],
      'amend, root commit marker',
    ],
    [
      ['git push origin main'],
      '',
      [{ kind: 'push', remote: 'origin', refspecs: ['main'], force: false }],
      'push with remote and refspec',
    ],
    [['git push -f'], '', [{ kind: 'push', refspecs: [], force: true }], 'force push, defaults'],
    [
      ['git checkout -b topic'],
      "Switched to a new branch 'topic'\n",
      [{ kind: 'branch-change', branch: 'topic', created: true }],
      'new branch from git output',
    ],
    [
      ['git switch main'],
      "Switched to branch 'main'\nYour branch is up to date.\n",
      [{ kind: 'branch-change', branch: 'main', created: false }],
      'existing branch',
    ],
    [['git checkout -- a.ts'], '', [], 'file checkout is not a branch change'],
    [['git merge feature'], '', [{ kind: 'merge', source: 'feature' }], 'merge'],
    [
      ['gh pr create --fill'],
      'https://github.com/o/r/pull/42\n',
      [{ kind: 'pr-create', url: 'https://github.com/o/r/pull/42' }],
      'pull request url',
    ],
    [['git status', 'ls'], '', [], 'read-only git reports nothing'],
  ])('%j → events (%s)', (subs, output, expected, _why) => {
    expect(detectGitOperations(subs.map(sub), output)).toEqual(expected);
  });
});
