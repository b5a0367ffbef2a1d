/**
 * Substitutions and computed command words (docs/architecture.md ids 8 and 12; docs/security-round-2.md "`$(… )`
 * and backticks anywhere outside single quotes (including inside double quotes, heredocs with
 * unquoted delimiters and assignment values); `<(… )`, `>(… )`", "a command word built from
 * variables or brace expansion"). The bodies are split and checked as sub-commands too; the finding
 * records that their output feeds the outer command, which no rule can vet.
 */
import type { Finding } from '../../core/permission-types.js';
import type { SimpleCommand, Word } from '../types.js';
import { type Detector, finding, programsOf } from './detector.js';

const KIND_TEXT: Record<string, string> = {
  'command-substitution': 'command substitution $( )',
  backtick: 'backtick substitution',
  'process-substitution': 'process substitution',
};

export const DANGEROUS_PATTERNS_COMMAND_SUBSTITUTION: Detector = {
  id: 'DANGEROUS_PATTERNS_COMMAND_SUBSTITUTION',
  checkId: 8,
  reason:
    '`$( )`, backticks, `<( )` and `>( )` outside single quotes run a command whose output becomes part of another command (or a file it reads or writes); the outer command cannot be vetted before it runs.',
  detect(_command, split) {
    const hits = (split.notes ?? []).filter((n) => KIND_TEXT[n.kind] !== undefined);
    const first = hits[0];
    if (!first) return [];
    const where =
      first.context === 'double'
        ? ' inside double quotes'
        : first.context === 'heredoc'
          ? ' inside a heredoc with an unquoted delimiter'
          : '';
    return [
      finding(
        this,
        `The command uses ${KIND_TEXT[first.kind]}${where} (${JSON.stringify(first.text.slice(0, 60))})${hits.length > 1 ? ` and ${hits.length - 1} more` : ''}; its output is not known before it runs.`,
      ),
    ];
  },
};

const MESSAGE_SUBCOMMANDS = new Set(['commit', 'tag', 'merge', 'notes']);
/** git global options that take a separate value. */
const GIT_VALUE_OPTIONS = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--config-env',
  '--super-prefix',
]);

/** The git sub-command name (after global options), if static. */
export function gitSubcommand(cmd: SimpleCommand): { name: string; index: number } | undefined {
  const argv = cmd.argv;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] as Word;
    if (w.dynamic) return undefined;
    if (GIT_VALUE_OPTIONS.has(w.text)) {
      i++;
      continue;
    }
    if (w.text.startsWith('-')) continue;
    return { name: w.text, index: i };
  }
  return undefined;
}

export const GIT_COMMIT_SUBSTITUTION: Detector = {
  id: 'GIT_COMMIT_SUBSTITUTION',
  checkId: 12,
  reason:
    'A substitution inside a git commit/tag/merge message (`-m "$(…)"`, `-F <(…)`) runs a command while the approval shows a commit; the message content is unknown.',
  detect(_command, split) {
    const programs = programsOf(split);
    const out: Finding[] = [];
    split.commands.forEach((cmd, i) => {
      if (programs[i] !== 'git') return;
      const sub = gitSubcommand(cmd);
      if (!sub || !MESSAGE_SUBCOMMANDS.has(sub.name)) return;
      const w = cmd.argv.slice(sub.index + 1).find((x) => x.dynamic && /\$\(|`|<\(/.test(x.raw));
      if (w)
        out.push(
          finding(
            this,
            `git ${sub.name} takes its message from a command substitution (${JSON.stringify(w.raw.slice(0, 60))}).`,
            i,
          ),
        );
    });
    return out;
  },
};

export const DYNAMIC_COMMAND_WORD: Detector = {
  id: 'DYNAMIC_COMMAND_WORD',
  reason:
    'A command name built from variables, substitutions, globs or brace expansion (`$cmd`, `$(echo rm)`, `/bin/r?`, `{rm,-rf,x}`) is only known when it runs, so no rule or read-only check applies to it.',
  detect(_command, split) {
    const out: Finding[] = [];
    split.commands.forEach((cmd, i) => {
      const first = cmd.argv[0];
      if (!first) return;
      if (first.dynamic)
        out.push(
          finding(
            this,
            `The command name ${JSON.stringify(first.raw.slice(0, 60))} is computed when the command runs.`,
            i,
          ),
        );
      else if (first.hasGlob || first.braceSource !== undefined)
        out.push(
          finding(
            this,
            `The command name ${JSON.stringify((first.braceSource ?? first.raw).slice(0, 60))} is a glob or brace expansion.`,
            i,
          ),
        );
    });
    return out;
  },
};
