/**
 * Turns an {@link OutputAccumulator} into the text the model sees, within a character budget
 * (docs/architecture.md).
 *
 * Whole output ≤ budget → the output itself. Otherwise: the head (≈40%), error-looking lines from
 * the middle (≤ 20%), the tail (the rest), and between kept pieces a marker
 * `[... N lines (M chars) truncated ...]` where N is the exact number of newlines and M the exact
 * number of characters (UTF-16 units) left out. Cuts fall on line boundaries when a line boundary is
 * near; a single huge line is cut mid-line. The result never exceeds the budget.
 */
import { ERROR_LINE_PATTERN, type ErrorLine, type OutputAccumulator } from './output-accumulator.js';

export interface RenderedOutput {
  text: string;
  truncated: boolean;
  /** Characters of output left out (sum over all markers). */
  omittedChars: number;
  /** Newlines left out (sum over all markers). */
  omittedLines: number;
}

/** Longest marker text (numbers up to 15 digits), reserved per marker when budgeting. */
const MARKER_RESERVE = 64;

/** `[... N lines (M chars) truncated ...]` on its own line. */
export function truncationMarker(lines: number, chars: number): string {
  return `[... ${lines} line${lines === 1 ? '' : 's'} (${chars} char${chars === 1 ? '' : 's'}) truncated ...]`;
}

interface Piece {
  /** Offset of the first character in the whole output. */
  start: number;
  /** Offset just past the last character. */
  end: number;
  /** Newlines before `start`. */
  newlinesBefore: number;
  /** Newlines inside the piece. */
  newlinesInside: number;
  text: string;
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}

/** Error lines inside `head` after `from` (the accumulator only records those past its head buffer). */
function errorLinesInHead(head: string, from: number): ErrorLine[] {
  const out: ErrorLine[] = [];
  const pattern = new RegExp(ERROR_LINE_PATTERN.source, 'gi');
  pattern.lastIndex = from;
  for (let m = pattern.exec(head); m; m = pattern.exec(head)) {
    const lineStart = head.lastIndexOf('\n', m.index - 1) + 1;
    let lineEnd = head.indexOf('\n', m.index);
    if (lineEnd < 0) lineEnd = head.length;
    pattern.lastIndex = lineEnd + 1;
    if (lineStart < from) continue;
    out.push({
      offset: lineStart,
      endOffset: lineEnd,
      lineIndex: countNewlines(head.slice(0, lineStart)),
      text: head.slice(lineStart, lineEnd),
    });
  }
  return out;
}

/**
 * Renders the accumulated output within `budgetChars` characters. Trailing newlines of a complete
 * output are removed (they carry nothing for the model).
 */
export function renderOutput(acc: OutputAccumulator, budgetChars: number): RenderedOutput {
  if (acc.complete && acc.chars <= budgetChars) {
    return { text: acc.head.replace(/\n+$/, ''), truncated: false, omittedChars: 0, omittedLines: 0 };
  }
  const budget = Math.max(budgetChars, 4 * MARKER_RESERVE);
  // Head: ≈40% of the budget, cut after a newline when one is in the second half.
  let headText = acc.head.slice(0, Math.floor(budget * 0.4));
  const headCut = headText.lastIndexOf('\n');
  if (headCut >= headText.length / 2) headText = headText.slice(0, headCut + 1);
  const head: Piece = {
    start: 0,
    end: headText.length,
    newlinesBefore: 0,
    newlinesInside: countNewlines(headText),
    text: headText,
  };
  // Tail: ≈40%, starting after a newline when one is in the first half.
  const tailBudget = Math.floor(budget * 0.4);
  let tailText = acc.tail.slice(Math.max(0, acc.tail.length - tailBudget));
  const tailCut = tailText.indexOf('\n');
  if (tailCut >= 0 && tailCut < tailText.length / 2 && tailCut < tailText.length - 1) {
    tailText = tailText.slice(tailCut + 1);
  }
  const tailStart = Math.max(head.end, acc.chars - tailText.length);
  tailText = tailText.slice(tailText.length - (acc.chars - tailStart));
  const tailNewlines = countNewlines(tailText);
  const tail: Piece = {
    start: tailStart,
    end: acc.chars,
    newlinesBefore: acc.newlines - tailNewlines,
    newlinesInside: tailNewlines,
    text: tailText,
  };
  // Error lines strictly between head and tail, within what is left of the budget.
  const candidates = [...errorLinesInHead(acc.head, head.end), ...acc.errorLines]
    .filter((line) => line.offset >= head.end && line.endOffset <= tail.start)
    .filter((line, i, all) => i === 0 || line.offset > all[i - 1]!.offset);
  let remaining = budget - head.text.length - tail.text.length - MARKER_RESERVE;
  const pieces: Piece[] = [head];
  for (const line of candidates) {
    const cost = line.text.length + 1 + MARKER_RESERVE;
    if (cost > remaining) break;
    remaining -= cost;
    const hasNewline = line.endOffset < tail.start; // the line's own newline is inside the gap otherwise
    const complete = line.text.length === line.endOffset - line.offset;
    pieces.push({
      start: line.offset,
      end: complete && hasNewline ? line.endOffset + 1 : line.offset + line.text.length,
      newlinesBefore: line.lineIndex,
      newlinesInside: complete && hasNewline ? 1 : 0,
      text: complete && hasNewline ? `${line.text}\n` : line.text,
    });
  }
  pieces.push(tail);
  let text = '';
  let omittedChars = 0;
  let omittedLines = 0;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (i > 0) {
      const previous = pieces[i - 1]!;
      const gapChars = piece.start - previous.end;
      const gapLines = piece.newlinesBefore - (previous.newlinesBefore + previous.newlinesInside);
      if (gapChars > 0) {
        omittedChars += gapChars;
        omittedLines += gapLines;
        if (text && !text.endsWith('\n')) text += '\n';
        text += `${truncationMarker(gapLines, gapChars)}\n`;
      }
    }
    text += piece.text;
  }
  return { text: text.replace(/\n+$/, ''), truncated: true, omittedChars, omittedLines };
}
