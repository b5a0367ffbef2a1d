/**
 * Backslash-newline continuations, joined as bash joins them before it splits words (bash(1)
 * "QUOTING": a `\<newline>` pair is removed from the input), so `ca\<newline>t .e\<newline>nv`
 * is read as `cat .env` by rules, checks and effects alike. tree-sitter-bash keeps such a pair
 * as a word boundary, so the analysis parses the joined text instead.
 *
 * Where bash keeps the pair (checked against bash in continuations.test.ts): inside single
 * quotes, inside `$'…'`, in a comment (the newline ends it), in the body of a heredoc whose
 * delimiter is quoted, and after an escaped backslash (`\\<newline>`). Everywhere else —
 * unquoted text, double quotes, bodies of heredocs with an unquoted delimiter — it is removed.
 */
import type { SyntaxNode } from './parser.js';

/** Node types whose text keeps `\<newline>` as written. */
const KEEPS = new Set(['raw_string', 'ansi_c_string', 'comment']);

/**
 * The text with every removable `\<newline>` pair deleted, or undefined when there is none.
 * `root` is the tree of `source` (used to find the regions that keep the pair); `keep` adds
 * regions found otherwise (bodies of quoted-delimiter heredocs, heredocs.ts). Linear.
 */
export function joinContinuations(
  source: string,
  root: SyntaxNode,
  keep: readonly (readonly [number, number])[] = [],
): Joined | undefined {
  if (!source.includes('\\\n')) return undefined;
  const kept: [number, number][] = keep.map(([a, b]) => [a, b]);
  const quoted: [number, number][] = [];
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop() as SyntaxNode;
    if (KEEPS.has(n.type)) {
      kept.push([n.start, n.end]);
      continue;
    }
    if (n.type === 'string' || n.type === 'heredoc_body') quoted.push([n.start, n.end]);
    if (n.type === 'heredoc_redirect') {
      const start = n.children.find((c) => c.type === 'heredoc_start');
      const quoted = start !== undefined && /['"\\]/.test(source.slice(start.start, start.end));
      for (const c of n.children) if (quoted && c.type === 'heredoc_body') kept.push([c.start, c.end]);
    }
    for (const c of n.children) stack.push(c);
  }
  kept.sort((a, b) => a[0] - b[0]);
  quoted.sort((a, b) => a[0] - b[0]);
  const removed: number[] = [];
  const inQuotes: boolean[] = [];
  let last = 0;
  let k = 0;
  let q = 0;
  for (let i = source.indexOf('\\\n'); i >= 0; i = source.indexOf('\\\n', i + 2)) {
    let backslashes = 0;
    for (let j = i - 1; j >= last && source[j] === '\\'; j--) backslashes++;
    if (backslashes % 2 === 1) continue;
    while (k < kept.length && (kept[k] as [number, number])[1] <= i) k++;
    const region = kept[k];
    if (region && region[0] <= i && i < region[1]) continue;
    last = i + 2;
    while (q < quoted.length && (quoted[q] as [number, number])[1] <= i) q++;
    removed.push(i);
    inQuotes.push(quoted[q] !== undefined && (quoted[q] as [number, number])[0] <= i);
  }
  return joinAt(source, removed, inQuotes);
}

/**
 * `source` without the pairs at `removed` (ascending offsets of their backslash), and where an
 * unquoted word was joined (`quoted[k]`: removal k was inside double quotes or a heredoc body).
 */
function joinAt(source: string, removed: readonly number[], quoted: readonly boolean[]): Joined | undefined {
  if (removed.length === 0) return undefined;
  const parts: string[] = [];
  const midWord: number[] = [];
  let last = 0;
  let length = 0;
  for (let k = 0; k < removed.length; k++) {
    const i = removed[k] as number;
    parts.push(source.slice(last, i));
    length += i - last;
    last = i + 2;
    if (!quoted[k] && WORD_CHAR.test(source[i - 1] ?? ' ') && WORD_CHAR.test(source[i + 2] ?? ' '))
      midWord.push(length);
  }
  parts.push(source.slice(last));
  return { text: parts.join(''), midWord };
}

/** Characters that belong to a word (not blanks, not operators). */
const WORD_CHAR = /[^\s;&|<>()]/;

/** Result of `joinContinuations`. */
export interface Joined {
  /** The text as bash reads it. */
  text: string;
  /** Offsets in `text` where an unquoted word was joined across a continuation (`ec\<newline>ho`). */
  midWord: number[];
}

/** Result of `scanContinuations`: the joined text (undefined: nothing to join), or why the scan cannot tell. */
export type ContinuationScan = { joined: Joined | undefined; unsure?: undefined } | { unsure: string };

// Frames of the lexical scan: code (the top level, or inside `$(…)`, `<(…)`, `>(…)`), double
// quotes, backticks, `${…}`.
const TOP = 0;
const SUB = 1;
const DQ = 2;
const BT = 3;
const BRACE = 4;

