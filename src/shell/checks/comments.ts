/**
 * Comment-related desyncs (docs/architecture.md ids 19 and 22). bash starts a comment only at the start of
 * a word; a `#` inside a word (`a#b`) is text, and quotes inside a comment mean nothing. Readers and
 * naive splitters disagree, so text can be hidden behind what looks like a comment.
 */
import type { Finding } from '../../core/permission-types.js';
import { CharContext, charContexts, type Detector, finding } from './detector.js';

const WORD_START_BEFORE = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>', '$', '{']);

export const MID_WORD_HASH: Detector = {
  id: 'MID_WORD_HASH',
  checkId: 19,
  reason:
    "A `#` inside a word is text to bash but a comment start to many readers; it is flagged when it follows a quote (`'x'#…`) or when shell operators follow it on the same line, so that a reader would take live commands for a comment.",
  detect(command, split) {
    const ctx = charContexts(command, split);
    const expansions = (split.notes ?? []).filter(
      (n) => n.depth === 0 && (n.kind === 'parameter-expansion' || n.kind === 'arithmetic-expansion'),
    );
    const insideExpansion = (i: number) => expansions.some((n) => n.start < i && i < n.end);
    for (let i = command.indexOf('#', 1); i >= 0; i = command.indexOf('#', i + 1)) {
      if (ctx[i] !== CharContext.Code) continue;
      const prev = command[i - 1] as string;
      if (WORD_START_BEFORE.has(prev) || insideExpansion(i)) continue;
      const afterQuote = prev === "'" || prev === '"';
      let operatorLater = false;
      for (let k = i + 1; k < command.length && command[k] !== '\n'; k++) {
        const c = command[k];
        if ((c === ';' || c === '|' || c === '&') && ctx[k] === CharContext.Code && command[k - 1] !== '\\') {
          operatorLater = true;
          break;
        }
      }
      if (afterQuote || operatorLater) {
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
