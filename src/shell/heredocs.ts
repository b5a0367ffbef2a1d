/**
 * Heredocs located as bash locates them (bash(1) "Here Documents"), independently of
 * tree-sitter-bash, whose heredoc grammar fails on common forms (a command after `<<EOF;` on the
 * same line, several heredocs on one line, a delimiter line with trailing blanks).
 *
 * Bash's rule is lexical: each `<<WORD` / `<<-WORD` operator in code is queued; when the lexer
 * reaches the next unquoted newline, the queued documents read their bodies from the lines that
 * follow, in order, each up to the first line equal to its delimiter (after leading tabs are
 * removed for `<<-`; trailing blanks are part of the line, so `EOF ` is not a delimiter). The
 * delimiter is the word after quote removal; any quoting turns expansion off in the body. A
 * document with no delimiter line runs to the end of the input (bash warns and accepts it).
 *
 * `scanHeredocs` implements that rule with a small lexer (quotes, `$'…'`, comments, `$(…)`,
 * backticks, `$((…))`/`((…))` where `<<` is a shift). `maskHeredocs` then rewrites the text for
 * the parser, keeping every offset: each operator becomes an input redirection of the same
 * length (`<<-'EOF'` → `<  'EOF'`) and every body and delimiter line becomes blanks, so the parser
 * sees the command line exactly as bash splits it; callers attach the bodies back by operator
 * offset. Continuations must already be joined (continuations.ts): bash joins them before it
 * compares a line with the delimiter.
 */

/** One here-document. Offsets are indices into the scanned text. */
export interface Heredoc {
  /** Offset of the `<<` operator (after any fd digits). */
  op: number;
  /** True for `<<-` (leading tabs stripped from body lines and the delimiter line). */
  strip: boolean;
  /** Offset just past the delimiter word as written. */
  wordEnd: number;
  /** The delimiter after quote removal. */
  delimiter: string;
  /** True when any part of the delimiter word was quoted (the body is not expanded). */
  quoted: boolean;
  /** Body text range (the lines before the delimiter line, newlines included). */
  bodyStart: number;
  bodyEnd: number;
  /** Offset just past the delimiter line (its newline excluded), or the text end. */
  end: number;
  /** The body as the command reads it (leading tabs removed for `<<-`). */
  body: string;
  /** False when the input ended before a delimiter line. */
  terminated: boolean;
}

/** Result of a scan. */
export interface HeredocScan {
  heredocs: Heredoc[];
  /** Set when the lexer met something it does not follow (an unterminated quote or substitution). */
  unsure?: string;
}

type Frame =
  | { kind: 'code'; depth: number; sub: boolean }
  | { kind: 'dquote' }
  | { kind: 'backtick' }
  | { kind: 'arith'; depth: number };

const BLANK = /[ \t]/;
const WORD_END = /[\s;&|<>()]/;
const WORD_START_BEFORE = /[\s;&|()<>]/;

/** Reads the delimiter word starting at `i`: [end offset, text after quote removal, quoted]. */
function readDelimiter(text: string, i: number): [number, string, boolean] {
  let out = '';
  let quoted = false;
  while (i < text.length && !WORD_END.test(text[i] as string)) {
    const c = text[i] as string;
    if (c === "'") {
      const close = text.indexOf("'", i + 1);
      const end = close < 0 ? text.length : close;
      out += text.slice(i + 1, end);
      quoted = true;
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        out += text[j];
        j++;
      }
      quoted = true;
      i = j + 1;
    } else if (c === '\\' && i + 1 < text.length) {
      out += text[i + 1];
      quoted = true;
      i += 2;
    } else if (c === '$' && text[i + 1] === "'") {
      const close = text.indexOf("'", i + 2);
      const end = close < 0 ? text.length : close;
      out += text.slice(i + 2, end);
      quoted = true;
      i = end + 1;
    } else {
      out += c;
      i++;
    }
  }
  return [Math.min(i, text.length), out, quoted];
}