/**
 * A `${…}` frame's state (in `depths`): inside double quotes (`BRACE_IN_DQ`), and then whether it
 * is `${name-word}` (also `:-`, `=`, `?`, `+`), where bash makes `'` group the word without keeping
 * the pairs inside; in any other form (patterns: `#`, `%`, `/` …) it keeps them, and the scan is
 * unsure of `'` there.
 */
const BRACE_IN_DQ = 1;
const BRACE_WORD_IN_DQ = 3;
const WORD_OPERATOR = /(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*]):?[-=?+]/y;

function braceStateOf(source: string, at: number, inQuotes: boolean): number {
  if (!inQuotes) return 0;
  WORD_OPERATOR.lastIndex = at;
  return WORD_OPERATOR.test(source) ? BRACE_WORD_IN_DQ : BRACE_IN_DQ;
}

/** `case` anywhere, maybe split by continuations: its `)` patterns close no `$(`. */
const CASE_WORD = /c(?:\\\n)*a(?:\\\n)*s(?:\\\n)*e/;

/**
 * The same join as `joinContinuations`, found by reading `source` the way bash's lexer reads it
 * instead of from a parse (bash drops a `\<newline>` pair as it reads its input, except inside
 * single quotes, `$'…'`, comments and quoted-delimiter heredoc bodies). What the scan follows,
 * checked against bash 5.2 in continuations.test.ts:
 *  - code (the top level, `$(…)`, `<(…)`, `>(…)`): `\` escapes the next character; `'…'` and
 *    `$'…'` (where `\` escapes) keep the pair; `#` at the start of a word starts a comment, which
 *    keeps it and ends at the newline; `$$` is one parameter (so `$$'…'` is a single-quoted string);
 *  - double quotes: `'` and `$'` are plain characters; `$(…)`, `${…}` and backticks nest;
 *  - backticks: read flat to the closing backtick (bash reads the text first and parses it later),
 *    so quotes and comments inside them keep nothing;
 *  - `${…}` (ends at the first `}` that closes no inner `${`): quotes nest; outside double quotes
 *    `'…'` and `$'…'` keep the pair; inside them, `${x-'…'}` (`:-`, `=`, `?`, `+` alike) groups
 *    the word in the quotes but removes the pair.
 * It is unsure (the caller falls back to reading a parse) where a lexical scan cannot follow
 * bash: a heredoc (`<<` in code), arithmetic (`((`, `$((`, `$[`), `'` inside another `${…}`
 * form inside double quotes (a pattern: `"${x#'…'}"` keeps the pair), `$'` there, a `case` with
 * a `$(…)` in the same text (its patterns end in an unbalanced `)`), a continuation right after
 * `$`, `<`, `>` or `(` (it joins a two-character operator), and a quote or substitution the text
 * ends inside. Linear.
 */
