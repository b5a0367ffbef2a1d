/**
 * The lexical scans that decide where the text handed to tree-sitter ends (parser.ts, budget.ts,
 * docs/analysis-budget.md "Work budgets"): `lexicalCut` (long pipelines, deep `${`),
 * `operatorRunAt` (a long run of control operators, a syntax error), and the
 * statement boundaries for the prefix of a command whose parse a work cap stopped.
 *
 * When tree-sitter gets "end of input" in the middle of a construct, finishing the tree of what it
 * read means error recovery over everything still open, which can cost more than the parse itself
 * (100–300 progress reports on the benchmark's shapes, so the parse was cancelled and nothing was
 * kept). A text that ends just before a statement separator at the top level (a newline, `;`, `&`,
 * `&&`, `|`, `||`) ends where a statement ends: its tree finishes at once, and the statements
 * before the cut (a denied write at the start of a padded line) are analysed. So the parser ends
 * its forward reads at such a boundary when there is one in the second half of the chunk, and
 * re-parses a prefix up to one.
 *
 * A lexical approximation, linear: it skips single and double quotes, backticks, backslash escapes
 * and comments, and counts `(`/`)` and `{`/`}` (a `)` with nothing open, as in `case` patterns, is
 * ignored). Heredoc bodies and keywords (`if … fi`) are not understood. A wrong answer only moves
 * a cut (the prefix's parse then has an error, or does not finish and is dropped: the analysis asks
 * either way), and it never changes a tree that was not cut (tree-sitter's tree does not depend on
 * how its input is chunked).
 */

const NORMAL = 0;
const SINGLE = 1;
const DOUBLE = 2;
const BACKTICK = 3;
const COMMENT = 4;

/** Scans a text forward, once, and remembers the last top-level statement boundary it passed. */
export class BoundaryScanner {
  /** Offset of the last boundary found (the separator's own offset; the statement ends before it), or -1. */
  last = -1;
  private pos = 0;
  private mode = NORMAL;
  private depth = 0;
  private wordStart = true;

  constructor(private readonly source: string) {}

  /** Scans up to `limit` (exclusive; never backwards) and returns `last`. */
  advance(limit: number): number {
    const s = this.source;
    const end = Math.min(limit, s.length);
    let { pos: i, mode, depth, wordStart, last } = this;
    for (; i < end; i++) {
      const c = s.charCodeAt(i);
      if (mode === SINGLE) {
        if (c === 0x27) mode = NORMAL;
        continue;
      }
      if (mode === DOUBLE || mode === BACKTICK) {
        if (c === 0x5c) i++;
        else if (c === (mode === DOUBLE ? 0x22 : 0x60)) mode = NORMAL;
        continue;
      }
      if (mode === COMMENT) {
        if (c !== 0x0a) continue;
        mode = NORMAL;
      }
      switch (c) {
        case 0x5c: // backslash
          i++;
          break;
        case 0x27: // '
          mode = SINGLE;
          break;
        case 0x22: // "
          mode = DOUBLE;
          break;
        case 0x60: // `
          mode = BACKTICK;
          break;
        case 0x23: // #
          if (wordStart) {
            mode = COMMENT;
            continue;
          }
          break;
        case 0x28: // (
        case 0x7b: // {
          depth++;
          wordStart = true;
          continue;
        case 0x29: // )
        case 0x7d: // }
          if (depth > 0) depth--;
          break;
        case 0x0a: // newline
        case 0x3b: // ;
        case 0x26: // &
        case 0x7c: {
          // |
          const prev = i > 0 ? s.charCodeAt(i - 1) : 0x0a;
          // `>&`, `<&`, `&>`, `>|` belong to a redirection; the second character of `&&`, `||`,
          // `;;`, `|&` to an operator already counted
          const redirect =
            (c === 0x26 && (prev === 0x3e || prev === 0x3c || s.charCodeAt(i + 1) === 0x3e)) ||
            (c === 0x7c && prev === 0x3e);
          const second = c !== 0x0a && (prev === 0x26 || prev === 0x7c || prev === 0x3b);
          if (depth === 0 && !redirect && !second && i > 0) last = i;
          wordStart = true;
          continue;
        }
        case 0x20: // space
        case 0x09: // tab
        case 0x3c: // <
        case 0x3e: // >
          wordStart = true;
          continue;
      }
      wordStart = false;
    }
    Object.assign(this, { pos: Math.max(i, this.pos), mode, depth, wordStart, last });
    return last;
  }
}

/**
 * Offset of the last top-level statement separator before `limit`, so that
 * `source.slice(0, offset)` ends with a complete statement; -1 when there is none or the text
 * before it is blank.
 */
export function statementBoundaryBefore(source: string, limit: number): number {
  const last = new BoundaryScanner(source).advance(limit);
  return last > 0 && source.slice(0, last).trim() !== '' ? last : -1;
}

/**
 * Where the text stops being handed to the parser for a lexical reason, or undefined: the pipe
 * that starts stage `maxStages + 1` of one pipeline, or the `${` that opens expansion level
 * `maxExpansionDepth + 1` (tree-sitter-bash is slow on both: 1–10 ms per KiB, worse than linear for
 * some shapes). A lexical approximation, linear: text inside single quotes and escapes is skipped,
 * a pipeline ends at a newline, `;`, `&&`, `||` or a lone `&`. Miscounting only moves the cut (the
 * parse is then cut early, which asks, or the work caps and the deadline bound it).
 */
