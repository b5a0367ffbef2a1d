/**
 * GNU sed command-line and script analysis: which files a `sed` call reads, edits in place,
 * writes (`w`/`W` commands, `s///w`) or reads besides its input (`r`/`R`), and whether the script
 * executes commands (`e`, `s///e`). A plain in-project substitution with `-i` is an edit of the
 * named files, not an arbitrary command.
 *
 * Sequence: scan options (`-n -e -f -i[SUF] -E -r -s -z -u -l N --in-place[=SUF] --expression=
 * --file= --posix --debug --sandbox --follow-symlinks`) → the script is the `-e` texts joined by
 * newlines, or the first operand → parse the script command by command (addresses, `!`, blocks,
 * text commands `a i c` that run to end of line, labels, `s` with bracket-aware regexes, `y`,
 * file commands) → report.
 *
 * Source: docs/architecture.md (sedEditParser/sedValidation), docs/security-round-2.md
 * (sed -i/--in-place*, w/W/r/R/e, s///e|w, -f); GNU sed 4.9 manual (observed behaviour).
 */
import { compileOptions, operandsOf, scanArgs, words } from './read-only/options.js';
import type { Word } from './types.js';

/** What a sed invocation does. */
export interface SedAnalysis {
  /** False when the script could not be parsed or an option was not understood. */
  ok: boolean;
  problems: string[];
  /** `-i`/`--in-place`: the input files are rewritten. */
  inPlace: boolean;
  /** Backup suffix of `-i.bak` / `--in-place=.bak` (a backup file is written next to each input). */
  backupSuffix?: string;
  /** The script text (joined `-e` scripts or the first operand); undefined with only `-f`. */
  script?: string;
  /** True when the script text contains expansions (it could be anything at run time). */
  scriptDynamic: boolean;
  /** `-f FILE` script files (contents unknown to the analysis). */
  scriptFiles: string[];
  /** Input files (operands after the script). Empty = stdin. */
  files: Word[];
  /** Files written by `w`/`W` commands and the `w` flag of `s` (excluding /dev/stdout, /dev/stderr). */
  writes: string[];
  /** Files read by `r`/`R` commands. */
  reads: string[];
  /** Commands executed by `e CMD` (the text), `e` alone or `s///e` (`<pattern space>`). */
  executes: string[];
  /** `--sandbox` given: sed itself rejects e/w/r. */
  sandbox: boolean;
  /** `-n`/`--quiet`/`--silent`. */
  quiet: boolean;
}

const SED_OPTIONS = compileOptions({
  safe: [
    ...words('-n --quiet --silent -e= --expression= -f= --file= -i=? --in-place=? -E -r --regexp-extended'),
    ...words('-s --separate -z --null-data -u --unbuffered -l= --line-length= --posix --debug --sandbox'),
    ...words('--follow-symlinks -b --binary --help --version'),
  ],
});

const STD_STREAMS = new Set(['/dev/stdout', '/dev/stderr']);

/** Analyses `sed` arguments (argv without the program name). Never throws. */
export function analyzeSed(args: readonly Word[]): SedAnalysis {
  const out: SedAnalysis = {
    ok: true,
    problems: [],
    inPlace: false,
    scriptDynamic: false,
    scriptFiles: [],
    files: [],
    writes: [],
    reads: [],
    executes: [],
    sandbox: false,
    quiet: false,
  };
  const items = scanArgs(args, SED_OPTIONS);
  const scripts: string[] = [];
  for (const it of items) {
    if (it.kind === 'unknown') {
      out.ok = false;
      out.problems.push(`unknown sed option ${it.text}`);
    } else if (it.kind === 'option') {
      switch (it.name) {
        case '-e':
        case '--expression':
          scripts.push(it.value ?? '');
          if (it.valueWord?.dynamic) out.scriptDynamic = true;
          break;
        case '-f':
        case '--file':
          out.scriptFiles.push(it.value ?? '');
          break;
        case '-i':
        case '--in-place':
          out.inPlace = true;
          if (it.value) out.backupSuffix = it.value;
          break;
        case '--sandbox':
          out.sandbox = true;
          break;
        case '-n':
        case '--quiet':
        case '--silent':
          out.quiet = true;
          break;
      }
    }
  }
  // An `-e`/`--expression=` value attached to its option carries the word's dynamism too.
  for (const it of items)
    if (it.kind === 'option' && (it.name === '-e' || it.name === '--expression') && !it.valueWord) {
      const w = args[it.index];
      if (w?.dynamic) out.scriptDynamic = true;
    }
  const operands = operandsOf(items);
  if (scripts.length === 0 && out.scriptFiles.length === 0) {
    const first = operands.shift();
    if (!first) {
      out.ok = false;
      out.problems.push('sed without a script');
      return out;
    }
    scripts.push(first.text);
    if (first.dynamic) out.scriptDynamic = true;
  }
  out.files = operands;
  if (scripts.length > 0) {
    out.script = scripts.join('\n');
    parseSedScript(out.script, out);
  }
  return out;
}

