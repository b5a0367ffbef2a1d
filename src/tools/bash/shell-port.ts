/**
 * What the Bash tool needs from shell analysis (`src/shell/`, helpers D/E), in one place: the
 * tool never imports deeper than the facade `src/shell/index.ts`.
 *
 * - `init()`: loads the parser (idempotent, async). `describeCall` awaits it before anything else,
 *   so the sync questions below have an initialised parser on the runtime's path.
 * - `analyzeSync`: the analysis of a command, or undefined when the parser is not initialised yet
 *   or the analysis throws (callers then fail closed: not read-only, not concurrency-safe). The
 *   analysis `describe` just made of the same command is reused; otherwise it runs in this thread
 *   within the analysis budget (a short one while analysis workers run, docs/analysis-budget.md).
 * - `describe`: permission targets, effects and findings (CallDescription), analysed in a worker
 *   thread when the process runs them (servers), within the decision deadline.
 * - `interpretExitCode`: semantic exit codes (seed 000 §2.4: grep 1 = no matches …).
 */
import { homedir } from 'node:os';
import type { CallDescription } from '../../core/index.js';
import {
  analyzeCommandCached,
  describeBashCommand,
  initShellParser,
  interpretExitCode,
  isShellParserReady,
} from '../../shell/index.js';
import type { CommandAnalysis } from '../../shell/types.js';
import type { ExitCodeInterpretation } from './finish-foreground.js';

export interface ShellAnalysisPort {
  init(): Promise<void>;
  analyzeSync(command: string, cwd: string): CommandAnalysis | undefined;
  describe(command: string, cwd: string): Promise<CallDescription>;
  interpretExitCode(command: string, code: number): ExitCodeInterpretation;
}

/** The port bound to `src/shell/index.ts`, with $HOME from the OS. */
export const defaultShellPort: ShellAnalysisPort = {
  init: () => initShellParser(),
  analyzeSync(command, cwd) {
    if (!isShellParserReady()) return undefined;
    try {
      return analyzeCommandCached(command, { cwd, home: homedir() });
    } catch {
      return undefined;
    }
  },
  async describe(command, cwd) {
    await initShellParser();
    return describeBashCommand(command, { cwd, home: homedir() });
  },
  interpretExitCode(command, code) {
    const result = interpretExitCode(command, code);
    return result.message === undefined
      ? { isError: result.isError }
      : { isError: result.isError, message: result.message };
  },
};
