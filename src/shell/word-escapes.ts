/**
 * Backslash escapes of shell words, as bash removes them (bash(1) "QUOTING"): unquoted words,
 * double-quoted strings and the inside of `$'…'`. Used by words.ts's quote removal.
 */
import { MASK_QUOTED } from './brace-expand.js';

const QUOTED = MASK_QUOTED;

/** Unquoted word: `\x` → `x` (escaped, so not a glob), `\<newline>` → removed. */
export function unescapeUnquoted(raw: string): {
  text: string;
  mask: string;
  escaped: boolean;
  continuation: boolean;
} {
  if (!raw.includes('\\')) return { text: raw, mask: raw, escaped: false, continuation: false };
  let text = '';
  let mask = '';
  let escaped = false;
  let continuation = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (c === '\\' && i + 1 < raw.length) {
      const next = raw[i + 1] as string;
      i++;
      escaped = true;
      if (next === '\n') {
        continuation = true;
        continue;
      }
      text += next;
      mask += QUOTED;
      continue;
    }
    text += c;
    mask += c;
  }
  return { text, mask, escaped, continuation };
}

/** Inside double quotes a backslash only escapes `$`, backtick, `"`, `\` and newline. */
export function unescapeDouble(raw: string): { text: string; continuation: boolean } {
  if (!raw.includes('\\')) return { text: raw, continuation: false };
  let text = '';
  let continuation = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (c === '\\' && i + 1 < raw.length) {
      const next = raw[i + 1] as string;
      if (next === '\n') {
        continuation = true;
        i++;
        continue;
      }
      if (next === '$' || next === '`' || next === '"' || next === '\\') {
        text += next;
        i++;
        continue;
      }
    }
    text += c;
  }
  return { text, continuation };
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Decodes the inside of `$'…'` as bash does (\n \t \xHH \NNN \uHHHH \UHHHHHHHH \cX …). */
export function decodeAnsiC(inner: string): string {
  let out = '';
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i] as string;
    if (c !== '\\' || i + 1 >= inner.length) {
      out += c;
      continue;
    }
    const e = inner[i + 1] as string;
    i++;
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    if (e === 'x' || e === 'u' || e === 'U') {
      const max = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      let hex = '';
      while (hex.length < max && /[0-9a-fA-F]/.test(inner[i + 1] ?? '')) hex += inner[++i];
      if (hex === '') out += `\\${e}`;
      else {
        const cp = Number.parseInt(hex, 16);
        out += cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
      }
      continue;
    }
    if (e >= '0' && e <= '7') {
      let oct = e;
      while (oct.length < 3 && /[0-7]/.test(inner[i + 1] ?? '')) oct += inner[++i];
      out += String.fromCharCode(Number.parseInt(oct, 8) & 0xff);
      continue;
    }
    if (e === 'c' && i + 1 < inner.length) {
      const ch = inner[++i] as string;
      out += String.fromCharCode(ch.toUpperCase().charCodeAt(0) & 0x1f);
      continue;
    }
    out += `\\${e}`;
  }
  return out;
}
