/**
 * git run against another repository than the project's own (docs/security-round-2.md "git in
 * another repository"): a repository's configuration can name programs git runs even for
 * read-only sub-commands (`core.fsmonitor`, `core.pager`, `diff.external`, hooks), so `cd ../x &&
 * git status`, `git -C /tmp/clone log` and `GIT_DIR=… git …` ask unless the repository is the one
 * of a working directory. The shell analysis states each git sub-command's repository
 * (`SubcommandInfo.gitRepository`); this decides whether it is the project's.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { DecisionReason, SubcommandInfo } from '../core/permission-types.js';

/** Finds the repository a directory belongs to: the nearest ancestor holding `.git` (or undefined). */
export type RepositoryRootOf = (dir: string) => string | undefined;

/** The real filesystem's answer, memoised per directory (bounded). */
export function fsRepositoryRoot(): RepositoryRootOf {
  const cache = new Map<string, string | null>();
  return (dir) => {
    const hit = cache.get(dir);
    if (hit !== undefined) return hit ?? undefined;
    let d = path.resolve(dir);
    let found: string | null = null;
    for (;;) {
      if (existsSync(path.join(d, '.git'))) {
        found = d;
        break;
      }
      const up = path.dirname(d);
      if (up === d) break;
      d = up;
    }
    if (cache.size > 1024) cache.clear();
    cache.set(dir, found);
    return found ?? undefined;
  };
}

/** The repository directory git uses for `info`: a work-tree root, or the git dir itself. */
function repositoryOf(
  info: NonNullable<SubcommandInfo['gitRepository']>,
  rootOf: RepositoryRootOf,
): string | undefined {
  if (!info.dir) return undefined;
  if (info.via === '--git-dir' || info.via === 'GIT_DIR')
    return path.basename(info.dir) === '.git' ? path.dirname(info.dir) : info.dir;
  return rootOf(info.dir);
}

/**
 * The first git sub-command that runs in a repository other than a working directory's, as an
 * ask reason; undefined when every git call stays in the project's repositories.
 */
export function otherRepositoryReason(
  subcommands: readonly SubcommandInfo[],
  workingDirs: readonly string[],
  rootOf: RepositoryRootOf,
): DecisionReason | undefined {
  let own: Set<string | undefined> | undefined;
  for (const sub of subcommands) {
    const info = sub.gitRepository;
    if (!info) continue;
    own ??= new Set(workingDirs.map((d) => rootOf(d)));
    const repo = repositoryOf(info, rootOf);
    // No repository anywhere above a working directory and none for the call: git has no config to run.
    if (info.dir !== undefined && own.has(repo)) continue;
    const where = info.dir
      ? `${info.dir}${info.via === 'cwd' ? '' : ` (${info.via})`}`
      : `a directory that cannot be determined (${info.via})`;
    return {
      type: 'check',
      checkId: 'GIT_OTHER_REPOSITORY',
      message: `Needs approval: "${sub.text}" runs git in another repository than the project's, ${where}; a repository's configuration can make git run programs (core.fsmonitor, core.pager, hooks) even for read-only commands.`,
    };
  }
  return undefined;
}
