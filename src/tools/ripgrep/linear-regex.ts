/**
 * Model-supplied regular expressions run on a linear-time engine (re2js, a port of RE2; the Rust
 * `regex` crate ripgrep uses has the same guarantee), so no pattern can stall the event loop:
 * `(a+)+$` against a long line returns in time proportional to the line. What such engines cannot
 * do — backreferences, look-around, possessive quantifiers — is refused with a clear error, as
 * ripgrep's default engine refuses it. See docs/security-round-2.md "ReDoS".
 */
import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import { ToolInputError } from '../../core/index.js';

let re2jsModule: typeof import('re2js') | undefined;
/** re2js is required with the first pattern, not at start (docs/cli-print.md, "Start-up"). */
function re2js(): typeof import('re2js') {
  re2jsModule ??= createRequire(import.meta.url)('re2js') as typeof import('re2js');
  return re2jsModule;
}

/** A compiled pattern: `test` for a line, `spans` for the non-overlapping matches (UTF-16 offsets). */
export interface LinearRegex {
  test(text: string): boolean;
  spans(text: string): Generator<{ start: number; end: number; text: string }>;
}

export interface LinearRegexOptions {
  caseInsensitive?: boolean;
  /** `.` matches newlines and `^`/`$` match at line boundaries. */
  multiline?: boolean;
  /** The input is JavaScript RegExp syntax (translated first), not Rust syntax. */
  javascript?: boolean;
  /** The tool input field, for the error. */
  field: string;
}

const UNSUPPORTED = /\\[1-9]|\(\?[=!]|\(\?<[=!]|[*+?}]\+/;

/** Compiles `pattern`; throws ToolInputError (on `field`) when the linear-time engine cannot run it. */
export function compileLinearRegex(pattern: string, options: LinearRegexOptions): LinearRegex {
  const { RE2JS } = re2js();
  let flags = 0;
  if (options.caseInsensitive) flags |= RE2JS.CASE_INSENSITIVE;
  if (options.multiline) flags |= RE2JS.DOTALL | RE2JS.MULTILINE;
  let re: RE2JS;
  try {
    re = RE2JS.compile(options.javascript ? RE2JS.translateRegExp(pattern) : pattern, flags);
  } catch (error) {
    const why = UNSUPPORTED.test(pattern)
      ? "backreferences, look-ahead/look-behind and possessive quantifiers are not supported: patterns run on a linear-time engine (as ripgrep's default engine)"
      : (error as Error).message;
    throw new ToolInputError(
      `Invalid regex pattern ${JSON.stringify(pattern)}: ${why}. Rewrite the pattern without it, and escape special characters such as \`{\`, \`(\` or \`[\` with a backslash.`,
      options.field,
    );
  }
  return {
    test: (text) => re.test(text),
    *spans(text) {
      const m = re.matcher(text);
      while (m.find()) {
        const start = m.start();
        const end = m.end();
        yield { start, end, text: text.slice(start, end) };
      }
    },
  };
}
