/**
 * Every git sub-command says which repository it runs against (docs/shell-analysis.md "git in
 * another repository"): a repository's config can run programs during read-only commands, so the
 * permission engine asks unless it is the project's own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mapPathResolver } from '../../core/paths.js';
import type { GitRepositoryInfo } from '../../core/permission-types.js';
import { analyzeCommand } from '../analyze.js';
import { initShellParser } from '../parser.js';

beforeAll(async () => {
  await initShellParser();
});

const opts = { cwd: '/p', home: '/h', resolver: mapPathResolver({ '/p/linked': '/elsewhere/repo' }) };

function repos(command: string): (GitRepositoryInfo | undefined)[] {
  return analyzeCommand(command, opts)
    .subcommands.filter((s) => s.program === 'git' || s.program.endsWith('/git'))
    .map((s) => s.gitRepository);
}

describe('the repository of each git call', () => {
  it.each<[string, GitRepositoryInfo, string]>([
    ['git status', { via: 'cwd', dir: '/p' }, 'the project itself'],
    ['git -C sub log', { via: '-C', dir: '/p/sub' }, '-C relative to the cwd'],
    ['git -C ../other log', { via: '-C', dir: '/other' }, '-C outside the project'],
    ['git -C a -C b log', { via: '-C', dir: '/p/a/b' }, 'several -C compose'],
    ['cd /tmp/x && git log', { via: 'cwd', dir: '/tmp/x' }, 'a cd before git'],
    ['cd ~ && git status', { via: 'cwd', dir: '/h' }, 'the home directory'],
    ['cd linked && git status', { via: 'cwd', dir: '/elsewhere/repo' }, 'a symlinked directory is resolved'],
    ['GIT_DIR=/tmp/e/.git git log', { via: 'GIT_DIR', dir: '/tmp/e/.git' }, 'GIT_DIR prefix'],
    ['export GIT_DIR=/tmp/e; git log', { via: 'GIT_DIR', dir: '/tmp/e' }, 'GIT_DIR exported earlier'],
    ['git --git-dir=/x/.git log', { via: '--git-dir', dir: '/x/.git' }, '--git-dir='],
    ['git --git-dir /x/.git log', { via: '--git-dir', dir: '/x/.git' }, '--git-dir VALUE'],
    ['git --work-tree=/y status', { via: 'cwd', dir: '/p', workTree: '/y' }, '--work-tree'],
    ['GIT_WORK_TREE=/y git status', { via: 'cwd', dir: '/p', workTree: '/y' }, 'GIT_WORK_TREE'],
    ['git --work-tree $W status', { via: 'cwd', dir: '/p', workTree: 'unknown' }, 'an expanded work tree'],
    ['timeout 5 git log', { via: 'cwd', dir: '/p' }, 'behind a wrapper'],
  ])('%s → %j (%s)', (command, expected) => {
    expect(repos(command)).toEqual([expected]);
  });

  it.each([
    ['cd "$D" && git log', 'cd to an expansion'],
    ['git -C "$D" log', '-C with an expansion'],
    ['GIT_DIR=$X git log', 'GIT_DIR from an expansion'],
  ])('%s: the directory is unknown (%s)', (command) => {
    const [r] = repos(command);
    expect(r).toBeDefined();
    expect(r?.dir).toBeUndefined();
  });

  it('other programs carry no repository', () => {
    const a = analyzeCommand('ls && cat x', opts);
    expect(a.subcommands.every((s) => s.gitRepository === undefined)).toBe(true);
  });
});
