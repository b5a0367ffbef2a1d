/**
 * The numbered snippet around a change that Edit (and Write on update) return in the classic
 * result text ("Here's the result of running `cat -n` on a snippet of the edited file:").
 */
import { numberLines, splitLines } from './line-numbers.js';

/** Lines of context shown before and after the changed lines. */
export const SNIPPET_CONTEXT_LINES = 4;
/** Longest snippet shown, in lines. */
export const SNIPPET_MAX_LINES = 200;

/**
 * Numbered lines `firstLine - 4 … lastLine + 4` of `text` (1-based, clamped to the file), at most
 * {@link SNIPPET_MAX_LINES} lines.
 */
export function snippetAround(text: string, firstLine: number, lastLine: number, separator: string): string {
  const lines = splitLines(text);
  const start = Math.max(1, firstLine - SNIPPET_CONTEXT_LINES);
  const end = Math.min(
    lines.length,
    Math.max(firstLine, lastLine) + SNIPPET_CONTEXT_LINES,
    start + SNIPPET_MAX_LINES - 1,
  );
  return numberLines(lines.slice(start - 1, end), start, separator);
}

/** 1-based line number of character index `index` in `text`. */
export function lineOfIndex(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The classic update text: confirmation plus the numbered snippet. */
export function updatedWithSnippet(displayPath: string, snippet: string): string {
  return `The file ${displayPath} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${snippet}`;
}

/** The one-line update text of newer versions (2.1.3x transcripts). */
export function updatedBrief(displayPath: string): string {
  return `The file ${displayPath} has been updated successfully.`;
}
