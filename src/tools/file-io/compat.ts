/**
 * Version-sensitive switches of the file tools, read from `context.options.compat` (the Claude Code tools reference:
 * every version-sensitive choice sits behind a compat profile). Unknown or ill-typed values fall
 * back to the default, so a bad profile never changes behaviour silently in a dangerous direction.
 *
 * Keys (all optional in `compat`):
 * - `readLineCap` (number, default 2000): lines returned by Read when no `limit` is given (the Claude Code tools reference).
 * - `readMaxLineChars` (number, default 2000): longer lines are cut with a marker (the Claude Code tools reference, the Claude Code documentation).
 * - `readLineSeparator` (string, default TAB): between the 6-wide line number and the line. Claude Code
 *   2.0.x–2.1.3x transcripts show `→`; the docs show TAB (the Claude Code documentation).
 * - `readMaxOutputTokens` (number, default 25000): output cap, estimated at 4 chars/token (the Claude Code tools reference).
 * - `readOverCap` (`'partial'` | `'error'`, default `'partial'`): a whole-file read over the cap returns
 *   the first page plus a PARTIAL view notice (newer) or fails (classic). Explicit ranges over the cap always fail.
 * - `readMalwareReminder` (boolean, default false): append the "consider whether it is malicious" reminder.
 * - `editResult` (`'snippet'` | `'brief'`, default `'snippet'`): Edit/Write update text with a numbered
 *   snippet (classic) or a one-line confirmation (2.1.3x).
 * - `editStaleness` (`'strict'` | `'relaxed'`, default `'strict'`): relaxed lets Edit go ahead on a file
 *   changed since the read when `old_string` still matches exactly once (the Claude Code tools reference, v2.1.208+).
 * - `newFileLineEndings` (`'lf'` | `'directory'`, default `'directory'`): line endings of a new file
 *   follow the sibling files' majority (the Claude Code tools reference, changelog 2.1.77).
 * - `createParentDirs` (boolean, default true): Write/Edit create missing parent directories (the Claude Code tools reference item 2).
 * - `readPdf` (`'document'` | `'text'`, default `'document'`): a short PDF read without `pages` is
 *   returned as a `document` block (the Claude Code tools reference) or as extracted text (for models without PDF input).
 */
import type { ToolUseContext } from '../../core/index.js';

export interface FileToolsCompat {
  readLineCap: number;
  readMaxLineChars: number;
  readLineSeparator: string;
  readMaxOutputTokens: number;
  readOverCap: 'partial' | 'error';
  readMalwareReminder: boolean;
  editResult: 'snippet' | 'brief';
  editStaleness: 'strict' | 'relaxed';
  newFileLineEndings: 'lf' | 'directory';
  createParentDirs: boolean;
  readPdf: 'document' | 'text';
}

export const DEFAULT_FILE_TOOLS_COMPAT: Readonly<FileToolsCompat> = Object.freeze({
  readLineCap: 2000,
  readMaxLineChars: 2000,
  readLineSeparator: '\t',
  readMaxOutputTokens: 25_000,
  readOverCap: 'partial',
  readMalwareReminder: false,
  editResult: 'snippet',
  editStaleness: 'strict',
  newFileLineEndings: 'directory',
  createParentDirs: true,
  readPdf: 'document',
});

function positiveInt(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value)
    ? (value as T)
    : fallback;
}

function bool(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

/** The file-tool compat settings of `context` (defaults filled in; never throws). */
export function fileToolsCompat(context: Pick<ToolUseContext, 'options'> | undefined): FileToolsCompat {
  const c = context?.options?.compat ?? {};
  const d = DEFAULT_FILE_TOOLS_COMPAT;
  return {
    readLineCap: positiveInt(c.readLineCap, d.readLineCap),
    readMaxLineChars: positiveInt(c.readMaxLineChars, d.readMaxLineChars),
    readLineSeparator:
      typeof c.readLineSeparator === 'string' &&
      c.readLineSeparator.length > 0 &&
      !c.readLineSeparator.includes('\n')
        ? c.readLineSeparator
        : d.readLineSeparator,
    readMaxOutputTokens: positiveInt(c.readMaxOutputTokens, d.readMaxOutputTokens),
    readOverCap: oneOf(c.readOverCap, ['partial', 'error'], d.readOverCap),
    readMalwareReminder: bool(c.readMalwareReminder, d.readMalwareReminder),
    editResult: oneOf(c.editResult, ['snippet', 'brief'], d.editResult),
    editStaleness: oneOf(c.editStaleness, ['strict', 'relaxed'], d.editStaleness),
    newFileLineEndings: oneOf(c.newFileLineEndings, ['lf', 'directory'], d.newFileLineEndings),
    createParentDirs: bool(c.createParentDirs, d.createParentDirs),
    readPdf: oneOf(c.readPdf, ['document', 'text'], d.readPdf),
  };
}
