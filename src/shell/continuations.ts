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
  let out = '';
  let last = 0;
  let k = 0;
  let q = 0;
  const midWord: number[] = [];
  for (let i = source.indexOf('\\\n'); i >= 0; i = source.indexOf('\\\n', i + 2)) {
    let backslashes = 0;
    for (let j = i - 1; j >= last && source[j] === '\\'; j--) backslashes++;
    if (backslashes % 2 === 1) continue;
    while (k < kept.length && (kept[k] as [number, number])[1] <= i) k++;
    const region = kept[k];
    if (region && region[0] <= i && i < region[1]) continue;
    out += source.slice(last, i);
    last = i + 2;
    while (q < quoted.length && (quoted[q] as [number, number])[1] <= i) q++;
    const inQuotes = quoted[q] !== undefined && (quoted[q] as [number, number])[0] <= i;
    if (!inQuotes && WORD_CHAR.test(source[i - 1] ?? ' ') && WORD_CHAR.test(source[i + 2] ?? ' '))
      midWord.push(out.length);
  }
  return last === 0 ? undefined : { text: out + source.slice(last), midWord };
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
