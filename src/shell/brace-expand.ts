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
 * Cap: more than `MAX_BRACE_WORDS` results, more than `MAX_BRACE_EXPANSION_CHARS` characters of
 * results (budget.ts), an expansion the library's step budget cut short, or more quoted characters
 * than placeholders → undefined (callers fail closed: unknown word, the command asks).
 */
import { expand } from 'brace-expansion';
import { type AnalysisBudget, activeBudget, MAX_BRACE_EXPANSION_CHARS } from './budget.js';

/** Most words one brace expression may produce before the analysis gives up (fail closed). */
export const MAX_BRACE_WORDS = 1024;

/** Total characters of all results before the analysis gives up (budget.ts). */
const MAX_BRACE_CHARS = MAX_BRACE_EXPANSION_CHARS;

/**
 * Steps (characters scanned, results built) the library may take per expansion. Within the word and
 * character caps an expansion needs far fewer; a long word of many groups (`{a,b}{a,b}…`, each
 * group rebuilding up to `MAX_BRACE_WORDS` results) reaches it within milliseconds and is refused.
 */
const MAX_BRACE_STEPS = 1_000_000;

/**
 * `{` nested in one another, at most: the library stops following nesting (leaves it literal) far
 * deeper, after seconds of work; real words nest a few levels.
 */
const MAX_BRACE_DEPTH = 64;

/** `{a},b}` rewrites the library may make per expansion (its own default). */
const MAX_BRACE_REWRITES = 1000;

/** Longest sentinel the library writes for one escaped character (`\0PERIOD0.…\0`), with margin. */
const ESCAPED_CHAR = 32;

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
  // Within an analysis (budget.ts) a word met again (the same operand in many commands, the
  // parser's word read again by the effects) is expanded once. Results are never mutated.
  const budget = activeBudget();
  if (!budget) return expandUncached(text, mask);
  let memo = MEMOS.get(budget);
  if (!memo) {
    memo = new Map();
    MEMOS.set(budget, memo);
  }
  const key = `${text}\u0000${mask}`;
  if (memo.has(key)) return memo.get(key);
  const results = expandUncached(text, mask);
  memo.set(key, results);
  return results;
}

/** Expansions by word, per analysis (dropped with the analysis's budget). */
const MEMOS = new WeakMap<AnalysisBudget, Map<string, BraceResult[] | undefined>>();

function expandUncached(text: string, mask: string): BraceResult[] | undefined {
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
  // The library drops, without saying so, the results past `max` words or `maxLength` characters,
  // counted in its escaped form (each `\{`, `\}`, `\,`, `\.`, `\\` and each `{a},b}` rewrite
  // becomes a sentinel of at most `ESCAPED_CHAR` characters). No result is longer than the word
  // (each picks one alternative per group; a sequence value is no longer than its `{a..b}` body),
  // so when results were dropped for length the kept ones add up to more than `MAX_BRACE_CHARS`
  // characters as bash spells them: refused below (`total`), never returned short.
  if (braceDepth(encoded) > MAX_BRACE_DEPTH) return undefined;
  if (leadingGroupsProduct(encoded) > MAX_BRACE_WORDS) return undefined;
  const results = expand(encoded, {
    max: MAX_BRACE_WORDS + 1,
    maxLength: ESCAPED_CHAR * (MAX_BRACE_CHARS + encoded.length + MAX_BRACE_REWRITES + 1),
    maxRewrites: MAX_BRACE_REWRITES,
    maxSteps: MAX_BRACE_STEPS,
  });
  if (results.length > MAX_BRACE_WORDS) return undefined;
  let total = 0;
  for (const r of results) total += r.length;
  if (total > MAX_BRACE_CHARS) return undefined;
  // Past its step budget the library leaves the set it was expanding, and the rest, literal: a
  // result that still expands means the expansion was not finished (refused, fail closed).
  for (const r of results) if (stillExpands(r)) return undefined;
  const out: BraceResult[] = [];
  for (const r of results) {
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
 * A lower bound on the number of words `text` (an encoded word) expands to, computed without
 * expanding: the product of the sizes of its leading simple groups. The scan reads plain
 * characters and simple groups (`{a,b,c}`: two or more non-empty alternatives of plain characters)
 * from the start of the word and stops, returning the product so far, at the first character it
 * does not model (a nested, empty, sequence or unmatched brace, a stray `}`, `\`, `$`). Everything
 * before that point is plain text, so each of those groups is closed by its first `}` in bash and
 * in the library alike, every result picks one alternative per group (all non-empty, so no result
 * is dropped as empty), and whatever follows multiplies by at least one. A word of thousands of
 * groups (`{a,b}{a,b}…`) is thereby refused in one linear pass instead of after a million library
 * steps; any other word goes to the library unchanged.
 */
function leadingGroupsProduct(text: string): number {
  let product = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7d || c === 0x5c || c === 0x24) return product; // } \ $
    if (c !== 0x7b) continue; // {
    let items = 1;
    let itemLength = 0;
    let j = i + 1;
    for (; j < text.length; j++) {
      const d = text.charCodeAt(j);
      if (d === 0x7d) break;
      if (d === 0x7b || d === 0x5c || d === 0x24) return product;
      if (d === 0x2c) {
        if (itemLength === 0) return product;
        items++;
        itemLength = 0;
      } else itemLength++;
    }
    if (j >= text.length || itemLength === 0 || items < 2) return product;
    product *= items;
    if (product > MAX_BRACE_WORDS) return product;
    i = j;
  }
  return product;
}

/** Deepest nesting of `{` in `text` (escaped or unmatched braces counted too: an over-count only refuses). */
function braceDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d && depth > 0) depth--;
  }
  return deepest;
}

/** True when `text` (an encoded result) has a brace set the library would still expand. */
function stillExpands(text: string): boolean {
  if (!BRACE_HINT.test(text)) return false;
  const again = expand(text, {
    max: 2,
    maxLength: ESCAPED_CHAR * (2 * text.length + MAX_BRACE_REWRITES + 1),
    maxRewrites: MAX_BRACE_REWRITES,
    maxSteps: MAX_BRACE_STEPS,
  });
  return again.length !== 1 || again[0] !== text;
}

/**
 * Expands text whose every character is unquoted (loop items, option values already unquoted).
 * @returns the words, or undefined past the caps.
 */
export function expandBraceText(text: string): string[] | undefined {
  return expandMaskedWord(text, text)?.map((r) => r.text);
}
