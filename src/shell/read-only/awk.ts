/**
 * awk (POSIX awk, gawk, mawk) command-line and program analysis: which files the program writes
 * (`print > f`, `print >> f`, `printf … > f`), reads besides its input (`getline < f`), and
 * whether it runs commands (`system()`, `print | "cmd"`, `"cmd" | getline`, gawk `|&`).
 *
 * Sequence: scan options (`-F fs`, `-v a=b`, `-f progfile`, gawk `-e/--source`, `--`; unsafe gawk
 * options that write or load: `-o/-p/-d` profile/dump files, `-l/--load`, `-i/--include`,
 * `-E/--exec`, `-D`) → program = first operand unless `-f`/`-e` → tokenise the program (strings,
 * regex literals, comments, parentheses) → inside a `print`/`printf` statement an unparenthesised
 * `>`, `>>` or `|` is a redirection; elsewhere `>` is a comparison (`awk 'length > 120'`).
 *
 * Source: docs/security-round-2.md (awk system(), print >, getline <, cmd | getline,
 * -f) and corpus cases awk-program / benign-awk; BL-11 (Claude-Code-awk write-up).
 */
import type { Word } from '../types.js';
import { compiledLazily, operandsOf, scanArgs, words } from './options.js';

/** A file target inside an awk program: `known` when it is a string literal. */
export interface AwkTarget {
  target: string;
  known: boolean;
}

export interface AwkAnalysis {
  ok: boolean;
  problems: string[];
  program?: string;
  programDynamic: boolean;
  /** `-f progfile` / `-i file` / `-E file`: program text the analysis cannot see. */
  programFiles: string[];
  /** Options that write files or load code (`-o`, `-p`, `-d`, `-l`, `-D` …), with reasons. */
  unsafeOptions: string[];
  writes: AwkTarget[];
  reads: AwkTarget[];
  /** Commands run by `system(...)`, pipes and coprocesses (the command text or `<expression>`). */
  executes: string[];
  /** Input files (operands that are not `var=value` assignments). */
  files: Word[];
}

const AWK_OPTIONS = compiledLazily(() => ({
  safe: [
    ...words('-F= --field-separator= -v= --assign= -e= --source= -b --characters-as-bytes -c'),
    ...words('--traditional -C --copyright -g --gen-pot -M --bignum -n --non-decimal-data -N'),
    ...words('--use-lc-numeric -P --posix -r --re-interval -s --no-optimize -O --optimize -S --sandbox -t'),
    ...words('--lint-old -L=? --lint=? -V --version -h --help'),
  ],
  unsafe: {
    '-f=': 'reads the awk program from a file the analysis cannot see',
    '--file=': 'reads the awk program from a file the analysis cannot see',
    '-i=': 'includes an awk source file the analysis cannot see',
    '--include=': 'includes an awk source file the analysis cannot see',
    '-E=': 'reads the awk program from a file the analysis cannot see',
    '--exec=': 'reads the awk program from a file the analysis cannot see',
    '-l=': 'loads a dynamic extension (native code)',
    '--load=': 'loads a dynamic extension (native code)',
    '-o=?': 'writes a pretty-printed program file',
    '--pretty-print=?': 'writes a pretty-printed program file',
    '-p=?': 'writes a profile file',
    '--profile=?': 'writes a profile file',
    '-d=?': 'writes a variable dump file',
    '--dump-variables=?': 'writes a variable dump file',
    '-D=?': 'starts the interactive debugger',
    '--debug=?': 'starts the interactive debugger',
    '-W=': 'mawk/gawk -W options (exec, dump, usage …) are not analysed',
  },
}));

const PROGRAM_FILE_OPTIONS = new Set(['-f', '--file', '-i', '--include', '-E', '--exec']);
const STD_TARGETS = new Set(['/dev/stdout', '/dev/stderr', '-', '/dev/null']);

/** Analyses awk arguments (argv without the program name). Never throws. */
export function analyzeAwk(args: readonly Word[]): AwkAnalysis {
  const out: AwkAnalysis = {
    ok: true,
    problems: [],
    programDynamic: false,
    programFiles: [],
    unsafeOptions: [],
    writes: [],
    reads: [],
    executes: [],
    files: [],
  };
  const items = scanArgs(args, AWK_OPTIONS());
  const sources: string[] = [];
  for (const it of items) {
    if (it.kind === 'unknown') {
      out.ok = false;
      out.problems.push(`unknown awk option ${it.text}`);
    } else if (it.kind === 'option') {
      if (PROGRAM_FILE_OPTIONS.has(it.name)) out.programFiles.push(it.value ?? '');
      else if (it.unsafe) out.unsafeOptions.push(`${it.name}: ${it.unsafe}`);
      if (it.name === '-e' || it.name === '--source') {
        sources.push(it.value ?? '');
        if ((it.valueWord ?? args[it.index])?.dynamic) out.programDynamic = true;
      }
    }
  }
  const operands = operandsOf(items);
  // `-i/--include` adds a library; only `-f/--file` and `-E/--exec` replace the program operand.
  const programFromFile = items.some(
    (it) => it.kind === 'option' && ['-f', '--file', '-E', '--exec'].includes(it.name),
  );
  if (sources.length === 0 && !programFromFile) {
    const first = operands.shift();
    if (!first) {
      out.ok = false;
      out.problems.push('awk without a program');
      return out;
    }
    sources.push(first.text);
    if (first.dynamic) out.programDynamic = true;
  }
  out.files = operands.filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.text));
  if (sources.length > 0) {
    out.program = sources.join('\n');
    scanAwkProgram(out.program, out);
  }
  return out;
}

type Tok =
  | { t: 'str'; v: string }
  | { t: 'id'; v: string }
  | { t: 'num' }
  | { t: 'op'; v: string }
  | { t: 're' }
  | { t: 'nl' };

