/**
 * Comment-related desyncs (docs/architecture.md ids 19 and 22). bash starts a comment only at the start of
 * a word; a `#` inside a word (`a#b`) is text, and quotes inside a comment mean nothing. Readers and
 * naive splitters disagree, so text can be hidden behind what looks like a comment.
 */
import type { Finding } from '../../core/permission-types.js';
import type { SyntaxNote } from '../types.js';
import { CharContext, charContexts, type Detector, finding } from './detector.js';

const WORD_START_BEFORE = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>', '$', '{']);

export const MID_WORD_HASH: Detector = {
  id: 'MID_WORD_HASH',
  checkId: 19,
  reason:
    "A `#` inside a word is text to bash but a comment start to many readers; it is flagged when it follows a quote (`'x'#…`) or when shell operators follow it on the same line, so that a reader would take live commands for a comment.",
  detect(command, split) {
    const ctx = charContexts(command, split);
    // Both questions asked of a `#` are answered from one pass over the text, made when the first
    // `#` needs it (a scan of every expansion, and of the rest of the line, per `#` was quadratic:
    // `${x}a#b ` repeated to 64 KiB took over a second).
    let inside: Uint8Array | undefined;
    let operatorAfter: Uint8Array | undefined;
    for (let i = command.indexOf('#', 1); i >= 0; i = command.indexOf('#', i + 1)) {
      if (ctx[i] !== CharContext.Code) continue;
      const prev = command[i - 1] as string;
      if (WORD_START_BEFORE.has(prev)) continue;
      inside ??= insideExpansions(command.length, split.notes ?? []);
      if (inside[i]) continue;
      const afterQuote = prev === "'" || prev === '"';
      operatorAfter ??= operatorsLater(command, ctx);
      if (afterQuote || operatorAfter[i]) {
        return [
          finding(
            this,
            `A "#" in the middle of a word (offset ${i}) is not a comment to bash; the text after it still runs.`,
          ),
        ];
      }
    }
    return [];
  },
};

/**
 * 1 at each offset strictly inside a depth-0 `${…}` or `$((…))` (start < i < end), else 0.
 * Linear in the length plus the notes (a difference array).
 */
export function insideExpansions(length: number, notes: readonly SyntaxNote[]): Uint8Array {
  const diff = new Int32Array(length + 1);
  for (const n of notes) {
    if (n.depth !== 0 || (n.kind !== 'parameter-expansion' && n.kind !== 'arithmetic-expansion')) continue;
    const from = Math.max(0, n.start + 1);
    const to = Math.min(length, n.end);
    if (from >= to) continue;
    diff[from] = (diff[from] as number) + 1;
    diff[to] = (diff[to] as number) - 1;
  }
  const out = new Uint8Array(length);
  let open = 0;
  for (let i = 0; i < length; i++) {
    open += diff[i] as number;
    if (open > 0) out[i] = 1;
  }
  return out;
}

/**
 * 1 at offset i when a `;`, `|` or `&` in code, not preceded by a backslash, follows i on the same
 * line (before the next newline), else 0. One pass from the end.
 */
export function operatorsLater(command: string, ctx: Uint8Array): Uint8Array {
  const out = new Uint8Array(command.length);
  let seen = 0;
  for (let k = command.length - 1; k >= 0; k--) {
    out[k] = seen;
    const c = command[k];
    if (c === '\n') seen = 0;
    else if ((c === ';' || c === '|' || c === '&') && ctx[k] === CharContext.Code && command[k - 1] !== '\\')
      seen = 1;
  }
  return out;
}

export const COMMENT_QUOTE_DESYNC: Detector = {
  id: 'COMMENT_QUOTE_DESYNC',
  checkId: 22,
  reason:
    'Quote characters inside a comment are inert for bash but open a string for naive quote trackers, which then swallow the following lines; flagged when commands follow such a comment.',
  detect(command, split) {
    const out: Finding[] = [];
    for (const n of split.notes ?? []) {
      if (n.kind !== 'comment' || n.depth !== 0 || !/['"`]/.test(n.text)) continue;
      if (command.slice(n.end).trim() !== '') {
        out.push(
          finding(
            this,
            `The comment ${JSON.stringify(n.text.slice(0, 40))} contains a quote and is followed by more commands.`,
          ),
        );
        break;
      }
    }
    return out;
  },
};
