/**
 * What the Bash tool needs from shell analysis (`src/shell/`), in one place: the tool never
 * imports deeper than the facade `src/shell/index.ts`.
 *
 * - `init()`: loads the parser (idempotent, async). `describeCall` awaits it before anything else,
 *   so the sync questions below have an initialised parser on the runtime's path.
 * - `analyzeSync`: the analysis of a command, or undefined when the parser is not initialised yet
 *   or the analysis throws (callers then fail closed: not read-only, not concurrency-safe). The
 *   Bash tool asks it once per call and keeps the answer for every later phase of that call. It
 *   runs in this thread within the analysis budget (a short deadline while analysis workers run,
 *   docs/analysis-budget.md), and reuses what `analyzeAsync` just found for the same command.
 * - `analyzeAsync`: the analysis for the permission decision: in a worker thread when the process
 *   runs them (the servers), within the full decision deadline.
 * - `describeAnalysis`: permission targets, effects and findings (CallDescription) of an analysis.
 * - `interpretExitCode`: semantic exit codes (grep 1 = no matches …).
 */
import { homedir } from 'node:os';
import type { CallDescription } from '../../core/index.js';
import {
  analyzeCommandCached,
  analyzeCommandOffThread,
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
  /** Optional: ports without it decide on `analyzeSync`'s analysis. */
  analyzeAsync?(command: string, cwd: string): Promise<CommandAnalysis>;
  describeAnalysis(analysis: CommandAnalysis): CallDescription;
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
  analyzeAsync: (command, cwd) => analyzeCommandOffThread(command, { cwd, home: homedir() }),
  describeAnalysis: (analysis) => describeAnalysis(analysis),
  interpretExitCode(command, code) {
    const result = interpretExitCode(command, code);
    return result.message === undefined
      ? { isError: result.isError }
      : { isError: result.isError, message: result.message };
  },
};
