/**
 * What the Bash tool needs from shell analysis (`src/shell/`), in one place: the tool never
 * imports deeper than the facade `src/shell/index.ts`.
 *
 * - `init()`: loads the parser (idempotent, async). `describeCall` awaits it before anything else,
 *   so the sync questions below have an initialised parser on the runtime's path.
 * - `analyzeSync`: the analysis of a command, or undefined when the parser is not initialised yet
 *   or the analysis throws (callers then fail closed: not read-only, not concurrency-safe). The
 *   Bash tool asks it once per call and keeps the answer for every later phase of that call.
 * - `describeAnalysis`: permission targets, effects and findings (CallDescription) of an analysis.
 * - `interpretExitCode`: semantic exit codes (grep 1 = no matches …).
 */
import { homedir } from 'node:os';
import type { CallDescription } from '../../core/index.js';
import {
  analyzeCommand,
  describeAnalysis,
  initShellParser,
  interpretExitCode,
  isShellParserReady,
} from '../../shell/index.js';
import type { CommandAnalysis } from '../../shell/types.js';
import type { ExitCodeInterpretation } from './finish-foreground.js';

export interface ShellAnalysisPort {
  init(): Promise<void>;
  analyzeSync(command: string, cwd: string): CommandAnalysis | undefined;
  describeAnalysis(analysis: CommandAnalysis): CallDescription;
  interpretExitCode(command: string, code: number): ExitCodeInterpretation;
}

/** The port bound to `src/shell/index.ts`, with $HOME from the OS. */
export const defaultShellPort: ShellAnalysisPort = {
  init: () => initShellParser(),
  analyzeSync(command, cwd) {
    if (!isShellParserReady()) return undefined;
    try {
      return analyzeCommand(command, { cwd, home: homedir() });
    } catch {
      return undefined;
    }
  },
  describeAnalysis: (analysis) => describeAnalysis(analysis),
  interpretExitCode(command, code) {
    const result = interpretExitCode(command, code);
    return result.message === undefined
      ? { isError: result.isError }
      : { isError: result.isError, message: result.message };
  },
};
