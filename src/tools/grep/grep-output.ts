/**
 * Grep's structured result and the text the model sees (the Claude Code tools reference "Model text"; observed Claude Code transcripts).
 *
 * - files_with_matches: `Found N files` then one path per line; none → `No files found`.
 * - content: `path:line:text` (match) / `path-line-text` (context), `--` between non-adjacent
 *   groups; without `-n` the numbers are left out; a single-file search leaves out the path (as
 *   ripgrep does); none → `No matches found`.
 * - count: `path:count` per file, then `Found N total occurrences across M files.` (the total counts
 *   every file, also those outside the page).
 * - Paging (ours, spec leaves the words open): a page that does not hold everything ends with
 *   `[Showing … Use offset=K to see more.]`; an offset past the end says `No entries at this offset`
 *   with the number of entries, so the model does not conclude that nothing matched.
 */

/** The output_mode names of the input schema. */
export type GrepOutputMode = 'files_with_matches' | 'content' | 'count';

/** Structured result (observed Claude Code transcripts `{mode, filenames, numFiles, content?, numLines?}`, the Claude Code tools reference). */
export interface GrepOutput {
  mode: GrepOutputMode;
  /** Files on this page (files_with_matches: the listed files; content/count: files with lines shown). */
  filenames: string[];
  numFiles: number;
  /** content/count: the page's text (without paging notes). */
  content?: string;
  /** content: lines in `content` (separators included). */
  numLines?: number;
  /** count: total matching lines over all files; content: matched lines on this page. */
  numMatches?: number;
  /** Entries on this page: files, count rows, or content lines (`--` separators not counted). */
  numEntries: number;
  /** Entries in the whole result (files, count rows, or content lines), when known. */
  totalEntries?: number;
  /** True when entries exist after this page. */
  hasMore: boolean;
  /** The head_limit applied when it cut the result. */
  appliedLimit?: number;
  /** The offset applied, when not 0. */
  appliedOffset?: number;
  /** True when the time limit cut the search short. */
  timedOut?: boolean;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function pagingNote(output: GrepOutput, noun: string): string | undefined {
  if (!output.hasMore) return undefined;
  const first = (output.appliedOffset ?? 0) + 1;
  const last = first + output.numEntries - 1;
  const of = output.totalEntries !== undefined ? ` of ${output.totalEntries}` : '';
  return `[Showing ${noun} ${first}-${last}${of}. Use offset=${last} to see more.]`;
}

function offsetPastEnd(output: GrepOutput, noun: string): string {
  const total = output.totalEntries ?? 0;
  return `No entries at this offset: offset=${output.appliedOffset ?? 0}, but the search has only ${plural(total, noun, `${noun}s`)}. Use a smaller offset (offset=0 starts from the beginning).`;
}

/** The tool_result text for a Grep output. */
export function renderGrepOutput(output: GrepOutput): string {
  const parts: string[] = [];
  const pastEnd = (output.totalEntries ?? 0) > 0 && output.numEntries === 0;
  if (output.mode === 'files_with_matches') {
    if ((output.totalEntries ?? output.numFiles) === 0) parts.push('No files found');
    else if (pastEnd) parts.push(offsetPastEnd(output, 'file'));
    else {
      const total = output.totalEntries ?? output.numFiles;
      parts.push(`Found ${plural(total, 'file', 'files')}\n${output.filenames.join('\n')}`);
      const note = pagingNote(output, 'files');
      if (note) parts.push(note);
    }
  } else if (output.mode === 'content') {
    if (output.content) {
      parts.push(output.content);
      const note = pagingNote(output, 'lines');
      if (note) parts.push(note);
    } else if ((output.totalEntries ?? 0) > 0) parts.push(offsetPastEnd(output, 'line'));
    else parts.push('No matches found');
  } else {
    if (output.content) {
      parts.push(output.content);
      const files = output.totalEntries ?? output.numFiles;
      parts.push(
        `Found ${plural(output.numMatches ?? 0, 'total occurrence', 'total occurrences')} across ${plural(files, 'file', 'files')}.`,
      );
      const note = pagingNote(output, 'files');
      if (note) parts.push(note);
    } else if ((output.totalEntries ?? 0) > 0) parts.push(offsetPastEnd(output, 'file'));
    else parts.push('No matches found');
  }
  if (output.timedOut) {
    parts.push(
      '(The search timed out; results are incomplete. Search a smaller path or use a more specific pattern or glob.)',
    );
  }
  return parts.join('\n\n');
}
