/**
 * GNU find command-line analysis: start paths, the expression's primaries, and what the
 * expression does beyond listing — runs commands (`-exec`, `-execdir`, `-ok`, `-okdir`),
 * deletes (`-delete`), writes files (`-fprint`, `-fprint0`, `-fprintf`, `-fls`) or reads other
 * files (`-newer F`, `-samefile F`, `-files0-from F`).
 *
 * Source: docs/security-round-2.md (find -exec/-execdir/-ok/-okdir/-delete/
 * -fprint, -fprint0, -fprintf, -fls); GNU findutils 4.9 manual.
 */
import type { Word } from '../types.js';
import { getOwn } from '../../core/get-own.js';

/** Number of arguments each known primary takes (options, tests, read-only actions). */
const PRIMARY_ARGS: Record<string, number> = {
  // global/positional options
  '-daystart': 0,
  '-depth': 0,
  '-d': 0,
  '-follow': 0,
  '-ignore_readdir_race': 0,
  '-noignore_readdir_race': 0,
  '-maxdepth': 1,
  '-mindepth': 1,
  '-mount': 0,
  '-xdev': 0,
  '-noleaf': 0,
  '-regextype': 1,
  '-warn': 0,
  '-nowarn': 0,
  '-help': 0,
  '--help': 0,
  '-version': 0,
  '--version': 0,
  // tests
  '-amin': 1,
  '-anewer': 1,
  '-atime': 1,
  '-cmin': 1,
  '-cnewer': 1,
  '-ctime': 1,
  '-empty': 0,
  '-executable': 0,
  '-false': 0,
  '-fstype': 1,
  '-gid': 1,
  '-group': 1,
  '-ilname': 1,
  '-iname': 1,
  '-inum': 1,
  '-ipath': 1,
  '-iregex': 1,
  '-iwholename': 1,
  '-links': 1,
  '-lname': 1,
  '-mmin': 1,
  '-mtime': 1,
  '-name': 1,
  '-newer': 1,
  '-nogroup': 0,
  '-nouser': 0,
  '-path': 1,
  '-perm': 1,
  '-readable': 0,
  '-regex': 1,
  '-samefile': 1,
  '-size': 1,
  '-true': 0,
  '-type': 1,
  '-uid': 1,
  '-used': 1,
  '-user': 1,
  '-wholename': 1,
  '-writable': 0,
  '-xtype': 1,
  '-context': 1,
  // read-only actions
  '-ls': 0,
  '-print': 0,
  '-print0': 0,
  '-printf': 1,
  '-prune': 0,
  '-quit': 0,
  // operators
  '-not': 0,
  '-and': 0,
  '-a': 0,
  '-or': 0,
  '-o': 0,
  '!': 0,
  '(': 0,
  ')': 0,
  ',': 0,
};

/** Primaries that name a file to stat/read. */
const READS_FILE = new Set(['-newer', '-anewer', '-cnewer', '-samefile']);
const EXEC_PRIMARIES = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const WRITE_PRIMARIES: Record<string, number> = { '-fprint': 1, '-fprint0': 1, '-fls': 1, '-fprintf': 2 };

export interface FindAnalysis {
  /** Start paths (default `.` when none). */
  startPaths: Word[];
  /** Commands of -exec/-execdir/-ok/-okdir (argv words, `{}` kept). */
  execs: { primary: string; argv: Word[] }[];
  deletes: boolean;
  /** Files written by -fprint/-fprint0/-fprintf/-fls. */
  writes: Word[];
  /** Files read by -newer/-samefile/-files0-from. */
  reads: Word[];
  /** Primaries the analysis does not know (fail closed: not read-only). */
  unknown: string[];
  /** A word starting with an expansion in expression position. */
  dynamicPrimary: boolean;
  /** -newerXY reference files and `-newer*t` literal times are handled; true when -files0-from was used. */
  filesFrom: boolean;
}

/** Analyses `find` arguments (argv without the program). Never throws. */
export function analyzeFind(args: readonly Word[]): FindAnalysis {
  const out: FindAnalysis = {
    startPaths: [],
    execs: [],
    deletes: false,
    writes: [],
    reads: [],
    unknown: [],
    dynamicPrimary: false,
    filesFrom: false,
  };
  let i = 0;
  // Leading options -H -L -P -D debugopts -Olevel.
  while (i < args.length) {
    const t = (args[i] as Word).text;
    if (t === '-H' || t === '-L' || t === '-P' || /^-O\d*$/.test(t)) i++;
    else if (t === '-D') i += 2;
    else break;
  }
  // Start paths: words up to the first that starts with `-`, `(`, `!` or `,`.
  while (i < args.length) {
    const w = args[i] as Word;
    const t = w.text;
    if (t.startsWith('-') || t === '(' || t === '!' || t === ',' || t === ')') break;
    if (w.dynamic && (t.startsWith('$') || t.startsWith('`'))) out.dynamicPrimary = true;
    out.startPaths.push(w);
    i++;
  }
  while (i < args.length) {
    const w = args[i] as Word;
    const t = w.text;
    i++;
    if (w.dynamic && (t.startsWith('$') || t.startsWith('`'))) {
      out.dynamicPrimary = true;
      continue;
    }
    if (EXEC_PRIMARIES.has(t)) {
      const argv: Word[] = [];
      while (i < args.length) {
        const a = args[i] as Word;
        i++;
        if (a.text === ';' || (a.text === '+' && argv.length > 0 && argv[argv.length - 1]?.text === '{}'))
          break;
        argv.push(a);
      }
      out.execs.push({ primary: t, argv });
      continue;
    }
    if (t === '-delete') {
      out.deletes = true;
      continue;
    }
    const writeArgs = getOwn(WRITE_PRIMARIES, t);
    if (writeArgs !== undefined) {
      const f = args[i];
      if (f) out.writes.push(f);
      i += writeArgs;
      continue;
    }
    if (t === '-files0-from') {
      out.filesFrom = true;
      const f = args[i];
      if (f) out.reads.push(f);
      i++;
      continue;
    }
    if (/^-newer[aBcmt][aBcmt]$/.test(t)) {
      const f = args[i];
      if (f && !t.endsWith('t')) out.reads.push(f);
      i++;
      continue;
    }
    const n = getOwn(PRIMARY_ARGS, t);
    if (n === undefined) {
      out.unknown.push(t);
      continue;
    }
    if (READS_FILE.has(t)) {
      const f = args[i];
      if (f) out.reads.push(f);
    }
    i += n;
  }
  return out;
}