export function scanContinuations(source: string): ContinuationScan {
  if (!source.includes('\\\n')) return { joined: undefined };
  const n = source.length;
  const frames: number[] = [TOP];
  const depths: number[] = [0];
  let dq = 0; // double-quote frames open
  let wordStart = true; // code: the next character starts a word (so `#` starts a comment)
  let hasCase: boolean | undefined;
  const braceInQuotes = (): boolean => ((depths[depths.length - 1] as number) & BRACE_IN_DQ) !== 0;
  const caseWord = (): boolean => {
    hasCase ??= CASE_WORD.test(source);
    return hasCase;
  };
  const removed: number[] = [];
  const quoted: boolean[] = [];
  const pairAt = (j: number): boolean => source.charCodeAt(j) === 0x5c && source.charCodeAt(j + 1) === 0x0a;
  /** Offset after the `'` closing the string that opens at `open`, or -1 (`ansi`: `\` escapes). */
  const closeSingle = (open: number, ansi: boolean): number => {
    if (!ansi) {
      const close = source.indexOf("'", open + 1);
      return close < 0 ? -1 : close + 1;
    }
    let j = open + 1;
    while (j < n && source.charCodeAt(j) !== 0x27) j += source.charCodeAt(j) === 0x5c ? 2 : 1;
    return j < n ? j + 1 : -1;
  };
  /** After `$` at `i` (in any frame but backticks): pushes what it opens; the next offset, or -1 when unsure. */
  let why = '';
  const dollar = (i: number, kind: number): number => {
    const next = source.charCodeAt(i + 1);
    if (next === 0x5c && pairAt(i + 1)) return ((why = 'a continuation right after $'), -1);
    if (next === 0x24) return i + 2; // `$$`
    if (next === 0x28) {
      if (source.charCodeAt(i + 2) === 0x28 || pairAt(i + 2)) return ((why = 'arithmetic'), -1);
      if (caseWord()) return ((why = 'a case statement and a $(…)'), -1);
      frames.push(SUB);
      depths.push(0);
      wordStart = true;
      return i + 2;
    }
    if (next === 0x7b) {
      frames.push(BRACE);
      depths.push(braceStateOf(source, i + 2, kind === DQ || (kind === BRACE && braceInQuotes())));
      return i + 2;
    }
    if (next === 0x5b) return ((why = 'arithmetic'), -1);
    if (next === 0x27 && kind !== DQ) {
      if (kind === BRACE && braceInQuotes()) return ((why = "$' inside ${…} inside double quotes"), -1);
      const end = closeSingle(i + 1, true);
      if (end < 0) why = "an unterminated $'";
      return end;
    }
    return i + 1;
  };
  let i = 0;
  while (i < n) {
    const c = source.charCodeAt(i);
    if (c === 0x5c) {
      // `\`: a continuation is removed in every frame of this scan; otherwise it escapes the next character
      if (source.charCodeAt(i + 1) === 0x0a) {
        removed.push(i);
        quoted.push(dq > 0);
      } else wordStart = false;
      i += 2;
      continue;
    }
    const kind = frames[frames.length - 1] as number;
    if (kind === BT) {
      if (c === 0x60) {
        frames.pop();
        depths.pop();
        wordStart = false;
      }
      i++;
      continue;
    }
    if (c === 0x24) {
      i = dollar(i, kind);
      if (i < 0) return { unsure: why };
      if (frames[frames.length - 1] !== SUB) wordStart = false;
      continue;
    }
    if (c === 0x60) {
      frames.push(BT);
      depths.push(0);
      i++;
      continue;
    }
    if (kind === DQ) {
      if (c === 0x22) {
        frames.pop();
        depths.pop();
        dq--;
        wordStart = false;
      }
      i++;
      continue;
    }
    if (c === 0x22) {
      frames.push(DQ);
      depths.push(0);
      dq++;
      i++;
      continue;
    }
    if (c === 0x27) {
      if (kind === BRACE && braceInQuotes()) {
        // `"${x-'…'}"`: the quotes group the word, and the pairs inside them are removed
        if ((depths[depths.length - 1] as number) !== BRACE_WORD_IN_DQ)
          return { unsure: "' inside a ${…} pattern inside double quotes" };
        const close = source.indexOf("'", i + 1);
        if (close < 0) return { unsure: 'an unterminated single quote' };
        for (let j = i + 1; j < close; j++) {
          const d = source.charCodeAt(j);
          if (d === 0x5c && source.charCodeAt(j + 1) === 0x0a) {
            removed.push(j);
            quoted.push(true);
            j++;
          } else if (d === 0x5c || d === 0x22 || d === 0x24 || d === 0x60)
            return { unsure: '\\, ", $ or ` in \' inside ${…} inside double quotes' };
        }
        i = close + 1;
        continue;
      }
      i = closeSingle(i, false);
      if (i < 0) return { unsure: 'an unterminated single quote' };
      wordStart = false;
      continue;
    }
    if (kind === BRACE) {
      if (c === 0x7d) {
        frames.pop();
        depths.pop();
        wordStart = false;
      }
      i++;
      continue;
    }
    // code (TOP or SUB)
    const next = source.charCodeAt(i + 1);
    switch (c) {
      case 0x23: // #
        if (wordStart) {
          const nl = source.indexOf('\n', i);
          i = nl < 0 ? n : nl;
          continue;
        }
        break;
      case 0x3c: // <
      case 0x3e: // >
        if (next === 0x5c && pairAt(i + 1)) return { unsure: 'a continuation inside an operator' };
        if (c === 0x3c && next === 0x3c) {
          if (source.charCodeAt(i + 2) !== 0x3c) return { unsure: 'a heredoc' };
          i += 3; // a here-string
          wordStart = true;
          continue;
        }
        if (next === 0x28) {
          if (caseWord()) return { unsure: 'a case statement and a <(…)' };
          frames.push(SUB);
          depths.push(0);
          i += 2;
          wordStart = true;
          continue;
        }
        i++;
        wordStart = true;
        continue;
      case 0x28: // (
        if (next === 0x28 || (next === 0x5c && pairAt(i + 1))) return { unsure: 'arithmetic' };
        if (kind === SUB) depths[depths.length - 1] = (depths[depths.length - 1] as number) + 1;
        i++;
        wordStart = true;
        continue;
      case 0x29: // )
        i++;
        if (kind === SUB) {
          if ((depths[depths.length - 1] as number) === 0) {
            frames.pop();
            depths.pop();
            wordStart = false;
            continue;
          }
          depths[depths.length - 1] = (depths[depths.length - 1] as number) - 1;
        }
        wordStart = true;
        continue;
      case 0x20: // space
      case 0x09: // tab
      case 0x0a: // newline
      case 0x3b: // ;
      case 0x26: // &
      case 0x7c: // |
        i++;
        wordStart = true;
        continue;
    }
    i++;
    wordStart = false;
  }
  if (frames.length > 1) return { unsure: 'a quote or substitution the text ends inside' };
  return { joined: joinAt(source, removed, quoted) };
}