function tokenize(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  const prevAllowsRegex = (): boolean => {
    const p = toks[toks.length - 1];
    if (!p) return true;
    if (p.t === 'nl') return true;
    if (p.t === 'op') return !(p.v === ')' || p.v === ']' || p.v === '$');
    if (p.t === 'id') return ['print', 'printf', 'return', 'in', 'getline'].includes(p.v);
    return false;
  };
  while (i < src.length) {
    const c = src[i] as string;
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
    } else if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
    } else if (c === '\n') {
      toks.push({ t: 'nl' });
      i++;
    } else if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '"') {
      let v = '';
      i++;
      while (i < src.length && src[i] !== '"') {
        if (src[i] === '\\' && i + 1 < src.length) {
          const e = src[i + 1] as string;
          v += e === 'n' ? '\n' : e === 't' ? '\t' : e;
          i += 2;
          continue;
        }
        v += src[i];
        i++;
      }
      i++;
      toks.push({ t: 'str', v });
    } else if (c === '/' && prevAllowsRegex()) {
      i++;
      while (i < src.length && src[i] !== '/' && src[i] !== '\n') {
        if (src[i] === '\\') i++;
        else if (src[i] === '[') {
          // Bracket expressions may hold a literal `/`.
          i++;
          if (src[i] === '^') i++;
          if (src[i] === ']') i++;
          while (i < src.length && src[i] !== ']' && src[i] !== '\n') i++;
        }
        i++;
      }
      i++;
      toks.push({ t: 're' });
    } else if (/[A-Za-z_@]/.test(c)) {
      let j = i + 1;
      while (j < src.length && /[A-Za-z0-9_:]/.test(src[j] as string)) j++;
      toks.push({ t: 'id', v: src.slice(i, j) });
      i = j;
    } else if (/[0-9.]/.test(c)) {
      let j = i + 1;
      while (j < src.length && /[0-9.eExXa-fA-F]/.test(src[j] as string)) j++;
      toks.push({ t: 'num' });
      i = j;
    } else {
      const two = src.slice(i, i + 2);
      if ([...words('>> |& || && == != <= >= ++ -- += -= *= /= %= ^=')].includes(two)) {
        toks.push({ t: 'op', v: two });
        i += 2;
      } else {
        toks.push({ t: 'op', v: c });
        i++;
      }
    }
  }
  return toks;
}

/** A redirection target expression: a string literal is known, anything else is not. */
function targetAt(toks: Tok[], k: number): AwkTarget {
  const t = toks[k];
  const after = toks[k + 1];
  const simpleEnd = !after || after.t === 'nl' || (after.t === 'op' && [';', '}', ')'].includes(after.v));
  if (t?.t === 'str' && simpleEnd) return { target: t.v, known: true };
  if (t?.t === 'str') return { target: t.v, known: false };
  return { target: '<expression>', known: false };
}

/** Scans an awk program text into `out` (writes, reads, executes, problems). */
export function scanAwkProgram(
  src: string,
  out: Pick<AwkAnalysis, 'writes' | 'reads' | 'executes' | 'problems' | 'ok'>,
): void {
  const toks = tokenize(src);
  let printDepth = -1; // paren depth at which the current print statement started, -1 = none
  let depth = 0;
  for (let k = 0; k < toks.length; k++) {
    const tk = toks[k] as Tok;
    if (tk.t === 'id') {
      if (tk.v.startsWith('@')) {
        out.ok = false;
        out.problems.push(`gawk directive or indirect call ${tk.v} is not analysed`);
        out.executes.push(tk.v);
        continue;
      }
      if (tk.v === 'system') {
        const next = toks[k + 1];
        if (next?.t === 'op' && next.v === '(') {
          const arg = toks[k + 2];
          out.executes.push(arg?.t === 'str' ? arg.v : '<expression>');
        }
        continue;
      }
      if (tk.v === 'print' || tk.v === 'printf') {
        printDepth = depth;
        continue;
      }
      if (tk.v === 'getline') {
        // getline [lvalue] < file
        let j = k + 1;
        const n = toks[j];
        if (n?.t === 'id' && !['if', 'while', 'for'].includes(n.v)) j++;
        else if (n?.t === 'op' && n.v === '$') j += 2;
        const lt = toks[j];
        if (lt?.t === 'op' && lt.v === '<') {
          const tgt = targetAt(toks, j + 1);
          if (!STD_TARGETS.has(tgt.target) && tgt.target !== '/dev/stdin') out.reads.push(tgt);
        }
        continue;
      }
      continue;
    }
    if (tk.t === 'nl') {
      if (depth <= printDepth) printDepth = -1;
      continue;
    }
    if (tk.t !== 'op') continue;
    switch (tk.v) {
      case '(':
      case '[':
        depth++;
        break;
      case ')':
      case ']':
        depth--;
        break;
      case ';':
      case '{':
      case '}':
        printDepth = -1;
        break;
      case '|':
      case '|&': {
        const next = toks[k + 1];
        if (next?.t === 'id' && next.v === 'getline') {
          const prev = toks[k - 1];
          out.executes.push(prev?.t === 'str' ? prev.v : '<expression>');
        } else if (printDepth >= 0 && depth === printDepth) {
          out.executes.push(targetAt(toks, k + 1).target);
          printDepth = -1;
        } else if (tk.v === '|&') {
          out.executes.push('<coprocess>');
        }
        break;
      }
      case '>':
      case '>>':
        if (printDepth >= 0 && depth === printDepth) {
          const tgt = targetAt(toks, k + 1);
          if (!STD_TARGETS.has(tgt.target)) out.writes.push(tgt);
          printDepth = -1;
        }
        break;
    }
  }
}
