/**
 * Turning a window of lines into Read's result: the structured `{type:"text", file:{…}}` result
 * (`renderTextRead`, in `call`) and, from it, the numbered text the model sees
 * (`textReadContent`, in the result mapping, with the call's compat profile).
 *
 * Order of decisions: empty file → note; offset past the end → note; otherwise number the lines,
 * then apply the output cap (estimated at 4 characters per token): an explicit range over the cap
 * fails; a whole-file read over the cap fails (classic) or is cut to a PARTIAL view (newer); a
 * trailing note says how to continue whenever lines remain.
 */
import { ToolInputError } from '../../core/index.js';
import type { FileToolsCompat } from '../file-io/compat.js';
import { numberLine } from '../file-io/line-numbers.js';
import type { TextWindow } from './read-text.js';

/** Characters per token used to estimate the output size. */
export const CHARS_PER_TOKEN = 4;

/**
 * Structured result of a text read: Claude Code's Read shape, plus three fields present only when
 * they hold, so the result mapping can render from the output alone: `truncatedByTokenCap` (cut to
 * the output cap), `linesTruncated` (a line was cut at the line-length cap), `totalLinesUnknown`
 * (the file was not read to its end; `totalLines` is the last line reached).
 */
export interface ReadTextOutput {
  type: 'text';
  file: {
    filePath: string;
    content: string;
    numLines: number;
    startLine: number;
    totalLines: number;
    truncatedByTokenCap?: boolean;
    linesTruncated?: true;
    totalLinesUnknown?: true;
  };
}

export interface RenderedTextRead {
  output: ReadTextOutput;
  /** True unless every line was shown whole. */
  isPartial: boolean;
}

export const MALWARE_REMINDER =
  '<system-reminder>\nWhen you read a file, consider whether it looks malicious. You may analyse such code and ' +
  'explain what it does, but you must not improve or extend it.\n</system-reminder>';

/** `emptyFileNote` and `pastEndNote` follow Claude Code's reminder texts (the Claude Code tools reference; transcripts). */
export function emptyFileNote(): string {
  return '<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>';
}

export function pastEndNote(offset: number, totalLines: number): string {
  return (
    `<system-reminder>Warning: the file exists but is shorter than the provided offset (${offset}). ` +
    `The file has ${totalLines} lines.</system-reminder>`
  );
}

/**
 * Renders a text read.
 * @param explicitRange - true when the model gave `offset` or `limit`.
 * @throws ToolInputError when the output is over the cap and may not be cut (see module doc).
 */
export function renderTextRead(options: {
  filePath: string;
  window: TextWindow;
  explicitRange: boolean;
  compat: FileToolsCompat;
}): RenderedTextRead {
  const { filePath, window, compat } = options;
  const base: ReadTextOutput['file'] = {
    filePath,
    content: '',
    numLines: 0,
    startLine: window.startLine,
    totalLines: window.totalLines,
  };
  if (!window.totalLinesKnown) base.totalLinesUnknown = true;

  if (window.totalLinesKnown && window.totalLines === 0) {
    return { output: { type: 'text', file: base }, isPartial: false };
  }
  if (window.lines.length === 0) {
    return { output: { type: 'text', file: base }, isPartial: true };
  }

  const capChars = compat.readMaxOutputTokens * CHARS_PER_TOKEN;
  const lengths = window.lines.map(
    (line, i) => numberLine(window.startLine + i, line, compat.readLineSeparator).length + 1,
  );
  const totalChars = lengths.reduce((n, l) => n + l, 0);
  let shown = window.lines.length;
  let truncatedByTokenCap = false;
  if (totalChars > capChars) {
    let used = 0;
    let fit = 0;
    while (fit < lengths.length && used + (lengths[fit] as number) <= capChars) {
      used += lengths[fit] as number;
      fit++;
    }
    const tokens = Math.ceil(totalChars / CHARS_PER_TOKEN);
    if (options.explicitRange || compat.readOverCap === 'error' || fit === 0) {
      const suggestion =
        fit > 0
          ? ` Read fewer lines at a time, e.g. offset=${window.startLine} limit=${fit}, or use Grep to find the part you need.`
          : ' Use Grep to find the part you need, or Bash (e.g. `cut -c1-500`) to look at parts of these long lines.';
      throw new ToolInputError(
        `File content (${tokens} tokens) exceeds maximum allowed tokens (${compat.readMaxOutputTokens}).${suggestion}`,
      );
    }
    shown = fit;
    truncatedByTokenCap = true;
  }

  const lastShown = window.startLine + shown - 1;
  const moreFollow = !window.totalLinesKnown || lastShown < window.totalLines;
  const file: ReadTextOutput['file'] = {
    ...base,
    content: window.lines.slice(0, shown).join('\n'),
    numLines: shown,
  };
  if (truncatedByTokenCap) file.truncatedByTokenCap = true;
  if (window.anyLineTruncated) file.linesTruncated = true;
  return {
    output: { type: 'text', file },
    isPartial: window.startLine > 1 || moreFollow || window.anyLineTruncated || truncatedByTokenCap,
  };
}

/** The text the model sees for a text read: numbered lines and the notes the output calls for. */
export function textReadContent(file: ReadTextOutput['file'], compat: FileToolsCompat): string {
  if (file.numLines === 0) {
    return !file.totalLinesUnknown && file.totalLines === 0
      ? emptyFileNote()
      : pastEndNote(file.startLine, file.totalLines);
  }
  const lastShown = file.startLine + file.numLines - 1;
  const moreFollow = file.totalLinesUnknown === true || lastShown < file.totalLines;
  const of = file.totalLinesUnknown
    ? 'of a file that continues (not counted to the end)'
    : `of ${file.totalLines}`;
  let text = file.content
    .split('\n')
    .map((line, i) => numberLine(file.startLine + i, line, compat.readLineSeparator))
    .join('\n');
  if (file.truncatedByTokenCap) {
    text +=
      `\n\n(PARTIAL view: showing lines ${file.startLine}-${lastShown} ${of}; the output cap of ` +
      `${compat.readMaxOutputTokens} tokens was reached. Use offset=${lastShown + 1} to continue reading.)`;
  } else if (moreFollow) {
    text += `\n\n(Showing lines ${file.startLine}-${lastShown} ${of}. Use offset=${lastShown + 1} to continue.)`;
  }
  if (file.linesTruncated) {
    text += `\n\n(Some lines were longer than ${compat.readMaxLineChars} characters and were cut.)`;
  }
  if (compat.readMalwareReminder) text += `\n\n${MALWARE_REMINDER}`;
  return text;
}
