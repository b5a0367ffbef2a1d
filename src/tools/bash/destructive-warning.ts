/**
 * User-facing warnings for commands that destroy work (the structured result's
 * `destructiveWarning` and the tool's `isDestructive`). The rows are the destructive floor's table
 * (core/destructive-floor, docs/security-round-2.md "Destructive floor"), judged on the shell
 * analysis's sub-commands and effects — the same table the permission engine enforces — so the
 * warning and the decision never disagree. A warning is shown to the person; it is not sent to the
 * model and never changes a decision.
 */
import { homedir } from 'node:os';
import { destructiveWarnings, type FloorInput } from '../../core/destructive-floor/index.js';

/**
 * The warnings for an analysed command run in `cwd` (the working directory the floor judges
 * "outside" against), joined for display; undefined when nothing destructive is found or the
 * analysis is missing (parser not ready).
 */
export function destructiveWarning(
  analysis: FloorInput | undefined,
  cwd: string,
  home: string = homedir(),
): string | undefined {
  if (!analysis) return undefined;
  const warnings = destructiveWarnings(analysis, { home, workingDirs: [cwd] });
  return warnings.length ? `Warning: ${warnings.join(' ')}` : undefined;
}
