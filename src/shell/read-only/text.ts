/**
 * Read-only validators for text filters: sed, awk, sort, jq, uniq, cut, tr, comm, paste, join,
 * column, fold, fmt, expand/unexpand, tac, rev.
 *
 * Source: docs/security-round-2.md — sed `-i`/`--in-place*`, `w`/`W`/`r`/`R`/`e`,
 * `s///e|w`, `-f`; awk `system()`, `print >`, `getline <`, `cmd | getline`, `-f`;
 * `sort -o/--output/--compress-program` in all spellings; jq `env`, `$ENV`, `system`,
 * `--rawfile`, `--slurpfile`, `-L`. See docs/shell-analysis.md (jq).
 */
import { analyzeSed } from '../sed.js';
import type { Word } from '../types.js';
import { analyzeAwk } from './awk.js';
import { compiledLazily, operandsOf, scanArgs, words } from './options.js';
import { byTable, disqualifier, no, type Validator, yes } from './verdict.js';

/** sed is read-only without -i/-f, without w/W/r/R/e and s///e|w, with a static script. */
export const sedValidator: Validator = (args) => {
  const a = analyzeSed(args);
  if (!a.ok) return no(`sed: ${a.problems.join('; ')}`);
  if (a.inPlace) return no('sed -i edits files in place');
  if (a.scriptFiles.length) return no('sed -f runs a script file the analysis cannot see');
  if (a.scriptDynamic) return no('sed script contains an expansion (could become any command)');
  if (a.executes.length) return no(`sed script executes a command (${a.executes[0]})`);
  if (a.writes.length) return no(`sed script writes ${a.writes[0]}`);
  if (a.reads.length) return no(`sed script reads another file (${a.reads[0]})`);
  return yes('sed prints without writing or executing');
};

/** awk is read-only without system(), redirections, pipes, getline < file, -f and unsafe options. */
export const awkValidator: Validator = (args) => {
  const a = analyzeAwk(args);
  if (!a.ok) return no(`awk: ${a.problems.join('; ')}`);
  if (a.programFiles.length) return no('awk -f runs a program file the analysis cannot see');
  if (a.unsafeOptions.length) return no(`awk ${a.unsafeOptions[0]}`);
  if (a.programDynamic) return no('awk program contains an expansion (could become any program)');
  if (a.executes.length) return no(`awk program runs a command (${a.executes[0]})`);
  if (a.writes.length) return no(`awk program writes ${a.writes[0]?.target}`);
  if (a.reads.length) return no(`awk program reads another file (${a.reads[0]?.target})`);
  return yes('awk program only reads its input and prints');
};

const SORT = byTable('sort', () => ({
  safe: [
    ...'bdfgiMhnRrVcCmsuz'.split('').map((c) => `-${c}`),
    ...words('-k= -t= -S= --ignore-leading-blanks --dictionary-order --ignore-case --general-numeric-sort'),
    ...words('--ignore-nonprinting --month-sort --human-numeric-sort --numeric-sort --random-sort'),
    ...words('--random-source= --reverse --sort= --version-sort --batch-size= --check=? --debug --merge'),
    ...words('--key= --field-separator= --buffer-size= --stable --unique --parallel= --zero-terminated'),
    ...words('--help --version'),
  ],
  unsafe: {
    '-o=': 'writes its output to a file',
    '--output=': 'writes its output to a file',
    '--compress-program=': 'runs a program to compress temporary files',
    '-T=': 'writes temporary files into a directory',
    '--temporary-directory=': 'writes temporary files into a directory',
    '--files0-from=': 'reads the list of files to open from another file',
  },
}));

const JQ_OPTIONS = compiledLazily(() => ({
  safe: [
    ...words('-r -j -a -c -n -e -s -S -C -M -R -h -V --raw-output --raw-output0 --join-output'),
    ...words('--ascii-output --compact-output --null-input --exit-status --slurp --sort-keys'),
    ...words('--color-output --monochrome-output --raw-input --tab --indent= --unbuffered --stream'),
    ...words('--stream-errors --seq --args --jsonargs --help --version --build-configuration'),
  ],
  unsafe: {
    '-f=': 'reads the jq program from a file the analysis cannot see',
    '--from-file=': 'reads the jq program from a file the analysis cannot see',
    '-L=': 'adds a module search directory (imports code)',
    '--library-path=': 'adds a module search directory (imports code)',
  },
}));

const JQ_PROGRAM_RISK =
  /\$ENV\b|\benv\b|\bsystem\b|\bimport\b|\binclude\b|\bmodulemeta\b|\bget_search_list\b|\binput_filename\b/g;

/**
 * The code of a jq program with string literals blanked (`"env"` is data), keeping the code of
 * `\(…)` interpolations inside them. One pass; unterminated strings keep their text blanked.
 */
export function jqCode(program: string): string {
  let out = '';
  /** Per open interpolation: paren depth inside it. Strings are entered from code only. */
  const interp: number[] = [];
  let inString = false;
  for (let i = 0; i < program.length; i++) {
    const c = program[i] as string;
    if (inString) {
      if (c === '\\' && program[i + 1] === '(') {
        interp.push(0);
        inString = false;
        out += ' (';
        i++;
      } else if (c === '\\') {
        out += '  ';
        i++;
      } else if (c === '"') {
        inString = false;
        out += '"';
      } else out += ' ';
      continue;
    }
    if (c === '"') {
      inString = true;
      out += '"';
    } else if (interp.length && c === '(') {
      interp[interp.length - 1] = (interp[interp.length - 1] as number) + 1;
      out += c;
    } else if (interp.length && c === ')') {
      if (interp[interp.length - 1] === 0) {
        interp.pop();
        inString = true;
      } else interp[interp.length - 1] = (interp[interp.length - 1] as number) - 1;
      out += c;
    } else out += c;
  }
  return out;
}