export function lexicalCut(
  source: string,
  maxStages: number,
  maxExpansionDepth: number,
): { at: number; kind: 'pipeline' | 'expansion' } | undefined {
  let pipes = 0;
  let expansions = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === "'" && expansions === 0) {
      const close = source.indexOf("'", i + 1);
      if (close < 0) return undefined;
      i = close;
    } else if (c === '"' && expansions === 0) {
      let j = i + 1;
      while (j < source.length && source[j] !== '"') {
        if (source[j] === '$' && source[j + 1] === '{') break;
        j += source[j] === '\\' ? 2 : 1;
      }
      if (source[j] === '$') j--; // an expansion inside the quotes: counted below
      i = j;
    } else if (c === '$' && source[i + 1] === '{') {
      if (++expansions > maxExpansionDepth) return { at: i, kind: 'expansion' };
      i++;
    } else if (c === '}' && expansions > 0) expansions--;
    else if (c === '\n' || c === ';') pipes = 0;
    else if (c === '&') {
      if (source[i + 1] === '&') i++;
      if (source[i - 1] !== '|' && source[i - 1] !== '>' && source[i + 1] !== '>') pipes = 0;
    } else if (c === '|') {
      if (source[i + 1] === '|') {
        i++;
        pipes = 0;
      } else if (++pipes > maxStages - 1) return { at: i, kind: 'pipeline' };
    }
  }
  return undefined;
}

/** Offset of the pipe that starts stage `maxStages + 1` of one pipeline, or -1 (see `lexicalCut`). */
export function longPipelineAt(source: string, maxStages: number): number {
  const cut = lexicalCut(source, maxStages, Number.POSITIVE_INFINITY);
  return cut?.kind === 'pipeline' ? cut.at : -1;
}

/** Pre-check of `operatorRunAt`: `min` control-operator characters with only blanks between. */
const runPattern = (min: number): RegExp => new RegExp(`(?:[&|;][ \\t\\n]*){${min}}`);
let cachedRun: { min: number; re: RegExp } | undefined;

/**
 * Offset of the first of `minOperators` (or more) control-operator characters (`&`, `|`, `;`) in a
 * row in code, with only blanks and newlines between them (`&&&&…`, `; ; ;`, `|| || ||`), or -1.
 * Bash rejects such a line there: between two control operators there must be a command, except
 * for the `case` terminators (`;;`, `;&`, `;;&`) and one separator before one (`a; ;;`), so valid
 * bash never has more than four such characters in a row. tree-sitter's error recovery over a
 * long run is slow (about three times the work per KiB of valid bash), and its tree would only
 * ask. The scan skips what is not code: quotes, `$'…'`, escapes, comments, `${…}`, arithmetic
 * (`$((…))`, `((…))`), `[[ … ]]` and extglob groups; it finds nothing (-1) when the text has a
 * heredoc, a backtick or a substitution inside double quotes, or something it cannot follow
 * (an unterminated quote), so it never cuts what it does not understand. Linear.
 */
export function operatorRunAt(source: string, minOperators: number): number {
  if (cachedRun?.min !== minOperators) cachedRun = { min: minOperators, re: runPattern(minOperators) };
  if (!cachedRun.re.test(source)) return -1;
  const n = source.length;
  let runStart = -1;
  let count = 0;
  let wordStart = true;
  /** Offset of the `close` that balances the `open` at `i` (nesting), or -1. */
  const balanced = (i: number, open: string, close: string): number => {
    let depth = 0;
    for (let j = i; j < n; j++) {
      const c = source[j];
      if (c === '\\') j++;
      else if (c === "'" || c === '"' || c === '`') return -1;
      else if (c === open) depth++;
      else if (c === close && --depth === 0) return j;
    }
    return -1;
  };
  for (let i = 0; i < n; i++) {
    const c = source[i] as string;
    if (c === '&' || c === '|' || c === ';') {
      if (count === 0) runStart = i;
      if (++count >= minOperators) return runStart;
      wordStart = true;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n') {
      wordStart = true;
      continue;
    }
    count = 0;
    const next = source[i + 1];
    let end = i;
    if (c === '\\') end = i + 1;
    else if (c === "'") end = source.indexOf("'", i + 1);
    else if (c === '"') {
      for (end = i + 1; end < n && source[end] !== '"'; end++) {
        const d = source[end];
        if (d === '`' || (d === '$' && source[end + 1] === '(')) return -1;
        if (d === '\\') end++;
      }
      if (end >= n) return -1;
    } else if (c === '`') return -1;
    else if (c === '$' && next === "'") {
      for (end = i + 2; end < n && source[end] !== "'"; end++) if (source[end] === '\\') end++;
      if (end >= n) return -1;
    } else if (c === '$' && next === '{') end = balanced(i + 1, '{', '}');
    else if ((c === '$' && next === '(' && source[i + 2] === '(') || (c === '(' && next === '('))
      end = balanced(c === '$' ? i + 1 : i, '(', ')');
    else if (c === '(' && i > 0 && '@!?*+'.includes(source[i - 1] as string)) end = balanced(i, '(', ')');
    else if (c === '#' && wordStart) {
      end = source.indexOf('\n', i);
      if (end < 0) return -1;
      end--;
    } else if (c === '<' && next === '<' && source[i + 2] !== '<') return -1;
    else if (c === '[' && next === '[' && wordStart) {
      end = source.indexOf(']]', i + 2);
      if (end >= 0) end++;
    }
    if (end < 0) return -1;
    i = end;
    wordStart = false;
  }
  return -1;
}
