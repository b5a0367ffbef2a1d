/**
 * The security checks of shell analysis: the 23 classic checks of docs/architecture.md (ids 1–23) and the
 * classes the security corpus shows they miss. `runSecurityChecks(command, split)` runs them all on a
 * `parseAndSplit` result and returns every finding (`behavior: 'ask'`), in check order.
 *
 * Contract: pure, never throws (a detector that throws becomes an INTERNAL_CHECK_ERROR finding — fail
 * closed), linear in the size of the command.
 */
import type { Finding } from '../../core/permission-types.js';
import { budgetExpired } from '../budget.js';
import type { SplitResult } from '../types.js';
import { ARITHMETIC_INJECTION } from './arithmetic.js';
import { BRACE_EXPANSION } from './brace.js';
import {
  CONTROL_CHARACTERS,
  NEWLINES,
  QUOTED_NEWLINE,
  UNICODE_DISPLAY_CONTROL,
  UNICODE_WHITESPACE,
} from './characters.js';
import { COMMENT_QUOTE_DESYNC, MID_WORD_HASH } from './comments.js';
import type { Detector } from './detector.js';
import {
  EVAL_OR_SOURCE,
  EXECUTION_PRIMITIVE,
  PRIVILEGE_ESCALATION,
  SHELL_SCRIPT_FROM_STDIN,
  WRAPPER_CHANGES_DIRECTORY,
} from './execution.js';
import { BACKSLASH_ESCAPED_OPERATORS, BACKSLASH_ESCAPED_WHITESPACE, OBFUSCATED_FLAGS } from './flags.js';
import { JQ_FILE_ARGUMENTS, JQ_SYSTEM_FUNCTION } from './jq.js';
import { SHELL_METACHARACTERS } from './metachar.js';
import { INCOMPLETE_COMMANDS, MALFORMED_TOKEN_INJECTION } from './parse-checks.js';
import { ENVIRONMENT_DUMP, isSecretName, SECRET_VARIABLE } from './secrets.js';
import { NAMEREF_DECLARATION, SHELL_OPTION_CHANGE } from './shell-state.js';
import { PROC_ENVIRON_ACCESS } from './proc.js';
import {
  DANGEROUS_PATTERNS_INPUT_REDIRECTION,
  DANGEROUS_PATTERNS_OUTPUT_REDIRECTION,
} from './redirection.js';
import {
  DANGEROUS_PATTERNS_COMMAND_SUBSTITUTION,
  DYNAMIC_COMMAND_WORD,
  GIT_COMMIT_SUBSTITUTION,
} from './substitution.js';
import { DANGEROUS_VARIABLES, IFS_INJECTION, PARAMETER_CODE_EVALUATION } from './variables.js';
import { ZSH_DANGEROUS_COMMANDS, ZSH_EQUALS_EXPANSION } from './zsh.js';

export type { Detector } from './detector.js';
export {
  ARITHMETIC_INJECTION,
  ENVIRONMENT_DUMP,
  isSecretName,
  NAMEREF_DECLARATION,
  SECRET_VARIABLE,
  SHELL_OPTION_CHANGE,
  BACKSLASH_ESCAPED_OPERATORS,
  BACKSLASH_ESCAPED_WHITESPACE,
  BRACE_EXPANSION,
  COMMENT_QUOTE_DESYNC,
  CONTROL_CHARACTERS,
  DANGEROUS_PATTERNS_COMMAND_SUBSTITUTION,
  DANGEROUS_PATTERNS_INPUT_REDIRECTION,
  DANGEROUS_PATTERNS_OUTPUT_REDIRECTION,
  DANGEROUS_VARIABLES,
  DYNAMIC_COMMAND_WORD,
  EVAL_OR_SOURCE,
  EXECUTION_PRIMITIVE,
  GIT_COMMIT_SUBSTITUTION,
  IFS_INJECTION,
  INCOMPLETE_COMMANDS,
  JQ_FILE_ARGUMENTS,
  JQ_SYSTEM_FUNCTION,
  MALFORMED_TOKEN_INJECTION,
  MID_WORD_HASH,
  NEWLINES,
  OBFUSCATED_FLAGS,
  PARAMETER_CODE_EVALUATION,
  PRIVILEGE_ESCALATION,
  PROC_ENVIRON_ACCESS,
  QUOTED_NEWLINE,
  SHELL_METACHARACTERS,
  SHELL_SCRIPT_FROM_STDIN,
  UNICODE_DISPLAY_CONTROL,
  UNICODE_WHITESPACE,
  WRAPPER_CHANGES_DIRECTORY,
  ZSH_DANGEROUS_COMMANDS,
  ZSH_EQUALS_EXPANSION,
};

/** The 23 checks of docs/architecture.md, in id order. */
export const CLASSIC_DETECTORS: readonly Detector[] = [
  INCOMPLETE_COMMANDS,
  JQ_SYSTEM_FUNCTION,
  JQ_FILE_ARGUMENTS,
  OBFUSCATED_FLAGS,
  SHELL_METACHARACTERS,
  DANGEROUS_VARIABLES,
  NEWLINES,
  DANGEROUS_PATTERNS_COMMAND_SUBSTITUTION,
  DANGEROUS_PATTERNS_INPUT_REDIRECTION,
  DANGEROUS_PATTERNS_OUTPUT_REDIRECTION,
  IFS_INJECTION,
  GIT_COMMIT_SUBSTITUTION,
  PROC_ENVIRON_ACCESS,
  MALFORMED_TOKEN_INJECTION,
  BACKSLASH_ESCAPED_WHITESPACE,
  BRACE_EXPANSION,
  CONTROL_CHARACTERS,
  UNICODE_WHITESPACE,
  MID_WORD_HASH,
  ZSH_DANGEROUS_COMMANDS,
  BACKSLASH_ESCAPED_OPERATORS,
  COMMENT_QUOTE_DESYNC,
  QUOTED_NEWLINE,
];

/** Checks for classes of the security corpus the 23 miss. */
export const ADDED_DETECTORS: readonly Detector[] = [
  DYNAMIC_COMMAND_WORD,
  PARAMETER_CODE_EVALUATION,
  EVAL_OR_SOURCE,
  EXECUTION_PRIMITIVE,
  PRIVILEGE_ESCALATION,
  WRAPPER_CHANGES_DIRECTORY,
  SHELL_SCRIPT_FROM_STDIN,
  UNICODE_DISPLAY_CONTROL,
  ZSH_EQUALS_EXPANSION,
  SHELL_OPTION_CHANGE,
  NAMEREF_DECLARATION,
  ARITHMETIC_INJECTION,
  ENVIRONMENT_DUMP,
  SECRET_VARIABLE,
];

/** Every detector, classic first. */
export const ALL_DETECTORS: readonly Detector[] = [...CLASSIC_DETECTORS, ...ADDED_DETECTORS];

/**
 * Runs every detector on a command and its split. Includes `split.findings`.
 * @returns findings in detector order; empty when nothing fired. Never throws.
 */
export function runSecurityChecks(command: string, split: SplitResult): Finding[] {
  const out: Finding[] = [...split.findings];
  for (const detector of ALL_DETECTORS) {
    if (budgetExpired()) break; // the analysis reports the deadline (analyze.ts)
    try {
      out.push(...detector.detect(command, split));
    } catch (error) {
      out.push({
        id: 'INTERNAL_CHECK_ERROR',
        message: `The ${detector.id} check failed (${error instanceof Error ? error.message : String(error)}); the command cannot be proven safe.`,
        behavior: 'ask',
      });
    }
  }
  return out;
}
