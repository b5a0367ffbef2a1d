/**
 * Which repository a git command runs against, for vcs.ts: `--git-dir`, then `GIT_DIR` (a prefix
 * assignment or one made earlier in the line), then the directory after `-C` and `cd`; and the
 * work tree from `--work-tree` or `GIT_WORK_TREE` (GitRepositoryInfo). Source: git(1) "OPTIONS"
 * and "ENVIRONMENT VARIABLES".
 */
import type { GitRepositoryInfo } from '../../core/permission-types.js';
import type { SimpleCommand, Word } from '../types.js';
import type { EffectSink, PathInput } from './sink.js';

/** Values of `--git-dir`/`--work-tree` among git's global options (`--opt=V` or `--opt V`). */
function globalValue(args: readonly Word[], end: number, name: string): PathInput | undefined {
  let found: PathInput | undefined;
  for (let i = 0; i < end; i++) {
    const w = args[i] as Word;
    if (w.text.startsWith(`${name}=`)) {
      const v = w.text.slice(name.length + 1);
      found = { ...w, text: v, raw: v };
    } else if (w.text === name && args[i + 1]) found = args[i + 1];
  }
  return found;
}

/** The resolved absolute path of a path input (symlinks followed), or undefined when it is not static. */
function absoluteOf(sink: EffectSink, input: PathInput): string | undefined {
  const r = sink.resolve(input);
  return r.unknown === undefined && r.targets.length === 1 && !r.targets[0]?.glob
    ? r.targets[0]?.target
    : undefined;
}

/**
 * The repository git runs against (see GitRepositoryInfo): `--git-dir`, then `GIT_DIR` (a prefix
 * assignment or one made earlier in the line), then the directory after `-C` and `cd`.
 */
export function gitRepository(
  args: readonly Word[],
  subIndex: number,
  sink: EffectSink,
  cmd: SimpleCommand,
  chdir: boolean,
): GitRepositoryInfo {
  const end = subIndex < 0 ? args.length : subIndex;
  const envOf = (name: string): PathInput | undefined => {
    const a = [...cmd.assignments].reverse().find((x) => x.name === name);
    if (a) return { text: a.value, dynamic: /[$`]/.test(a.value) };
    const e = sink.env.gitEnv?.get(name);
    return e ? { text: e.value, dynamic: e.dynamic } : undefined;
  };
  const gitDir = globalValue(args, end, '--git-dir');
  const envDir = gitDir ? undefined : envOf('GIT_DIR');
  const workTree = globalValue(args, end, '--work-tree') ?? envOf('GIT_WORK_TREE');
  const info: GitRepositoryInfo = gitDir
    ? { via: '--git-dir' }
    : envDir
      ? { via: 'GIT_DIR' }
      : { via: chdir ? '-C' : 'cwd' };
  const dir = gitDir ?? envDir;
  const abs = dir
    ? absoluteOf(sink, dir)
    : sink.cwd === undefined
      ? undefined
      : absoluteOf(sink, { text: sink.cwd });
  if (abs !== undefined) info.dir = abs;
  if (workTree) info.workTree = absoluteOf(sink, workTree) ?? 'unknown';
  return info;
}
