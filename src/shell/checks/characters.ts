/**
 * Character-level checks (docs/architecture.md ids 7, 17, 18, 23; docs/security-round-2.md "Characters that bash
 * treats as separators but a JS/regex splitter may not (CR, other control characters, Unicode
 * line/paragraph separators, no-break and zero-width spaces) are findings in themselves"; "terminal
 * escape sequences, bidi overrides, zero-width and non-ASCII whitespace outside quotes").
 * Single linear passes over the command; no regex backtracking.
 */
import type { Finding } from '../../core/permission-types.js';
import type { SplitResult } from '../types.js';
import { CharContext, charContexts, type Detector, finding } from './detector.js';

function hex(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

const NEWLINE_LIKE = /[\r\u2028\u2029\u0085]/;

/** Unicode line terminators that JS regexes and some splitters treat as newlines (bash does not). */
const LINE_SEPARATORS = new Set([0x2028, 0x2029, 0x85]);

export const NEWLINES: Detector = {
  id: 'NEWLINES',
  checkId: 7,
  reason:
    'A newline that hides something: a carriage return (a terminal shows the later text over the earlier), a Unicode line or paragraph separator, or a backslash-newline inside a word (bash joins the pieces, readers see two). A plain newline between commands is a split point, not a finding.',
  detect(command, split) {
    for (let i = NEWLINE_LIKE.test(command) ? 0 : command.length; i < command.length; i++) {
      const c = command.charCodeAt(i);
      if (c === 0x0d)
        return [
          finding(
            this,
            'The command contains a carriage return, which hides text in a terminal and in approval dialogs.',
          ),
        ];
      if (LINE_SEPARATORS.has(c))
        return [
          finding(
            this,
            `The command contains the line separator ${hex(c)}, which bash does not treat as a newline.`,
          ),
        ];
    }
    if (
      split.problems.some((p) => p.includes('line continuation inside a word')) ||
      split.notes?.some((n) => n.kind === 'line-continuation')
    ) {
      return [finding(this, 'A backslash-newline joins two pieces of a word; bash reads them as one word.')];
    }
    return [];
  },
};

const CONTROL_LIKE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/;

/** C0 controls other than tab and newline, DEL, and C1 controls (NEL is a line separator, above). */
function isControl(c: number): boolean {
  return (
    (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) ||
    c === 0x7f ||
    (c >= 0x80 && c <= 0x9f && c !== 0x85)
  );
}

export const CONTROL_CHARACTERS: Detector = {
  id: 'CONTROL_CHARACTERS',
  checkId: 17,
  reason:
    "Control characters (NUL, backspace, ESC terminal sequences, DEL, C1 controls), written raw or produced by $'…' escapes, can rewrite what a terminal or an approval dialog shows and are read differently by different tools.",
  detect(command, split) {
    for (let i = CONTROL_LIKE.test(command) ? 0 : command.length; i < command.length; i++) {
      const c = command.charCodeAt(i);
      if (isControl(c))
        return [
          finding(
            this,
            `The command contains the control character ${hex(c)}${c === 0x1b ? ' (a terminal escape sequence)' : ''}.`,
          ),
        ];
    }
    // Without raw control characters, a word can only decode to one through $'…' escapes.
    if (!command.includes("$'")) return [];
    for (let i = 0; i < split.commands.length; i++) {
      for (const w of split.commands[i]?.argv ?? []) {
        for (let k = 0; k < w.text.length; k++) {
          const c = w.text.charCodeAt(k);
          if (c === 0x0d || isControl(c))
            return [finding(this, `A word decodes to the control character ${hex(c)}.`, i)];
        }
      }
    }
    return [];
  },
};

const UNICODE_SPACE_LIKE = /[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/;

/** Non-ASCII whitespace bash does not split on but JS `\s` and readers do. */
function isUnicodeSpace(c: number): boolean {
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000
  );
}

export const UNICODE_WHITESPACE: Detector = {
  id: 'UNICODE_WHITESPACE',
  checkId: 18,
  reason:
    'No-break and other Unicode spaces outside quotes look like word separators but are ordinary characters to bash (`rm\u00a0-rf` is one word), so what a reader or a regex splitter sees differs from what runs.',
  detect(command, split) {
    if (!UNICODE_SPACE_LIKE.test(command)) return [];
    const ctx = charContexts(command, split);
    for (let i = 0; i < command.length; i++) {
      const c = command.charCodeAt(i);
      if (isUnicodeSpace(c) && ctx[i] === CharContext.Code) {
        return [finding(this, `The command contains the Unicode space ${hex(c)} outside quotes.`)];
      }
    }
    for (const s of split.scripts ?? []) {
      for (let i = 0; i < s.text.length; i++) {
        const c = s.text.charCodeAt(i);
        if (isUnicodeSpace(c))
          return [finding(this, `The script given to ${s.via} contains the Unicode space ${hex(c)}.`)];
      }
    }
    return [];
  },
};

/** Invisible or direction-changing characters. */
function isInvisible(c: number): boolean {
  return (
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2066 && c <= 0x2069) ||
    c === 0x200e ||
    c === 0x200f ||
    c === 0x061c ||
    (c >= 0x200b && c <= 0x200d) ||
    c === 0x2060 ||
    c === 0xfeff ||
    c === 0x180e ||
    c === 0x00ad ||
    c === 0x034f ||
    c === 0x115f ||
    c === 0x1160 ||
    c === 0x3164 ||
    c === 0xffa0
  );
}

