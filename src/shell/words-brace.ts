/**
 * Bash brace expansion on static text (bash(1) "Brace Expansion"): `a{b,c}d` → `abd acd`,
 * `{1..3}` → `1 2 3`, `{a..c}` → `a b c`, `{01..10..3}` zero-padded, nested braces. Iterative
 * (work queue), capped: past `maxResults` words, or `MAX_BRACE_EXPANSION_CHARS` (or 16 × its length) characters of
 * partial words built, it stops and reports `truncated`.
 * Used by the checks (where do expanded words point?) and available to effects.
 */
import { MAX_BRACE_EXPANSION_CHARS } from './budget.js';

export interface BraceExpansion {
  words: string[];
  /** True when the expansion would produce more than `maxResults` words. */
  truncated: boolean;
}

interface Found {
  open: number;
  close: number;
  alternatives: string[];
}

/** Finds the first expandable brace group at or after `from` (bash skips `{}` and groups without `,`/`..`). */
function findGroup(text: string, from: number): Found | undefined {
  for (let open = text.indexOf('{', from); open >= 0; open = text.indexOf('{', open + 1)) {
    if (open > 0 && text[open - 1] === '$') continue; // ${var}
    let depth = 0;
    const commas: number[] = [];
    let close = -1;
    for (let i = open; i < text.length; i++) {
      const c = text[i];
      if (c === '\\') {
        i++;
        continue;
      }
      if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (depth === 0) {
          close = i;
          break;
        }
      } else if (c === ',' && depth === 1) commas.push(i);
    }
    if (close < 0) return undefined;
    const inner = text.slice(open + 1, close);
    if (commas.length > 0) {
      const alternatives: string[] = [];
      let start = open + 1;
      for (const c of commas) {
        alternatives.push(text.slice(start, c));
        start = c + 1;
      }
      alternatives.push(text.slice(start, close));
      return { open, close, alternatives };
    }
    const seq = sequence(inner);
    if (seq) return { open, close, alternatives: seq };
  }
  return undefined;
}

const NUM_SEQ = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/;
const CHAR_SEQ = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/;
const SEQ_CAP = 10_000;

function sequence(inner: string): string[] | undefined {
  const num = NUM_SEQ.exec(inner);
  if (num) {
    const a = Number(num[1]);
    const b = Number(num[2]);
    const step = Math.abs(Number(num[3] ?? 1)) || 1;
    const width =
      /^-?0\d/.test(num[1] ?? '') || /^-?0\d/.test(num[2] ?? '')
        ? Math.max((num[1] ?? '').length, (num[2] ?? '').length)
        : 0;
    const out: string[] = [];
    for (let v = a; a <= b ? v <= b : v >= b; v += a <= b ? step : -step) {
      out.push(
        width
          ? String(Math.abs(v))
              .padStart(v < 0 ? width - 1 : width, '0')
              .replace(/^/, v < 0 ? '-' : '')
          : String(v),
      );
      if (out.length > SEQ_CAP) break;
    }
    return out;
  }
  const ch = CHAR_SEQ.exec(inner);
  if (ch) {
    const a = (ch[1] as string).charCodeAt(0);
    const b = (ch[2] as string).charCodeAt(0);
    const step = Math.abs(Number(ch[3] ?? 1)) || 1;
    const out: string[] = [];
    for (let v = a; a <= b ? v <= b : v >= b; v += a <= b ? step : -step) out.push(String.fromCharCode(v));
    return out;
  }
  return undefined;
}

/** Expands all brace groups of `text`. */
export function expandBraces(text: string, maxResults = 256): BraceExpansion {
  const done: string[] = [];
  const queue: Array<{ text: string; from: number }> = [{ text, from: 0 }];
  let truncated = false;
  let built = 0;
  const maxBuilt = Math.max(MAX_BRACE_EXPANSION_CHARS, 16 * text.length);
  while (queue.length > 0) {
    const item = queue.shift() as { text: string; from: number };
    const group = findGroup(item.text, item.from);
    if (!group) {
      done.push(item.text);
      if (done.length > maxResults) {
        truncated = true;
        break;
      }
      continue;
    }
    if (queue.length + done.length + group.alternatives.length > maxResults * 4) {
      truncated = true;
      break;
    }
    const pre = item.text.slice(0, group.open);
    const post = item.text.slice(group.close + 1);
    built += group.alternatives.length * (pre.length + post.length);
    if (built > maxBuilt) {
      truncated = true;
      break;
    }
    for (const alt of group.alternatives) queue.push({ text: pre + alt + post, from: group.open });
  }
  return { words: done.slice(0, maxResults), truncated };
}
