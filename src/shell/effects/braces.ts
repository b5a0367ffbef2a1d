/**
 * Static brace expansion (`{a,b}`, `{1..3}`, `{a..c}`, nested), as bash does it before globbing,
 * so effects name the real targets (`cat {..,.}/secret` reads `../secret`).
 *
 * Returns undefined when the expansion would exceed `maxWords`, or build more than
 * `MAX_BRACE_EXPANSION_CHARS` (or 16 × its length) characters of partial words (the caller then reports the
 * target as unknown). Quoting is not tracked here: callers pass the word's unquoted text only
 * when the parser flagged unquoted brace expansion (`Word.braceExpansion`).
 *
 * Source: bash manual "Brace Expansion"; security README "brace expansion whose results leave the
 * project".
 */
import { MAX_BRACE_EXPANSION_CHARS } from '../budget.js';

/** Finds the first top-level `{…}` with a comma or a `..` range; returns [start, end] or undefined. */
function findBrace(s: string): [number, number, string[]] | undefined {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') {
      i++;
      continue;
    }
    if (s[i] !== '{' || s[i - 1] === '$') continue;
    let depth = 0;
    const parts: string[] = [];
    let partStart = i + 1;
    for (let j = i; j < s.length; j++) {
      const c = s[j];
      if (c === '\\') {
        j++;
        continue;
      }
      if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (depth === 0) {
          parts.push(s.slice(partStart, j));
          if (parts.length > 1) return [i, j, parts];
          const range = rangeItems(parts[0] as string);
          if (range) return [i, j, range];
          break;
        }
      } else if (c === ',' && depth === 1) {
        parts.push(s.slice(partStart, j));
        partStart = j + 1;
      }
    }
  }
  return undefined;
}

function rangeItems(body: string): string[] | undefined {
  const m = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/.exec(body);
  if (!m) return undefined;
  const [, a, b, stepText] = m as unknown as [string, string, string, string | undefined];
  const step = Math.abs(Number(stepText ?? 1)) || 1;
  const numeric = /^-?\d+$/.test(a) && /^-?\d+$/.test(b);
  if (!numeric && (/^-?\d+$/.test(a) || /^-?\d+$/.test(b))) return undefined;
  const from = numeric ? Number(a) : a.charCodeAt(0);
  const to = numeric ? Number(b) : b.charCodeAt(0);
  const out: string[] = [];
  const dir = from <= to ? 1 : -1;
  for (let v = from; dir > 0 ? v <= to : v >= to; v += dir * step) {
    out.push(numeric ? String(v) : String.fromCharCode(v));
    if (out.length > 10_000) return undefined;
  }
  return out;
}

/** Expands braces in `text`; undefined when more than `maxWords` words would result. */
export function expandBraces(text: string, maxWords = 64): string[] | undefined {
  const done: string[] = [];
  const work = [text];
  let built = 0;
  const maxBuilt = Math.max(MAX_BRACE_EXPANSION_CHARS, 16 * text.length);
  while (work.length > 0) {
    const s = work.pop() as string;
    const b = findBrace(s);
    if (!b) {
      done.push(s);
      if (done.length > maxWords) return undefined;
      continue;
    }
    const [start, end, items] = b;
    const pre = s.slice(0, start);
    const post = s.slice(end + 1);
    built += items.length * (pre.length + post.length);
    if (built > maxBuilt) return undefined;
    for (let k = items.length - 1; k >= 0; k--) work.push(pre + items[k] + post);
    if (work.length + done.length > maxWords * 4) return undefined;
  }
  return done;
}
