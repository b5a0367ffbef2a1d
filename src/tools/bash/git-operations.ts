/**
 * Git operations a successful command performed, as structured events for the host (docs/architecture.md
 * step 7 `trackGitOperations`; the Claude Code tools reference structured output `gitOperation`).
 *
 * Detected from the analysed sub-commands (program `git`, the sub-command after global options)
 * and confirmed by git's own output where it prints one (`[main 1a2b3c4] msg`, `Switched to branch
 * 'x'`). Only reported when the whole command exited 0: a failed command may have done nothing.
 */
import type { SubcommandInfo } from '../../core/index.js';

export type GitOperation =
  | { kind: 'commit'; sha?: string; branch?: string; amend: boolean }
  | { kind: 'push'; remote?: string; refspecs: string[]; force: boolean }
  | { kind: 'branch-change'; branch: string; created: boolean }
  | { kind: 'merge'; source?: string }
  | { kind: 'rebase'; onto?: string }
  | { kind: 'pr-create'; url?: string };

/** git global options that take a separate value (`git -C dir status`). */
const GIT_OPTIONS_WITH_VALUE = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
]);

/** The git sub-command and its arguments, after global options; undefined when not git. */
export function gitSubcommand(argv: readonly string[]): { name: string; args: string[] } | undefined {
  const program = argv[0]?.split('/').pop();
  if (program !== 'git') return undefined;
  let i = 1;
  while (i < argv.length && argv[i]!.startsWith('-')) {
    i += GIT_OPTIONS_WITH_VALUE.has(argv[i]!) ? 2 : 1;
  }
  const name = argv[i];
  return name === undefined ? undefined : { name, args: argv.slice(i + 1) };
}

function positional(args: readonly string[]): string[] {
  return args.filter((a) => !a.startsWith('-'));
}

/**
 * Git operations of a command that exited 0. `subcommands` come from the shell analysis; `output`
 * is the command's (merged) output, or the part of it that was kept.
 */
export function detectGitOperations(subcommands: readonly SubcommandInfo[], output: string): GitOperation[] {
  const ops: GitOperation[] = [];
  for (const sub of subcommands) {
    const gh = sub.argv[0]?.split('/').pop() === 'gh' && sub.argv[1] === 'pr' && sub.argv[2] === 'create';
    if (gh) {
      const url = /https?:\/\/\S+\/pull\/\d+/.exec(output)?.[0];
      ops.push(url ? { kind: 'pr-create', url } : { kind: 'pr-create' });
      continue;
    }
    const git = gitSubcommand(sub.argv);
    if (!git) continue;
    const { name, args } = git;
    if (name === 'commit') {
      const m = /^\[([^\s\]]+)(?: \([^)]*\))? ([0-9a-f]{7,40})\]/m.exec(output);
      ops.push({
        kind: 'commit',
        ...(m ? { branch: m[1]!, sha: m[2]! } : {}),
        amend: args.includes('--amend'),
      });
    } else if (name === 'push') {
      const [remote, ...refspecs] = positional(args);
      ops.push({
        kind: 'push',
        ...(remote ? { remote } : {}),
        refspecs,
        force:
          args.some((a) => a === '-f' || a === '--force' || a.startsWith('--force-with-lease')) ||
          refspecs.some((r) => r.startsWith('+')),
      });
    } else if (name === 'checkout' || name === 'switch') {
      const m = /Switched to (a new )?branch '([^']+)'/.exec(output);
      if (m) ops.push({ kind: 'branch-change', branch: m[2]!, created: m[1] !== undefined });
    } else if (name === 'merge') {
      const [source] = positional(args);
      ops.push(source ? { kind: 'merge', source } : { kind: 'merge' });
    } else if (name === 'rebase') {
      const [onto] = positional(args);
      ops.push(onto ? { kind: 'rebase', onto } : { kind: 'rebase' });
    }
  }
  return ops;
}
