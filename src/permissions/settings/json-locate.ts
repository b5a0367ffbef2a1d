/**
 * Settings JSON with the line where each value starts, so settings problems (a malformed rule, a
 * wrong type) are reported with their 1-based line.
 *
 * Two passes: a small strict scanner (RFC 8259, nesting capped at 200) records lines and finds the
 * position of a syntax error; the VALUE always comes from `JSON.parse`, as Claude Code reads the
 * file. So a `"__proto__"` key is an ordinary own key (it never becomes a prototype that smuggles
 * inherited `allow` rules), and a duplicate key keeps its last value.
 *
 * Returns `{ok: true, value, lineOf(path)}` or `{ok: false, message, line, column}`; never throws.
 */

export type JsonPath = readonly (string | number)[];

export type LocatedJson =
  | { ok: true; value: unknown; lineOf(path: JsonPath): number | undefined }
  | { ok: false; message: string; line: number; column: number };

const LITERAL = /true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly pos: number,
  ) {
    super(message);
  }
}

/** Parses `text`, recording the line of every value under its path (`permissions.allow.3`). */
export function parseJsonWithLines(text: string): LocatedJson {
  const lines = new Map<string, number>();
  const lineStarts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const lineAt = (pos: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] as number) <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  let i = 0;
  const ws = (): void => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const fail = (msg: string): never => {
    throw new JsonSyntaxError(msg, i);
  };
  const str = (): string => {
    const start = i;
    i++;
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text[i];
      if (c === '"') break;
      if (c === '\\') i += 2;
      else {
        if ((c as string).charCodeAt(0) < 0x20) fail('control character in string');
        i++;
      }
    }
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      i = start;
      return fail('invalid escape in string');
    }
  };
  const value = (path: (string | number)[]): void => {
    if (path.length > 200) fail('nesting deeper than 200 levels');
    ws();
    lines.set(path.join('\u0000'), lineAt(i));
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a property name in double quotes');
        const key = str();
        ws();
        if (text[i] !== ':') fail('expected ":" after property name');
        i++;
        value([...path, key]);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail('expected "," or "}" in object');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let n = 0; ; n++) {
        value([...path, n]);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail('expected "," or "]" in array');
      }
    }
    if (c === '"') {
      str();
      return;
    }
    // Sticky match at `i`: a literal of any length (a number is not cut at some width).
    LITERAL.lastIndex = i;
    const lit = LITERAL.exec(text);
    if (!lit) return fail(c === undefined ? 'unexpected end of input' : `unexpected character "${c}"`);
    i += lit[0].length;
  };
  try {
    value([]);
    ws();
    if (i < text.length) fail('unexpected text after the JSON value');
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    const line = lineAt(Math.min(e.pos, text.length));
    const column = Math.min(e.pos, text.length) - (lineStarts[line - 1] as number) + 1;
    return { ok: false, message: e.message, line, column };
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    // The scanner accepted what JSON.parse refuses: report JSON.parse's reason, at the top.
    return { ok: false, message: (e as Error).message, line: 1, column: 1 };
  }
  return { ok: true, value: v, lineOf: (p) => lines.get(p.join('\u0000')) };
}
