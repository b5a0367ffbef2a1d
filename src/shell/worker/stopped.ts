/**
 * The analysis of a command whose analysis did not run to its end outside the analyser's own
 * budget: the worker was terminated at the deadline, failed, or the pool was closed (pool.ts).
 * Nothing is known about the command, so it asks in every mode.
 */
import type { CommandAnalysis } from '../types.js';

export function stoppedAnalysis(
  command: string,
  kind: 'deadline' | 'failure',
  message: string,
): CommandAnalysis {
  return {
    command,
    parseOk: false,
    problems: [message],
    subcommands: [],
    findings: [
      {
        id: kind === 'deadline' ? 'ANALYSIS_DEADLINE' : 'ANALYSIS_FAILED',
        message:
          kind === 'deadline'
            ? `The ${message}; nothing about the command is known, so it cannot be proven safe.`
            : `The command could not be analysed (${message}); it cannot be proven safe.`,
        behavior: 'ask',
        everyMode: true,
      },
    ],
    effects: [],
    readOnly: false,
  };
}
