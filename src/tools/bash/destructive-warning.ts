/**
 * User-facing warnings for commands that destroy work (seed 000 §2.1 destructiveCommandWarning.ts;
 * issue 4). A warning is shown to the person (the structured result's `destructiveWarning` and
 * `isDestructive`); it is not sent to the model as an error and never changes a permission decision
 * (the permission engine decides on effects and rules, not on these patterns).
 */

interface DestructivePattern {
  pattern: RegExp;
  warning: string;
}

/** Start of a command: line start or after an operator, optionally behind `sudo`/env assignments. */
const CMD = String.raw`(?:^|[;&|(\n]|\$\()\s*(?:sudo\s+(?:-\S+\s+)*)?(?:\w+=\S*\s+)*`;

const PATTERNS: DestructivePattern[] = [
  {
    pattern: new RegExp(
      `${CMD}(?:\\S*/)?rm\\s+(?:[^;&|\\n]*\\s)?(?:-[a-zA-Z]*[rR][a-zA-Z]*[fF]|-[a-zA-Z]*[fF][a-zA-Z]*[rR]|-[rR]\\s+-[fF]|-[fF]\\s+-[rR]|--recursive\\s+--force|--force\\s+--recursive)\\b`,
    ),
    warning: 'rm -rf permanently deletes files and directories without asking.',
  },
  {
    pattern: new RegExp(`${CMD}git\\s+(?:-\\S+\\s+)*reset\\s+(?:[^;&|\\n]*\\s)?--hard\\b`),
    warning: 'git reset --hard discards uncommitted changes.',
  },
  {
    pattern: new RegExp(
      `${CMD}git\\s+(?:-\\S+\\s+)*push\\s+(?:[^;&|\\n]*\\s)?(?:--force(?:-with-lease)?\\b|-f\\b|\\+\\S)`,
    ),
    warning: 'git push --force can overwrite commits on the remote.',
  },
  {
    pattern: new RegExp(`${CMD}git\\s+(?:-\\S+\\s+)*clean\\s+(?:[^;&|\\n]*\\s)?-[a-zA-Z]*f`),
    warning: 'git clean -f deletes untracked files.',
  },
  {
    pattern: new RegExp(`${CMD}git\\s+(?:-\\S+\\s+)*checkout\\s+(?:[^;&|\\n]*\\s)?--\\s+\\.(?:\\s|$|[;&|])`),
    warning: 'git checkout -- . discards uncommitted changes in the working tree.',
  },
  {
    pattern: new RegExp(`${CMD}git\\s+(?:-\\S+\\s+)*restore\\s+(?:[^;&|\\n]*\\s)?\\.(?:\\s|$|[;&|])`),
    warning: 'git restore . discards uncommitted changes in the working tree.',
  },
  {
    pattern: new RegExp(`${CMD}git\\s+(?:-\\S+\\s+)*branch\\s+(?:[^;&|\\n]*\\s)?-D\\b`),
    warning: 'git branch -D deletes a branch even if it is not merged.',
  },
  {
    pattern: new RegExp(`${CMD}git\\s+(?:-\\S+\\s+)*stash\\s+(?:drop|clear)\\b`),
    warning: 'git stash drop/clear permanently deletes stashed changes.',
  },
  {
    pattern: /\b(?:DROP\s+(?:TABLE|DATABASE|SCHEMA)|TRUNCATE\s+TABLE)\b/i,
    warning: 'DROP/TRUNCATE permanently deletes database objects or data.',
  },
  {
    pattern: /\bDELETE\s+FROM\s+\w+\s*(?:;|"|'|$)/i,
    warning: 'DELETE without WHERE deletes every row of the table.',
  },
  {
    pattern: new RegExp(`${CMD}(?:mkfs(?:\\.\\w+)?|wipefs|shred)\\b`),
    warning: 'This command destroys data on a disk or file irrecoverably.',
  },
  {
    pattern: new RegExp(`${CMD}dd\\s+(?:[^;&|\\n]*\\s)?of=/dev/`),
    warning: 'dd writing to a device overwrites it irrecoverably.',
  },
  {
    pattern: new RegExp(`${CMD}(?:kubectl|oc)\\s+delete\\b`),
    warning: 'kubectl delete removes cluster resources.',
  },
  {
    pattern: new RegExp(`${CMD}terraform\\s+destroy\\b`),
    warning: 'terraform destroy deletes managed infrastructure.',
  },
];

/** Every warning that applies to `command`, in a fixed order (empty when none). */
export function destructiveWarnings(command: string): string[] {
  const out: string[] = [];
  for (const { pattern, warning } of PATTERNS) if (pattern.test(command)) out.push(warning);
  return out;
}

/** The warnings joined for display, or undefined when the command looks harmless. */
export function destructiveWarning(command: string): string | undefined {
  const warnings = destructiveWarnings(command);
  return warnings.length ? `Warning: ${warnings.join(' ')}` : undefined;
}
