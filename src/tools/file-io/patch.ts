/**
 * Structured patches for Write/Edit results (the Claude Code tools reference `structuredPatch`; observed Claude Code transcripts shapes:
 * `{oldStart, oldLines, newStart, newLines, lines[]}` with 3 lines of context, as jsdiff produces).
 * Both sides are compared with `\r\n` folded to `\n`, so a CRLF file's patch reads like any other.
 */
import { structuredPatch } from 'diff';
import { toLf } from './line-endings.js';

export interface PatchHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** Hunks turning `oldText` into `newText` (empty when equal). Never throws. */
export function makeStructuredPatch(filePath: string, oldText: string, newText: string): PatchHunk[] {
  const patch = structuredPatch(filePath, filePath, toLf(oldText), toLf(newText), undefined, undefined, {
    context: 3,
  });
  return patch.hunks.map((h) => ({
    oldStart: h.oldStart,
    oldLines: h.oldLines,
    newStart: h.newStart,
    newLines: h.newLines,
    lines: h.lines.filter((l) => !l.startsWith('\\')),
  }));
}

/**
 * 1-based first and last line of the NEW text touched by `hunks` (context lines excluded; a pure
 * deletion touches the line where the removed text was). Undefined when there are no hunks.
 */
export function changedNewLines(hunks: readonly PatchHunk[]): { first: number; last: number } | undefined {
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  for (const hunk of hunks) {
    let line = hunk.newStart;
    for (const l of hunk.lines) {
      if (l.startsWith('+')) {
        first = Math.min(first, line);
        last = Math.max(last, line);
        line++;
      } else if (l.startsWith('-')) {
        first = Math.min(first, line);
        last = Math.max(last, line);
      } else {
        line++;
      }
    }
  }
  return last === 0 ? undefined : { first, last };
}