/** First risky builtin used as code in a jq program (`.env`, `.a.env` field access and strings aside). */
export function jqProgramRisk(program: string): string | undefined {
  const code = jqCode(program);
  for (const m of code.matchAll(JQ_PROGRAM_RISK)) {
    const i = m.index;
    if (!m[0].startsWith('$') && code[i - 1] === '.' && code[i - 2] !== '.') continue;
    return m[0];
  }
  return undefined;
}

/** jq: two-argument options (`--arg n v`) are consumed by hand; the program is checked for env/system/imports. */
const jqValidator: Validator = (args) => {
  const rest: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (t === '--arg' || t === '--argjson') {
      i += 2;
      continue;
    }
    if (t === '--rawfile' || t === '--slurpfile') return no(`jq ${t} reads another file into a variable`);
    rest.push(args[i] as Word);
  }
  const items = scanArgs(rest, JQ_OPTIONS());
  const bad = disqualifier('jq', items, true);
  if (bad) return no(bad);
  const program = operandsOf(items)[0];
  if (!program) return yes('jq without a program prints its input');
  if (program.dynamic) return no('jq program contains an expansion (could become any program)');
  const risk = jqProgramRisk(program.text);
  if (risk) return no(`jq program uses ${risk} (environment, files or code outside the input)`);
  return yes('jq filter only reads its input');
};

const UNIQ = byTable(
  'uniq',
  () => ({
    safe: [
      ...words('-c -d -D -u -i -z -f= -s= -w= --count --repeated --all-repeated=? --group=? --unique'),
      ...words('--ignore-case --zero-terminated --skip-fields= --skip-chars= --check-chars= --help'),
      ...words('--version'),
    ],
  }),
  { maxOperands: 1 },
);

const CUT = byTable('cut', () => ({
  safe: [
    ...words('-b= -c= -d= -f= -n -s -z --bytes= --characters= --delimiter= --fields= --complement'),
    ...words('--only-delimited --output-delimiter= --zero-terminated --help --version'),
  ],
}));

const TR = byTable('tr', () => ({
  safe: [...words('-c -C -d -s -t --complement --delete --squeeze-repeats --truncate-set1 --help --version')],
}));

const COMM = byTable('comm', () => ({
  safe: [
    ...words('-1 -2 -3 -i -z --check-order --nocheck-order --output-delimiter= --total --zero-terminated'),
    ...words('--help --version'),
  ],
}));

const PASTE = byTable('paste', () => ({
  safe: ['-d=', '-s', '-z', '--delimiters=', '--serial', '--zero-terminated', '--help', '--version'],
}));

const JOIN = byTable('join', () => ({
  safe: [
    ...words('-a= -e= -i -j= -o= -t= -v= -1= -2= -z --ignore-case --check-order --nocheck-order --header'),
    ...words('--zero-terminated --help --version'),
  ],
}));

const COLUMN = byTable('column', () => ({
  safe: [
    ...words('-t -x -n -e -J -L -s= -o= -c= -N= -l= -R= -W= -E= -H= -O= -r= -d -i= -p= --table --fillrows'),
    ...words('--json --keep-empty-lines --separator= --output-separator= --output-width= --table-columns='),
    ...words('--table-columns-limit= --table-right= --table-truncate= --table-noextreme= --table-hide='),
    ...words('--table-order= --table-name= --table-noheadings --table-header-repeat --tree= --tree-id='),
    ...words('--tree-parent= --help --version'),
  ],
}));

const FOLD = byTable('fold', () => ({
  safe: ['-b', '-s', '-w=', '--bytes', '--spaces', '--width=', '--help', '--version'],
  numeric: true,
}));
const FMT = byTable('fmt', () => ({
  safe: [
    ...words('-c -p= -s -t -u -w= -g= --crown-margin --prefix= --split-only --tagged-paragraph'),
    ...words('--uniform-spacing --width= --goal= --help --version'),
  ],
  numeric: true,
}));
const EXPAND = byTable('expand', () => ({
  safe: ['-i', '-t=', '--initial', '--tabs=', '-a', '--all', '--first-only', '--help', '--version'],
  numeric: true,
}));
const TAC = byTable('tac', () => ({
  safe: ['-b', '-r', '-s=', '--before', '--regex', '--separator=', '--help', '--version'],
}));
const REV = byTable('rev', () => ({ safe: ['-0', '--zero', '-h', '--help', '-V', '--version'] }));

export const textValidators: Record<string, Validator> = {
  sed: sedValidator,
  awk: awkValidator,
  gawk: awkValidator,
  mawk: awkValidator,
  nawk: awkValidator,
  sort: SORT,
  jq: jqValidator,
  uniq: UNIQ,
  cut: CUT,
  tr: TR,
  comm: COMM,
  paste: PASTE,
  join: JOIN,
  column: COLUMN,
  fold: FOLD,
  fmt: FMT,
  expand: EXPAND,
  unexpand: EXPAND,
  tac: TAC,
  rev: REV,
};
