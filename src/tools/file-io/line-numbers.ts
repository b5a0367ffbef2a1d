/**
 * The `cat -n` style numbering of Read and of Edit's snippets (the Claude Code tools reference: the line number
 * right-aligned to width 6, longer numbers not padded, then a separator (TAB by default), then the
 * verbatim line).
 */

/** Width the line number is right-aligned to. */
export const LINE_NUMBER_WIDTH = 6;

/** One numbered line: `     1\tfoo`. */
export function numberLine(lineNumber: number, line: string, separator = '\t'): string {
  return `${String(lineNumber).padStart(LINE_NUMBER_WIDTH, ' ')}${separator}${line}`;
}

/** Numbers `lines` starting at `firstLineNumber` and joins them with `\n`. */
export function numberLines(lines: readonly string[], firstLineNumber: number, separator = '\t'): string {
  return lines.map((line, i) => numberLine(firstLineNumber + i, line, separator)).join('\n');
}

/**
 * Cuts `line` to `maxChars` characters with a marker that says how much was dropped
 * (long lines, as the Claude Code tools reference describes). `totalChars` overrides the length when only a prefix is in memory.
 */
export function truncateLine(line: string, maxChars: number, totalChars = line.length): string {
  if (totalChars <= maxChars) return line;
  return `${line.slice(0, maxChars)}… [line truncated: ${totalChars - maxChars} more characters]`;
}

/**
 * Lines of `text` split on `\n`, the `\r` of a CRLF pair removed. As Claude Code's Read does
 * (transcripts: `numLines` 8 for 7 lines and a final newline), text after the last `\n` counts as a
 * line even when empty; an empty text has no lines.
 */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  return text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}