/** Parses a sed script into `out` (writes/reads/executes/problems). Exported for tests. */
export function parseSedScript(
  s: string,
  out: Pick<SedAnalysis, 'ok' | 'problems' | 'writes' | 'reads' | 'executes'>,
): void {
  const p = new SedScanner(s);
  try {
    p.run(out);
  } catch (error) {
    out.ok = false;
    out.problems.push(error instanceof Error ? error.message : String(error));
  }
}

class SedScanner {
  i = 0;
  constructor(readonly s: string) {}

  private peek(): string {
    return this.s[this.i] ?? '';
  }

  private skipBlanks(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.i++;
  }

  /** Rest of the line (up to an unescaped newline), for file names, `e` commands and labels. */
  private restOfLine(): string {
    const nl = this.s.indexOf('\n', this.i);
    const end = nl < 0 ? this.s.length : nl;
    const text = this.s.slice(this.i, end);
    this.i = end;
    return text;
  }

  /** Text of `a`/`i`/`c`: to the end of the line, backslash-newline continues it. */
  private skipText(): void {
    this.skipBlanks();
    if (this.peek() === '\\') {
      this.i++;
      if (this.peek() === '\n') this.i++;
    }
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === '\\') {
        this.i += 2;
        continue;
      }
      if (c === '\n') return;
      this.i++;
    }
  }

  /** Skips a regex body up to the unescaped delimiter, honouring bracket expressions. */
  private skipRegex(delim: string): void {
    while (this.i < this.s.length) {
      const c = this.s[this.i] as string;
      if (c === '\\') {
        this.i += 2;
        continue;
      }
      if (c === delim) {
        this.i++;
        return;
      }
      if (c === '[') {
        this.skipBracket();
        continue;
      }
      if (c === '\n' && delim !== '\n') throw new Error('unterminated regular expression in sed script');
      this.i++;
    }
    throw new Error('unterminated regular expression in sed script');
  }

  private skipBracket(): void {
    let j = this.i + 1;
    if (this.s[j] === '^') j++;
    if (this.s[j] === ']') j++;
    while (j < this.s.length) {
      const c = this.s[j];
      if (c === '[' && (this.s[j + 1] === ':' || this.s[j + 1] === '.' || this.s[j + 1] === '=')) {
        const close = this.s.indexOf(`${this.s[j + 1]}]`, j + 2);
        if (close < 0) break;
        j = close + 2;
        continue;
      }
      if (c === ']') {
        this.i = j + 1;
        return;
      }
      if (c === '\n') break;
      j++;
    }
    // Not a complete bracket expression: treat `[` literally.
    this.i++;
  }

  /** Replacement part of `s`: up to the unescaped delimiter (no brackets). */
  private skipReplacement(delim: string): void {
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === '\\') {
        this.i += 2;
        continue;
      }
      if (c === delim) {
        this.i++;
        return;
      }
      this.i++;
    }
    throw new Error('unterminated s command in sed script');
  }

  private address(): boolean {
    const c = this.peek();
    if (/[0-9]/.test(c)) {
      while (/[0-9~]/.test(this.peek())) this.i++;
      return true;
    }
    if (c === '$') {
      this.i++;
      return true;
    }
    if (c === '/' || c === '\\') {
      let delim = '/';
      if (c === '\\') {
        this.i++;
        delim = this.peek();
      }
      this.i++;
      this.skipRegex(delim);
      while (this.peek() === 'I' || this.peek() === 'M') this.i++;
      return true;
    }
    return false;
  }

  run(out: Pick<SedAnalysis, 'writes' | 'reads' | 'executes'>): void {
    const s = this.s;
    while (this.i < s.length) {
      const c0 = this.peek();
      if (c0 === ' ' || c0 === '\t' || c0 === '\n' || c0 === ';') {
        this.i++;
        continue;
      }
      if (c0 === '#') {
        this.restOfLine();
        continue;
      }
      if (this.address()) {
        this.skipBlanks();
        if (this.peek() === ',') {
          this.i++;
          this.skipBlanks();
          if (this.peek() === '+' || this.peek() === '~') {
            this.i++;
            while (/[0-9]/.test(this.peek())) this.i++;
          } else if (!this.address()) throw new Error('sed: unexpected `,` in address');
        }
      }
      this.skipBlanks();
      while (this.peek() === '!') {
        this.i++;
        this.skipBlanks();
      }
      const cmd = s[this.i++] ?? '';
      switch (cmd) {
        case '{':
        case '}':
        case '=':
        case 'd':
        case 'D':
        case 'g':
        case 'G':
        case 'h':
        case 'H':
        case 'n':
        case 'N':
        case 'p':
        case 'P':
        case 'x':
        case 'z':
        case 'F':
          break;
        case 'l':
        case 'L':
        case 'q':
        case 'Q':
          this.skipBlanks();
          while (/[0-9]/.test(this.peek())) this.i++;
          break;
        case ':':
        case 'b':
        case 't':
        case 'T':
        case 'v':
          this.skipBlanks();
          while (this.i < s.length && this.peek() !== '\n' && this.peek() !== ';') this.i++;
          break;
        case 'a':
        case 'i':
        case 'c':
          this.skipText();
          break;
        case 'r':
        case 'R':
          this.skipBlanks();
          out.reads.push(this.restOfLine());
          break;
        case 'w':
        case 'W': {
          this.skipBlanks();
          const f = this.restOfLine();
          if (!STD_STREAMS.has(f)) out.writes.push(f);
          break;
        }
        case 'e': {
          this.skipBlanks();
          const command = this.restOfLine();
          out.executes.push(command === '' ? '<pattern space>' : command);
          break;
        }
        case 's': {
          const delim = s[this.i++] ?? '';
          if (delim === '' || delim === '\n' || delim === '\\') throw new Error('sed: bad s delimiter');
          this.skipRegex(delim);
          this.skipReplacement(delim);
          this.sFlags(out);
          break;
        }
        case 'y': {
          const delim = s[this.i++] ?? '';
          if (delim === '' || delim === '\n' || delim === '\\') throw new Error('sed: bad y delimiter');
          this.skipReplacement(delim);
          this.skipReplacement(delim);
          break;
        }
        default:
          throw new Error(`sed: unknown command \`${cmd}\``);
      }
    }
  }

  private sFlags(out: Pick<SedAnalysis, 'writes' | 'executes'>): void {
    for (;;) {
      const c = this.peek();
      if (c === 'g' || c === 'p' || c === 'i' || c === 'I' || c === 'm' || c === 'M' || /[0-9]/.test(c)) {
        this.i++;
        continue;
      }
      if (c === 'e') {
        this.i++;
        out.executes.push('<pattern space>');
        continue;
      }
      if (c === 'w') {
        this.i++;
        this.skipBlanks();
        const f = this.restOfLine();
        if (!STD_STREAMS.has(f)) out.writes.push(f);
        return;
      }
      return;
    }
  }
}
