/**
 * Same-length rewrites of a command line for a second parse when tree-sitter-bash 0.25.1 rejects
 * heredocs that bash accepts (red-team class benign-heredoc):
 *  - a delimiter quoted in part (`<<"E"OF`, `<<E'O'F`): bash strips the quotes (delimiter `EOF`,
 *    body not expanded); tree-sitter errors. Rewritten to the fully quoted form of the same length
 *    (`<<"EOF"`);
 *  - a body whose first character is a backslash before `$` or a backtick (`\$(id)`): bash reads
 *    literal text; tree-sitter errors. The backslash is replaced by `x` for the parse only.
 *
 * Offsets are unchanged, and callers keep slicing node text from the original command, so words,
 * heredoc bodies (rescanned raw, words-rescan.ts) and delimiters read as written. The rewrites only
 * ever make the tree see more substitutions than bash runs, never fewer.
 */
import { type ParsedBash, parseBash } from './parser.js';

/**
 * `parseBash(source)`, retried once on `maskForParse(source)` when the first parse has an error and
 * the retry has none. The result's `source` (and every node offset) refers to `source` as written.
 */
export function parseBashTolerant(source: string): ParsedBash {
  const parsed = parseBash(source);
  if (!parsed.hasError) return parsed;
  const masked = maskForParse(source);
  const retry = masked === undefined ? undefined : parseBash(masked);
  return retry && !retry.hasError ? { ...retry, source } : parsed;
}

const PARTLY_QUOTED_DELIMITER = /<<(-?)([ \t]*)(\w*)(["'])(\w*)\4(\w*)/g;
const HEREDOC_OPERATOR = /<<-?[ \t]*["'\\]?\w/g;

/** The rewritten command, or undefined when no rewrite applies. Linear in the command length. */
export function maskForParse(command: string): string | undefined {
  let masked = command.replace(
    PARTLY_QUOTED_DELIMITER,
    (all, dash: string, blanks: string, before: string, quote: string, inner: string, after: string) =>
      before === '' && after === '' ? all : `<<${dash}${blanks}${quote}${before}${inner}${after}${quote}`,
  );
  const chars = masked.split('');
  let changed = masked !== command;
  let lastLine = -1;
  for (const m of masked.matchAll(HEREDOC_OPERATOR)) {
    const newline = masked.indexOf('\n', m.index);
    if (newline < 0 || newline === lastLine) continue;
    lastLine = newline;
    let i = newline + 1;
    if (m[0].startsWith('<<-')) while (masked[i] === '\t') i++;
    if (masked[i] === '\\' && (masked[i + 1] === '$' || masked[i + 1] === '`')) {
      chars[i] = 'x';
      changed = true;
    }
  }
  if (!changed) return undefined;
  masked = chars.join('');
  return masked;
}
