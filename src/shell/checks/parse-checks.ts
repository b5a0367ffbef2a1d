/**
 * Checks on the parse itself: an incomplete or unparseable command (1) and tokens the parser
 * accepted but bash reads differently (14). Source: docs/architecture.md ids 1 and 14; docs/dependencies.md "Bash parsing".
 */
import { type Detector, finding } from './detector.js';

/** Problems that are about single tokens the parser accepted in a form bash would not. */
const TOKEN_PROBLEM =
  /line continuation inside a word|reserved word|unsupported construct inside a word|words after the redirection|subshell inside a simple command|redirection without a target/;

const TRAILING_CONTINUATION = /(?:\\|\||&&|\|\|)\s*$/;

export const INCOMPLETE_COMMANDS: Detector = {
  id: 'INCOMPLETE_COMMANDS',
  checkId: 1,
  reason:
    'An unterminated quote, substitution or compound command, a trailing operator or continuation, or input the parser could not fully read cannot be proven safe.',
  detect(command, split) {
    const problems = split.problems.filter((p) => !TOKEN_PROBLEM.test(p));
    if (problems.length > 0) return [finding(this, `The command cannot be fully parsed: ${problems[0]}.`)];
    if (TRAILING_CONTINUATION.test(command)) {
      return [
        finding(this, 'The command ends with an operator or a line continuation, so it is incomplete.'),
      ];
    }
    return [];
  },
};

export const MALFORMED_TOKEN_INJECTION: Detector = {
  id: 'MALFORMED_TOKEN_INJECTION',
  checkId: 14,
  reason:
    'Tokens the parser accepts but bash reads differently (a reserved word such as `fi` or `}` used as a command name, words after the redirect of a compound command, unknown constructs inside a word) make the split untrustworthy.',
  detect(_command, split) {
    const problem =
      split.problems.find((p) => TOKEN_PROBLEM.test(p)) ??
      (split.notes?.some((n) => n.kind === 'line-continuation')
        ? 'a line continuation inside a word (bash joins the pieces into one word)'
        : undefined);
    return problem ? [finding(this, `The command contains a malformed token: ${problem}.`)] : [];
  },
};