/** Finds every here-document of `text` (see the module comment). Linear in the text length. */
export function scanHeredocs(text: string): HeredocScan {
  const heredocs: Heredoc[] = [];
  if (!text.includes('<<')) return { heredocs };
  const pending: Omit<Heredoc, 'bodyStart' | 'bodyEnd' | 'end' | 'body' | 'terminated'>[] = [];
  const stack: Frame[] = [{ kind: 'code', depth: 0, sub: false }];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const frame = stack[stack.length - 1] as Frame;
    const c = text[i] as string;
    if (frame.kind === 'dquote') {
      if (c === '\\') i += 2;
      else if (c === '"') {
        stack.pop();
        i++;
      } else if (c === '`') {
        stack.push({ kind: 'backtick' });
        i++;
      } else if (c === '$' && text.startsWith('$((', i)) {
        stack.push({ kind: 'arith', depth: 0 });
        i += 3;
      } else if (c === '$' && text[i + 1] === '(') {
        stack.push({ kind: 'code', depth: 0, sub: true });
        i += 2;
      } else i++;
      continue;
    }
    if (frame.kind === 'arith') {
      if (c === '(') frame.depth++;
      else if (c === ')') {
        if (frame.depth === 0 && text[i + 1] === ')') {
          stack.pop();
          i += 2;
          continue;
        }
        frame.depth--;
      } else if (c === '$' && text[i + 1] === '(' && text[i + 2] !== '(') {
        stack.push({ kind: 'code', depth: 0, sub: true });
        i += 2;
        continue;
      }
      i++;
      continue;
    }
    // code or backtick frames
    if (frame.kind === 'backtick' && c === '`') {
      stack.pop();
      i++;
      continue;
    }
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0) return { heredocs, unsure: 'an unterminated single quote' };
      i = close + 1;
      continue;
    }
    if (c === '$' && text[i + 1] === "'") {
      let j = i + 2;
      while (j < n && text[j] !== "'") j += text[j] === '\\' ? 2 : 1;
      if (j >= n) return { heredocs, unsure: "an unterminated $'" };
      i = j + 1;
      continue;
    }
    if (c === '"') {
      stack.push({ kind: 'dquote' });
      i++;
      continue;
    }
    if (c === '`') {
      stack.push({ kind: 'backtick' });
      i++;
      continue;
    }
    if (c === '#' && (i === 0 || WORD_START_BEFORE.test(text[i - 1] as string))) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? n : nl;
      continue;
    }
    if (c === '$' && text.startsWith('$((', i)) {
      stack.push({ kind: 'arith', depth: 0 });
      i += 3;
      continue;
    }
    if (c === '(' && text[i + 1] === '(') {
      stack.push({ kind: 'arith', depth: 0 });
      i += 2;
      continue;
    }
    if (c === '$' && text[i + 1] === '(') {
      stack.push({ kind: 'code', depth: 0, sub: true });
      i += 2;
      continue;
    }
    if (frame.kind === 'code') {
      if (c === '(') frame.depth++;
      else if (c === ')') {
        if (frame.depth === 0 && frame.sub) {
          stack.pop();
          i++;
          continue;
        }
        if (frame.depth > 0) frame.depth--;
      }
    }
    if (c === '<' && text.startsWith('<<<', i)) {
      i += 3; // a here-string
      continue;
    }
    if (c === '<' && text[i + 1] === '<') {
      const strip = text[i + 2] === '-';
      let j = i + (strip ? 3 : 2);
      while (j < n && BLANK.test(text[j] as string)) j++;
      const [wordEnd, delimiter, quoted] = readDelimiter(text, j);
      if (wordEnd === j) return { heredocs, unsure: 'a heredoc operator without a delimiter' };
      pending.push({ op: i, strip, wordEnd, delimiter, quoted });
      i = wordEnd;
      continue;
    }
    if (c === '\n' && pending.length > 0) {
      i = readBodies(text, i + 1, pending.splice(0), heredocs);
      continue;
    }
    i++;
  }
  if (pending.length > 0) readBodies(text, n, pending.splice(0), heredocs);
  if (stack.length > 1) return { heredocs, unsure: 'an unterminated quote or substitution' };
  return { heredocs };
}

