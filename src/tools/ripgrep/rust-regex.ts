/**
 * A ripgrep (Rust `regex` crate) pattern for the JavaScript fallback, compiled on the linear-time
 * engine of linear-regex.ts. RE2 syntax is the Rust syntax: inline and scoped flags (`(?i)`,
 * `(?i:…)`, `(?U)`), `(?P<name>…)`, `\A`/`\z`, `\pL`, `[[:alpha:]]` and escapes such as `\-` work as
 * in ripgrep. Extended mode `(?x)`, backreferences and look-around are refused with a clear error
 * (ripgrep refuses the last two without `--pcre2`).
 */
import { compileLinearRegex, type LinearRegex } from './linear-regex.js';

export interface RegexOptions {
  caseInsensitive: boolean;
  /** Multiline search: `.` matches newlines, `^`/`$` match at line boundaries, the whole file is searched. */
  multiline: boolean;
}

/** Compiles a ripgrep pattern. Throws ToolInputError (field `pattern`) when it cannot be compiled. */
export function compileRustRegex(pattern: string, options: RegexOptions): LinearRegex {
  return compileLinearRegex(pattern, { ...options, field: 'pattern' });
}
