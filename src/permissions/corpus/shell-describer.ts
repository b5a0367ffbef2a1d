/**
 * Bash call descriptions from the shell analysis facade (`src/shell/index.ts`:
 * `initShellParser()`, `analyzeCommand(command, {cwd, home, resolver})`), for the security
 * evaluation, the permission benchmark and tests. A `CommandAnalysis` maps to a `CallDescription`
 * one to one (rule contents = the sub-commands' normalised texts). A command the parser rejects
 * still comes back as a description (parseOk false → findings), never as an exception.
 */
import type { CallDescription } from '../../core/permission-types.js';
import { analyzeCommand, describeAnalysis, initShellParser } from '../../shell/index.js';
import type { CommandAnalysis } from '../../shell/types.js';
import type { CaseWorld } from './evaluate.js';

/**
 * The shell's own mapping (`describeAnalysis`), plus a fail-closed guard: an analysis that did not
 * parse must carry an ask-level finding, so no per-sub-command read-only verdict can allow it.
 */
export function descriptionFromAnalysis(a: CommandAnalysis): CallDescription {
  const d = describeAnalysis(a);
  if (a.parseOk || d.findings.some((f) => f.behavior === 'ask' || f.behavior === 'deny')) return d;
  return {
    ...d,
    readOnly: false,
    findings: [
      ...d.findings,
      {
        id: 'UNPARSEABLE_COMMAND',
        message: `the command cannot be fully parsed (${a.problems.join('; ') || 'parse error'})`,
        behavior: 'ask',
      },
    ],
  };
}

/** Loads the parser once and returns a describer over the world of a case or a session. */
export async function loadBashDescriber(): Promise<(command: string, world: CaseWorld) => CallDescription> {
  await initShellParser();
  return (command, world) =>
    descriptionFromAnalysis(
      analyzeCommand(command, { cwd: world.cwd, home: world.home, resolver: world.resolver }),
    );
}