export const UNICODE_DISPLAY_CONTROL: Detector = {
  id: 'UNICODE_DISPLAY_CONTROL',
  reason:
    'Bidirectional overrides, zero-width characters, blank fillers and Unicode tag characters, anywhere in the command (quoted or not), make the displayed command differ from the one that runs.',
  detect(command) {
    // Everything this check looks for is outside ASCII.
    if (/^[\x00-\x7f]*$/.test(command)) return [];
    for (let i = 0; i < command.length; i++) {
      const c = command.charCodeAt(i);
      if (isInvisible(c))
        return [
          finding(this, `The command contains the invisible or direction-changing character ${hex(c)}.`),
        ];
      // Tag characters U+E0000–U+E007F (surrogate pair DB40 DC00–DC7F).
      if (c === 0xdb40) {
        const low = command.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdc7f)
          return [finding(this, 'The command contains invisible Unicode tag characters.')];
      }
    }
    return [];
  },
};

/** True when the line starting at `k` leaves the quoted string and continues with code (`# "; rm x`). */
function codeLaterOnLine(command: string, ctx: Uint8Array, k: number): boolean {
  for (let i = k; i < command.length && command[i] !== '\n'; i++) {
    if (
      ctx[i] === CharContext.Code &&
      command[i] !== ' ' &&
      command[i] !== '\t' &&
      command[i] !== '"' &&
      command[i] !== "'"
    ) {
      return true;
    }
  }
  return false;
}

const QUOTED = new Set<number>([CharContext.Single, CharContext.Double, CharContext.AnsiC]);

export const QUOTED_NEWLINE: Detector = {
  id: 'QUOTED_NEWLINE',
  checkId: 23,
  reason:
    'A newline inside quotes whose next line looks like a comment (`#…`) but ends the string and goes on with commands (`"x⏎# "; rm y`) makes line-oriented readers drop live code as a comment; a newline inside a command name or option hides it. Multi-line messages and markdown bodies (`--body "## Summary⏎…"`) are not flagged.',
  detect(command, split: SplitResult) {
    if (!command.includes('\n')) return [];
    const out: Finding[] = [];
    const ctx = charContexts(command, split);
    for (let i = command.indexOf('\n'); i >= 0; i = command.indexOf('\n', i + 1)) {
      if (!QUOTED.has(ctx[i] ?? 0)) continue;
      let k = i + 1;
      while (k < command.length && (command[k] === ' ' || command[k] === '\t')) k++;
      if (command[k] === '#' && codeLaterOnLine(command, ctx, k)) {
        out.push(
          finding(
            this,
            'A quoted newline is followed by a line that looks like a comment; the text after it is still part of the quoted string.',
          ),
        );
        break;
      }
    }
    split.commands.forEach((cmd, i) => {
      const w = cmd.argv.find(
        (x, k) =>
          (k === 0 && x.text.includes('\n')) || /^--?[A-Za-z0-9][^=]*\n/.test(x.text.split('=')[0] ?? ''),
      );
      if (w)
        out.push(
          finding(
            this,
            `A command name or option contains a quoted newline (${JSON.stringify(w.raw.slice(0, 40))}).`,
            i,
          ),
        );
    });
    return out;
  },
};
