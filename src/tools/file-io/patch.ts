/**
 * Structured patches for Write/Edit results (spec §2.3/§2.4 `structuredPatch`; README §5.2 shapes:
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
