/**
 * Finding `old_string` in a file for Edit (the Claude Code tools reference "Matching rules"): an exact match first; then
 * the two mismatches models make that are safe to bridge, each keeping the file's own characters:
 *
 * 1. line endings: the model writes `\n`, the file has `\r\n` → match with `\r\n`, and write the
 *    replacement with `\r\n` too (never `\r\r\n`); the model writes `\r\n` in an LF file → the
 *    other way round;
 * 2. quotes: the model writes straight quotes where the file has typographic ones (or the other
 *    way round) → match with quotes folded to straight ones; the text actually replaced is the
 *    file's, and straight quotes in `new_string` are turned into the file's curly style so the
 *    file keeps its quote characters (changelog 2.1.47 fixed a build that replaced them).
 *
 * Quote folding maps one UTF-16 unit to one, so an index in the folded text is the same index in
 * the original.
 */
import { hasCrlf, toCrlf, toLf } from '../file-io/line-endings.js';

/** `text` with the line endings of the file (CRLF or LF). */
function matchEndings(text: string, crlfFile: boolean): string {
  return crlfFile ? toCrlf(text) : toLf(text);
}

const CURLY_SINGLE = /[\u2018\u2019]/g;
const CURLY_DOUBLE = /[\u201c\u201d]/g;

/** Folds typographic quotes to straight ones (same length). */
export function foldQuotes(text: string): string {
  return text.replace(CURLY_SINGLE, "'").replace(CURLY_DOUBLE, '"');
}

/** How the model's `old_string` was found in the file. */
export interface EditMatch {
  /** The text in the file that will be replaced (the file's own characters). */
  actualOld: string;
  /** `new_string` adapted to the file's line endings and quote style. */
  actualNew: string;
  /** Character indexes of every non-overlapping occurrence of `actualOld`. */
  indexes: number[];
  /** Which bridges were needed. */
  viaCrlf: boolean;
  viaQuotes: boolean;
}

/** Every non-overlapping index of `needle` in `haystack` (needle non-empty). */
export function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length))
    found.push(i);
  return found;
}

const OPENING_CONTEXT = /[\s([{\u2014\u2013-]/;

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/** Whether a quote kind is curly: as in the matched segment when it has that kind, else as most of the file. */
function usesCurly(segment: string, fileText: string, curly: RegExp, straight: RegExp): boolean {
  const inSegmentCurly = count(segment, curly);
  const inSegmentStraight = count(segment, straight);
  if (inSegmentCurly + inSegmentStraight > 0) return inSegmentCurly > 0;
  return count(fileText, curly) > count(fileText, straight);
}

/**
 * Turns the straight quotes of `text` into curly ones, for each quote kind (single, double) that
 * the file writes curly (see `usesCurly`). A quote at the start or after whitespace or an opening
 * bracket opens (‘ “); otherwise it closes (’ ”), which also makes apostrophes in words (don't)
 * the typographic apostrophe.
 */
export function applyCurlyQuotes(text: string, fileSegment: string, fileText = fileSegment): string {
  const curlyDouble = usesCurly(fileSegment, fileText, CURLY_DOUBLE, /"/g);
  const curlySingle = usesCurly(fileSegment, fileText, CURLY_SINGLE, /'/g);
  if (!curlyDouble && !curlySingle) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const opening = i === 0 || OPENING_CONTEXT.test(text[i - 1] as string);
    if (ch === '"' && curlyDouble) out += opening ? '\u201c' : '\u201d';
    else if (ch === "'" && curlySingle) out += opening ? '\u2018' : '\u2019';
    else out += ch;
  }
  return out;
}

/**
 * Finds `oldString` (non-empty) in `fileText`, trying the exact text, then the CRLF form, then
 * folded quotes (also in CRLF form).
 * @returns the match, or undefined when none of the forms occurs.
 */
export function findEditMatch(fileText: string, oldString: string, newString: string): EditMatch | undefined {
  const crlfFile = hasCrlf(fileText);
  const variants: { old: string; viaCrlf: boolean }[] = [{ old: oldString, viaCrlf: false }];
  if (crlfFile && oldString.includes('\n')) {
    const crlfOld = toCrlf(oldString);
    if (crlfOld !== oldString) variants.push({ old: crlfOld, viaCrlf: true });
  } else if (!crlfFile && oldString.includes('\r\n')) {
    variants.push({ old: toLf(oldString), viaCrlf: true });
  }
  for (const v of variants) {
    const indexes = occurrences(fileText, v.old);
    if (indexes.length > 0) {
      return {
        actualOld: v.old,
        actualNew: v.viaCrlf ? matchEndings(newString, crlfFile) : newString,
        indexes,
        viaCrlf: v.viaCrlf,
        viaQuotes: false,
      };
    }
  }
  const foldedFile = foldQuotes(fileText);
  for (const v of variants) {
    const foldedOld = foldQuotes(v.old);
    const first = foldedFile.indexOf(foldedOld);
    if (first === -1) continue;
    const actualOld = fileText.slice(first, first + foldedOld.length);
    // Count in the folded text (each occurrence may have different quotes in the file); replace
    // only the ones that fold to the same text, at their own positions.
    const indexes = occurrences(foldedFile, foldedOld);
    const base = v.viaCrlf ? matchEndings(newString, crlfFile) : newString;
    return {
      actualOld,
      actualNew: applyCurlyQuotes(base, actualOld, fileText),
      indexes,
      viaCrlf: v.viaCrlf,
      viaQuotes: true,
    };
  }
  return undefined;
}

/**
 * Applies `match` to `fileText`: every occurrence when `replaceAll`, else the only one. Each
 * occurrence's length is `actualOld.length` (quote folding keeps lengths).
 */
export function applyEditMatch(fileText: string, match: EditMatch, replaceAll: boolean): string {
  const len = match.actualOld.length;
  const targets = replaceAll ? match.indexes : match.indexes.slice(0, 1);
  let out = '';
  let last = 0;
  for (const index of targets) {
    out += fileText.slice(last, index) + match.actualNew;
    last = index + len;
  }
  return out + fileText.slice(last);
}
