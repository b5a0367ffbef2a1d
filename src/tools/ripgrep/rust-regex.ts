/**
 * Turns a ripgrep (Rust `regex` crate) pattern into a JavaScript RegExp for the JavaScript fallback.
 *
 * Handled: leading inline flags `(?i)`, `(?s)`, `(?m)`, `(?is)` …; named groups `(?P<name>…)`;
 * `\A` / `\z`; one-letter Unicode classes `\pL` → `\p{L}`; Unicode mode where the pattern allows it
 * (Rust escapes such as `\-` or `\#` that JavaScript's `u` mode rejects fall back to non-Unicode mode).
 * Not handled (a clear error instead): scoped flag groups `(?i:…)`, `(?x)` extended mode, `(?U)`
 * swap-greed. ripgrep itself supports all of these; the fallback is best effort (stack.md §6).
 */
import { ToolInputError } from '../../core/index.js';

export interface RegexOptions {
  caseInsensitive: boolean;
  /** Multiline search: `.` matches newlines, `^`/`$` match at line boundaries, the whole file is searched. */
  multiline: boolean;
}

/** The JavaScript equivalent of a ripgrep pattern. Throws ToolInputError (field `pattern`) when it cannot be compiled. */
export function compileRustRegex(pattern: string, options: RegexOptions): RegExp {
  let source = pattern;
  const flags = new Set<string>(['g']);
  if (options.caseInsensitive) flags.add('i');
  if (options.multiline) {
    flags.add('s');
    flags.add('m');
  }
  const leading = /^\(\?([a-zA-Z]+)\)/.exec(source);
  if (leading) {
    for (const f of leading[1] as string) {
      if (f === 'i' || f === 's' || f === 'm') flags.add(f);
      else throw unsupported(pattern, `the inline flag (?${f})`);
    }
    source = source.slice(leading[0].length);
  }
  if (/\(\?[a-zA-Z-]+[:)]/.test(source)) throw unsupported(pattern, 'scoped or non-leading inline flags');
  source = source
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$')
    .replace(/\\([pP])([A-Za-z])/g, '\\$1{$2}');
  const flagText = [...flags].join('');
  try {
    return new RegExp(source, `${flagText}u`);
  } catch {
    try {
      return new RegExp(source, flagText);
    } catch (error) {
      throw new ToolInputError(
        `Invalid regex pattern ${JSON.stringify(pattern)}: ${(error as Error).message}. ` +
          'Use ripgrep (Rust) regex syntax and escape special characters such as `{`, `(` or `[` with a backslash.',
        'pattern',
      );
    }
  }
}

function unsupported(pattern: string, what: string): ToolInputError {
  return new ToolInputError(
    `The pattern ${JSON.stringify(pattern)} uses ${what}, which the JavaScript search fallback (used because ` +
      'ripgrep is not available) does not support. Rewrite the pattern without it, e.g. use the -i option ' +
      'instead of (?i:…).',
    'pattern',
  );
}
