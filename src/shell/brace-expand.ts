/**
 * Bash brace expansion (bash(1) "Brace Expansion"), the one expander of shell analysis: the parser
 * expands every unquoted brace of a command word into the words bash passes (`cat secret{01..02}.txt`
 * → `cat secret01.txt secret02.txt`), so rules, checks and effects all see bash's words. The
 * expansion itself is `brace-expansion` (it matches bash on sequences, zero padding, steps, nesting,
 * escapes and the `{a},b}` quirk; see brace-expand.test.ts, which compares with real bash).
 *
 * Quoting: only unquoted braces expand (`'{a,b}'x`, `\{a,b\}` and `${x,,}` stay as they are). The
 * word is handed to the library with every quoted or expansion character replaced by a private-use
 * placeholder that no brace rule treats specially, and the placeholders are mapped back in every
 * result, so each result keeps which characters were quoted (for globbing and tilde expansion).
 *
 * Cap: more than `MAX_BRACE_WORDS` results, a result longer than the input cap, or more quoted
 * characters than placeholders → undefined (callers fail closed: unknown word, the command asks).
 */
import { expand } from 'brace-expansion';

/** Most words one brace expression may produce before the analysis gives up (fail closed). */
export const MAX_BRACE_WORDS = 1024;

/** Total characters of all results before the analysis gives up. */
const MAX_BRACE_CHARS = 256 * 1024;

const PUA_START = 0xe000;
const PUA_SIZE = 0x1900; // U+E000 … U+F8FF

/** Characters of a word's mask (words.ts): the character itself when unquoted, else one of these. */
export const MASK_QUOTED = '\u0000';
export const MASK_DYNAMIC = '\u0001';

/** One expanded result: its text and a mask of the same length (see `MASK_*`). */
export interface BraceResult {
  text: string;
  mask: string;
}

const BRACE_HINT = /[{]/;

/**
 * Expands the unquoted braces of a word given as `text` plus `mask` (same length; `mask[i]` is the
 * character itself when `text[i]` is unquoted, `MASK_QUOTED` or `MASK_DYNAMIC` otherwise).
 * @returns the results in bash's order (`[{text, mask}]` unchanged when nothing expands), or
 *   undefined past the caps.
 */
export function expandMaskedWord(text: string, mask: string): BraceResult[] | undefined {
  if (!BRACE_HINT.test(mask)) return [{ text, mask }];
  const table: { char: string; mask: string }[] = [];
  let encoded = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    const m = mask[i] as string;
    const code = c.charCodeAt(0);
    const special = m !== c || (code >= PUA_START && code < PUA_START + PUA_SIZE);
    if (!special) {
      encoded += c;
      continue;
    }
    if (table.length >= PUA_SIZE) return undefined;
    encoded += String.fromCharCode(PUA_START + table.length);
    table.push({ char: c, mask: m });
  }
  const results = expand(encoded, { max: MAX_BRACE_WORDS + 1, maxLength: MAX_BRACE_CHARS + 1 });
  if (results.length > MAX_BRACE_WORDS) return undefined;
  let total = 0;
  const out: BraceResult[] = [];
  for (const r of results) {
    total += r.length;
    if (total > MAX_BRACE_CHARS) return undefined;
    let t = '';
    let k = '';
    for (const c of r) {
      const code = c.charCodeAt(0);
      const entry =
        code >= PUA_START && code < PUA_START + table.length ? table[code - PUA_START] : undefined;
      if (entry) {
        t += entry.char;
        k += entry.mask;
      } else {
        t += c;
        k += c;
      }
    }
    out.push({ text: t, mask: k });
  }
  return out;
}

/**
 * Expands text whose every character is unquoted (loop items, option values already unquoted).
 * @returns the words, or undefined past the caps.
 */
export function expandBraceText(text: string): string[] | undefined {
  return expandMaskedWord(text, text)?.map((r) => r.text);
}
