/**
 * Obfuscation inside words (docs/architecture.md ids 4, 15, 21; docs/security-round-2.md "backslashes or quote pieces
 * inside flags (`-e\xec`, `-"e"xec`, `'--pr''e'`)", "ANSI-C `$'…'` strings"): quoting that changes
 * nothing for bash but hides a flag or a name from a reader or a rule.
 */
import type { Finding } from '../../core/permission-types.js';
import type { SimpleCommand, Word } from '../types.js';
import { type Detector, finding, isPiecewiseQuoted, programsOf } from './detector.js';

/** Characters escaped by an unquoted backslash inside one word's raw text. */
export function unquotedEscapes(raw: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < raw.length) {
    const c = raw[i] as string;
    if (c === "'") {
      const end = raw.indexOf("'", i + 1);
      i = end < 0 ? raw.length : end + 1;
    } else if (c === '$' && raw[i + 1] === "'") {
      i += 2;
      while (i < raw.length && raw[i] !== "'") i += raw[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '"') {
      i++;
      while (i < raw.length && raw[i] !== '"') i += raw[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '\\') {
      if (i + 1 < raw.length) out.push(raw[i + 1] as string);
      i += 2;
    } else i++;
  }
  return out;
}

const DATA_PROGRAMS = new Set(['echo', 'printf']);

/** An option name: one or two dashes, then a letter or digit, no whitespace (`- item` is text). */
const FLAG_NAME = /^--?[A-Za-z0-9][^\s]*$/;

/** Option name part of a flag word's raw text (up to the first `=`). */
function flagNameRaw(raw: string): string {
  const eq = raw.indexOf('=');
  return eq >= 0 ? raw.slice(0, eq) : raw;
}

/** Multi-letter options written with a single dash (find, java style), which quoting can disguise. */
const SINGLE_DASH_WORDS = /^-(exec|execdir|ok|okdir|delete|fprint0?|fprintf|fls|newer\w*|regex|name|path)$/;

/**
 * True when quoting or escaping sits inside an option *name*. Long options (`--pr''e`): anywhere before
 * `=`. Short options: right after the dash (`-"e"xec`, `-\exec`) or inside a known multi-letter
 * single-dash option (`-e\xec`); after the first letter it is an attached value (`-m"msg"`, `-d\;`).
 */
function obfuscatedOptionName(raw: string, text: string): boolean {
  const name = flagNameRaw(raw);
  if (raw.startsWith('--')) return /['"\\]/.test(name);
  if (raw.startsWith('-') && /['"\\]/.test(raw[1] ?? '')) return true;
  if (!raw.startsWith('-')) return /^-/.test(text); // `'-'rf`, `"-"exec`: the dash itself is quoted
  return SINGLE_DASH_WORDS.test(text) && /['"\\]/.test(raw);
}

export const OBFUSCATED_FLAGS: Detector = {
  id: 'OBFUSCATED_FLAGS',
  checkId: 4,
  reason:
    "Quotes, backslashes or ANSI-C strings inside an option name (`-\"e\"xec`, `-e\\xec`, `'--pr''e'`) or a command name (`'r'm`) hide the real flag or program from rules and readers; bash removes them.",
  detect(_command, split) {
    const programs = programsOf(split);
    const out: Finding[] = [];
    split.commands.forEach((cmd: SimpleCommand, i: number) => {
      const first = cmd.argv[0];
      if (first && (isPiecewiseQuoted(first) || first.raw.includes("$'"))) {
        out.push(
          finding(
            this,
            `The command name ${JSON.stringify(first.raw)} is written in quoted pieces (it runs ${JSON.stringify(first.text)}).`,
            i,
          ),
        );
        return;
      }
      const program = programs[i];
      let operandsOnly = false;
      for (let k = 1; k < cmd.argv.length; k++) {
        const w = cmd.argv[k] as Word;
        if (w.text === '--' && !w.quoted) operandsOnly = true;
        // FLAG_NAME needs a leading dash: other words (most operands) are skipped without a split.
        if (operandsOnly || w.text.charCodeAt(0) !== 0x2d) continue;
        if (!FLAG_NAME.test(w.text.split('=')[0] as string)) continue;
        if (program && DATA_PROGRAMS.has(program)) continue;
        if (isPiecewiseQuoted(w) && obfuscatedOptionName(w.raw, w.text)) {
          out.push(
            finding(
              this,
              `The option ${JSON.stringify(w.raw)} is written with quotes or backslashes inside its name (it is ${JSON.stringify(w.text.split('=')[0])}).`,
              i,
            ),
          );
          return;
        }
      }
    });
    for (const note of split.notes ?? []) {
      if (note.kind === 'ansi-c-string' || note.kind === 'translated-string') {
        out.push(
          finding(
            this,
            `The command uses ${note.kind === 'ansi-c-string' ? "ANSI-C quoting ($'…')" : 'locale quoting ($"…")'} (${JSON.stringify(note.text.slice(0, 40))}), which hides the real characters.`,
          ),
        );
        break;
      }
    }
    return out;
  },
};

const WHITESPACE = new Set([' ', '\t']);

export const BACKSLASH_ESCAPED_WHITESPACE: Detector = {
  id: 'BACKSLASH_ESCAPED_WHITESPACE',
  checkId: 15,
  reason:
    'A backslash-escaped space or tab inside a command name or an option glues words together for bash while a reader (or a naive splitter) sees two; in file-name operands (`My\\ Documents`) it is ordinary and not flagged.',
  detect(command, split) {
    if (!command.includes('\\')) return [];
    const out: Finding[] = [];
    split.commands.forEach((cmd, i) => {
      cmd.argv.forEach((w, k) => {
        if (!w.raw.includes('\\')) return;
        if (k !== 0 && !w.text.startsWith('-')) return;
        // In a short option only the letter right after the dash is the name (`-d\ ` is the delimiter value).
        const name = k === 0 ? w.raw : w.raw.startsWith('--') ? flagNameRaw(w.raw) : w.raw.slice(0, 3);
        if (unquotedEscapes(name).some((c) => WHITESPACE.has(c))) {
          out.push(
            finding(
              this,
              `${k === 0 ? 'The command name' : 'The option'} ${JSON.stringify(w.raw)} contains a backslash-escaped space.`,
              i,
            ),
          );
        }
      });
    });
    return out;
  },
};

/** Separators a naive splitter would cut at (escaped `<`, `>`, `(`, `)` are ordinary in regexes and find). */
const OPERATOR_CHARS = new Set([';', '|', '&']);

export const BACKSLASH_ESCAPED_OPERATORS: Detector = {
  id: 'BACKSLASH_ESCAPED_OPERATORS',
  checkId: 21,
  reason:
    'A backslash-escaped separator inside a word (`a\\;b`, `x\\|y`, `a\\&b`) is literal text to bash but a separator to naive splitters and to readers; a standalone `\\;` (find syntax) and escaped `< > ( )` (regexes, find grouping) are not flagged.',
  detect(command, split) {
    if (!command.includes('\\')) return [];
    const out: Finding[] = [];
    split.commands.forEach((cmd, i) => {
      for (const w of cmd.argv) {
        if (!w.raw.includes('\\')) continue;
        if (w.raw.length === 2 && OPERATOR_CHARS.has(w.raw[1] as string)) continue;
        const escaped = unquotedEscapes(w.raw).filter((c) => OPERATOR_CHARS.has(c));
        if (escaped.length > 0) {
          out.push(
            finding(
              this,
              `The word ${JSON.stringify(w.raw)} contains a backslash-escaped "${escaped[0]}" that bash treats as text.`,
              i,
            ),
          );
          return;
        }
      }
    });
    return out;
  },
};