/**
 * Reads the bodies of `queued` starting at `pos`; returns the offset where code resumes. Each line
 * is compared with the delimiter in place (no slice per line); a `<<-` body is built from its lines
 * with their leading tabs removed, any other body is one slice of the text.
 */
function readBodies(
  text: string,
  pos: number,
  queued: Omit<Heredoc, 'bodyStart' | 'bodyEnd' | 'end' | 'body' | 'terminated'>[],
  out: Heredoc[],
): number {
  for (const h of queued) {
    const bodyStart = pos;
    const lines: string[] = [];
    let terminated = false;
    let bodyEnd = pos;
    let end = text.length;
    const delimiter = h.delimiter;
    while (pos < text.length) {
      const nl = text.indexOf('\n', pos);
      const lineEnd = nl < 0 ? text.length : nl;
      let from = pos;
      if (h.strip) while (from < lineEnd && text.charCodeAt(from) === 9) from++;
      if (lineEnd - from === delimiter.length && text.startsWith(delimiter, from)) {
        bodyEnd = pos;
        end = lineEnd;
        terminated = true;
        pos = nl < 0 ? text.length : nl + 1;
        break;
      }
      if (h.strip) lines.push(text.slice(from, nl < 0 ? lineEnd : nl + 1));
      pos = nl < 0 ? text.length : nl + 1;
      bodyEnd = pos;
    }
    if (!terminated) end = text.length;
    const body = h.strip ? lines.join('') : text.slice(bodyStart, bodyEnd);
    // Fields named one by one: an object spread here cost ten times the rest of the scan.
    out.push({
      op: h.op,
      strip: h.strip,
      wordEnd: h.wordEnd,
      delimiter: h.delimiter,
      quoted: h.quoted,
      bodyStart,
      bodyEnd,
      end,
      body,
      terminated,
    });
  }
  // Code resumes on the line after the last delimiter line: its newline ends that line.
  return Math.max(pos - 1, 0) < text.length && text[pos - 1] === '\n' ? pos - 1 : pos;
}

/**
 * The text the parser should read: operators rewritten as same-length input redirections and
 * bodies (with their delimiter lines) blanked; undefined when there is no heredoc. With `end`,
 * only `text.slice(0, end)` is rewritten and returned (a caller that leaves out a trailing body).
 */
export function maskHeredocs(
  text: string,
  heredocs: readonly Heredoc[],
  end = text.length,
): string | undefined {
  if (heredocs.length === 0) return undefined;
  // The edits in text order: the one or two operator characters after `<` become blanks, and each
  // body with its delimiter line becomes blanks with its newlines kept. Bodies follow their
  // operators and never overlap one another or an operator, so the text is rebuilt in one pass.
  const edits: [start: number, end: number][] = [];
  for (const h of heredocs) {
    edits.push([h.op + 1, h.op + (h.strip ? 3 : 2)]);
    if (h.end > h.bodyStart) edits.push([h.bodyStart, h.end]);
  }
  edits.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let at = 0;
  for (const [from, to] of edits) {
    if (from >= end) break;
    const stop = Math.min(to, end);
    if (stop <= at) continue;
    const start = Math.max(from, at);
    parts.push(text.slice(at, start), blankLines(text.slice(start, stop)));
    at = stop;
  }
  parts.push(text.slice(at, Math.max(at, end)));
  return parts.join('');
}

/** `text` with every character but a newline replaced by a blank (one pass, not one string per line). */
function blankLines(text: string): string {
  return text.replace(/[^\n]/g, ' ');
}
