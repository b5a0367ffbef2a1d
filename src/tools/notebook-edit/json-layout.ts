/**
 * JSON with positions, and a serialiser that writes in a document's own style. NotebookEdit uses
 * them to change one cell of a notebook while every byte outside that cell stays as it was.
 *
 * - `parseJsonSpans(text)` returns the value tree with `[start, end)` offsets of every value (a
 *   strict JSON parser; it throws a SyntaxError with the offset on bad input).
 * - `detectJsonStyle(text, root)` reads the indentation unit (one space for Jupyter's
 *   `json.dumps(indent=1)`, two, four, tabs, or none for compact files), the key separator
 *   (`": "` or `":"`), the item separator of compact files, the newline (`\n` or `\r\n`) and whether
 *   non-ASCII characters are written as `\uXXXX` escapes (Python's `ensure_ascii`).
 * - `serializeJson(value, depth, style)` writes a value as that style would at nesting `depth`.
 */

export type JsonNode =
  | { kind: 'object'; start: number; end: number; members: JsonMember[] }
  | { kind: 'array'; start: number; end: number; items: JsonNode[] }
  | { kind: 'scalar'; start: number; end: number };

export interface JsonMember {
  key: string;
  keyStart: number;
  value: JsonNode;
}

const SCALAR = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

/** Parses `text` as JSON, keeping positions. @throws SyntaxError naming the offset. */
export function parseJsonSpans(text: string): JsonNode {
  let pos = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at offset ${pos}`);
  };
  const ws = () => {
    while (pos < text.length && ' \t\r\n'.includes(text[pos] as string)) pos++;
  };
  const string = (): string => {
    const start = pos;
    pos++; // opening quote
    while (pos < text.length) {
      const ch = text[pos];
      if (ch === '\\') pos += 2;
      else if (ch === '"') {
        pos++;
        return JSON.parse(text.slice(start, pos)) as string;
      } else pos++;
    }
    return fail('unterminated string');
  };
  const value = (): JsonNode => {
    ws();
    const start = pos;
    const ch = text[pos];
    if (ch === '{') {
      pos++;
      const members: JsonMember[] = [];
      ws();
      if (text[pos] === '}') {
        pos++;
        return { kind: 'object', start, end: pos, members };
      }
      for (;;) {
        ws();
        if (text[pos] !== '"') fail('expected a key');
        const keyStart = pos;
        const key = string();
        ws();
        if (text[pos] !== ':') fail('expected ":"');
        pos++;
        members.push({ key, keyStart, value: value() });
        ws();
        if (text[pos] === ',') {
          pos++;
          continue;
        }
        if (text[pos] === '}') {
          pos++;
          return { kind: 'object', start, end: pos, members };
        }
        fail('expected "," or "}"');
      }
    }
    if (ch === '[') {
      pos++;
      const items: JsonNode[] = [];
      ws();
      if (text[pos] === ']') {
        pos++;
        return { kind: 'array', start, end: pos, items };
      }
      for (;;) {
        items.push(value());
        ws();
        if (text[pos] === ',') {
          pos++;
          continue;
        }
        if (text[pos] === ']') {
          pos++;
          return { kind: 'array', start, end: pos, items };
        }
        fail('expected "," or "]"');
      }
    }
    if (ch === '"') {
      string();
      return { kind: 'scalar', start, end: pos };
    }
    // Sticky match at `pos`: a literal of any length (a long number is not cut at some width).
    SCALAR.lastIndex = pos;
    const m = SCALAR.exec(text);
    if (!m) return fail('unexpected character');
    pos += m[0].length;
    return { kind: 'scalar', start, end: pos };
  };
  const root = value();
  ws();
  if (pos !== text.length) fail('trailing content');
  return root;
}

export interface JsonStyle {
  /** Indentation unit, or null for a compact (single-line) document. */
  indent: string | null;
  newline: '\n' | '\r\n';
  /** Between a key and its value: `": "` or `":"` (as written after the key's closing quote). */
  keySeparator: string;
  /** Between items of a compact document: `","` or `", "`. */
  compactItemSeparator: string;
  /** Write non-ASCII characters as `\uXXXX`. */
  asciiOnly: boolean;
}

/** Reads the style of `text` (see module doc). Defaults are Jupyter's when a trait cannot be seen. */
export function detectJsonStyle(text: string, root: JsonNode): JsonStyle {
  const newline: '\n' | '\r\n' = text.includes('\r\n') ? '\r\n' : '\n';
  let indent: string | null = ' ';
  let keySeparator = ': ';
  let compactItemSeparator = ', ';
  if (root.kind === 'object' && root.members.length > 0) {
    const first = root.members[0] as JsonMember;
    const gap = text.slice(root.start + 1, first.keyStart);
    indent = gap.includes('\n') ? gap.slice(gap.lastIndexOf('\n') + 1) || null : null;
    const keyEnd = first.keyStart + escapedLength(text, first.keyStart) + 2;
    keySeparator = text.slice(keyEnd, first.value.start) || ':';
    if (root.members.length > 1) {
      const second = root.members[1] as JsonMember;
      compactItemSeparator = text.slice(first.value.end, second.keyStart) || ',';
    }
  }
  const rawNonAscii = /[^\x00-\x7f]/.test(text);
  const escapedNonAscii =
    /\\u(?:00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})/.test(text);
  return { indent, newline, keySeparator, compactItemSeparator, asciiOnly: escapedNonAscii && !rawNonAscii };
}

/** Length of the string body starting after the quote at `quoteAt` up to (not incl.) the closing quote. */
function escapedLength(text: string, quoteAt: number): number {
  let i = quoteAt + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i - quoteAt - 1;
}

/** JSON string literal in `style` (non-ASCII escaped as lower-case `\uXXXX` when asciiOnly, as Python). */
export function serializeString(value: string, style: JsonStyle): string {
  const json = JSON.stringify(value);
  if (!style.asciiOnly) return json;
  return json.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The whitespace before an item at nesting `depth` (newline + indentation, or nothing when compact). */
export function lineStart(depth: number, style: JsonStyle): string {
  return style.indent === null ? '' : style.newline + style.indent.repeat(depth);
}

/** Serialises `value` as it would appear at nesting `depth` (the root is depth 0) in `style`. */
export function serializeJson(value: unknown, depth: number, style: JsonStyle): string {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'string' ? serializeString(value, style) : JSON.stringify(value ?? null);
  }
  const separator = style.indent === null ? style.compactItemSeparator : ',';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((item) => lineStart(depth + 1, style) + serializeJson(item, depth + 1, style));
    return `[${items.join(separator)}${lineStart(depth, style)}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  const members = entries.map(
    ([k, v]) =>
      `${lineStart(depth + 1, style)}${serializeString(k, style)}${style.keySeparator}${serializeJson(v, depth + 1, style)}`,
  );
  return `{${members.join(separator)}${lineStart(depth, style)}}`;
}
