/**
 * Effects of programs that read files: their file operands (and option values naming files) are
 * reads; a search with no path reads the cwd. Text filters with write options (sort -o, uniq OUT,
 * xxd OUT/-r, sed -i/w, awk print >) also get their writes here.
 *
 * Source: docs/architecture.md; the Claude Code permissions docs "Read/Edit deny rules also apply to file commands Bash
 * recognises (cat, head, tail, sed, grep …)"; docs/security-round-2.md (option values
 * `-f FILE`, `--rawfile`, redirects) and "Protected files" (sed -i/w, awk print >, sort -o, xxd -r).
 */
import { analyzeSed } from '../sed.js';
import { analyzeAwk } from '../read-only/awk.js';
import { analyzeFind } from '../read-only/find.js';
import type { OptionTable } from '../read-only/options.js';
import type { Word } from '../types.js';
import { type EffectHandler, operands, options, readAll, scanner, valueInput } from './handler.js';
import { words } from '../read-only/options.js';

/**
 * A handler for a program whose operands are all files to read; `fileOptions` name options whose
 * value is a file read, `writeOptions` options whose value is a file written. The table is given as
 * a function at module level: it is built on the program's first use (handler.ts `scanner`).
 */
function reader(
  table: OptionTable | (() => OptionTable),
  fileOptions: string[] = [],
  cwdWhenNone = false,
  skipOperands = 0,
  writeOptions: string[] = [],
): EffectHandler {
  const scan = scanner(table);
  return (args, sink) => {
    const items = scan(args);
    for (const o of options(items, ...fileOptions)) sink.file('read', valueInput(o, args), 'flag');
    for (const o of options(items, ...writeOptions))
      sink.file('write', valueInput(o, args), 'flag', `${o.name} output file`);
    const ops = operands(items).slice(skipOperands);
    readAll(sink, ops, 'reads', cwdWhenNone ? '.' : undefined);
  };
}

/** Permissive table: unknown options are assumed to be flags (arity guess only affects operand split). */
const ANY = (): OptionTable => ({ safe: [] });

const GREP_TABLE = (): OptionTable => ({
  safe: [
    ...words('-e= -f= -m= -A= -B= -C= -d= -D= --regexp= --file= --max-count= --label= --include='),
    ...words('--exclude= --exclude-from= --exclude-dir= --binary-files= --directories= --devices='),
    ...words('--before-context= --after-context= --context= --group-separator= --color=? --colour=? -r -R'),
    ...words('--recursive --dereference-recursive'),
  ],
  numeric: true,
});
const RG_TABLE = (): OptionTable => ({
  safe: [
    ...words('-A= -B= -C= -d= -E= -e= -f= -g= -j= -M= -m= -r= -t= -T= --after-context= --before-context='),
    ...words('--context= --context-separator= --field-context-separator= --field-match-separator='),
    ...words('--max-depth= --maxdepth= --encoding= --regexp= --file= --glob= --iglob= --ignore-file='),
    ...words('--threads= --max-columns= --max-count= --max-filesize= --replace= --type= --type-not='),
    ...words('--type-add= --type-clear= --sort= --sortr= --dfa-size-limit= --regex-size-limit= --engine='),
    ...words('--generate= --hyperlink-format= --pre-glob= --colors= --color= --path-separator= --pre='),
    ...words('--hostname-bin= --files --type-list'),
  ],
});

/** grep/rg: the first operand is the pattern unless -e/-f gave one; no path → cwd (recursive) or stdin. */
function searchHandler(table: OptionTable | (() => OptionTable), isRg: boolean): EffectHandler {
  const scan = scanner(table);
  return (args, sink) => {
    const items = scan(args);
    for (const o of options(items, '-f', '--file', '--exclude-from', '--ignore-file'))
      sink.file('read', valueInput(o, args), 'flag');
    for (const o of options(items, '--pre', '--hostname-bin'))
      sink.other('exec', o.value ?? '', 'unknown', 'flag', `rg ${o.name} runs a program`);
    const patternGiven =
      options(items, '-e', '--regexp', '-f', '--file').length > 0 ||
      options(items, '--files', '--type-list').length > 0;
    const ops = operands(items).slice(patternGiven ? 0 : 1);
    const recursive = isRg || options(items, '-r', '-R', '--recursive', '--dereference-recursive').length > 0;
    readAll(
      sink,
      ops,
      isRg ? 'rg' : 'grep',
      recursive && !options(items, '--type-list').length ? '.' : undefined,
    );
  };
}

const SORT_SCAN = scanner(() => ({
  safe: [
    ...words('-k= -t= -S= -T= -o= --output= --key= --field-separator= --buffer-size='),
    ...words('--temporary-directory= --compress-program= --random-source= --files0-from= --batch-size='),
    ...words('--parallel= --sort= --check=?'),
  ],
}));
const sortHandler: EffectHandler = (args, sink) => {
  const items = SORT_SCAN(args);
  for (const o of options(items, '-o', '--output'))
    sink.file('write', valueInput(o, args), 'flag', 'sort -o');
  for (const o of options(items, '-T', '--temporary-directory'))
    sink.file('write', valueInput(o, args), 'flag', 'sort temporary files');
  for (const o of options(items, '--random-source', '--files0-from'))
    sink.file('read', valueInput(o, args), 'flag');
  for (const o of options(items, '--files0-from'))
    sink.other('read', `files named in ${o.value ?? ''}`, 'unknown', 'flag', 'sort --files0-from');
  for (const o of options(items, '--compress-program'))
    sink.other('exec', o.value ?? '', 'unknown', 'flag', 'sort --compress-program');
  readAll(sink, operands(items), 'sort');
};

const UNIQ_SCAN = scanner(() => ({
  safe: [...words('-f= -s= -w= --skip-fields= --skip-chars= --check-chars= --all-repeated=? --group=?')],
}));
const uniqHandler: EffectHandler = (args, sink) => {
  const ops = operands(UNIQ_SCAN(args));
  if (ops[0]) sink.file('read', ops[0], 'argument', 'uniq input');
  if (ops[1]) sink.file('write', ops[1], 'argument', 'uniq output');
};

const sedHandler: EffectHandler = (args, sink) => {
  const a = analyzeSed(args);
  for (const f of a.scriptFiles) sink.literal('read', f, 'flag', 'sed -f script');
  if (a.scriptFiles.length || a.scriptDynamic || !a.ok)
    sink.other(
      'exec',
      a.script ?? a.scriptFiles.join(' '),
      'unknown',
      'interpreter',
      'sed script not fully known',
    );
  for (const f of a.files) {
    sink.file('read', f, 'argument', 'sed input');
    if (a.inPlace) {
      sink.file('write', f, 'argument', 'sed -i (edit in place)');
      if (a.backupSuffix)
        sink.file(
          'write',
          { ...f, text: f.text + a.backupSuffix, raw: f.raw + a.backupSuffix },
          'argument',
          'sed -i backup',
        );
    }
  }
  for (const w of a.writes) sink.literal('write', w, 'interpreter', 'sed w command');
  for (const r of a.reads) sink.literal('read', r, 'interpreter', 'sed r command');
  for (const e of a.executes) sink.other('exec', e, 'unknown', 'interpreter', 'sed e command');
};

const awkHandler: EffectHandler = (args, sink) => {
  const a = analyzeAwk(args);
  // gawk's inplace extension (`-i inplace`, `--include=inplace`) rewrites every input file.
  if (a.programFiles.some((f) => f === 'inplace' || f === 'inplace.awk'))
    for (const f of a.files) sink.file('write', f, 'argument', 'gawk -i inplace (edit in place)');
  for (const f of a.programFiles) sink.literal('read', f, 'flag', 'awk -f program');
  if (a.programFiles.length || a.programDynamic || !a.ok)
    sink.other(
      'exec',
      a.program ?? a.programFiles.join(' '),
      'unknown',
      'interpreter',
      'awk program not fully known',
    );
  readAll(sink, a.files, 'awk input');
  for (const w of a.writes)
    if (w.known) sink.literal('write', w.target, 'interpreter', 'awk print >');
    else sink.other('write', w.target, 'unknown', 'interpreter', 'awk print > (computed file name)');
  for (const r of a.reads)
    if (r.known) sink.literal('read', r.target, 'interpreter', 'awk getline <');
    else sink.other('read', r.target, 'unknown', 'interpreter', 'awk getline < (computed file name)');
  for (const e of a.executes) {
    sink.other('exec', e, 'unknown', 'interpreter', 'awk runs a command');
    // A pipe or system() string is shell text nobody parses here: its writes are not known either,
    // so bypassPermissions asks as for any write it cannot see.
    sink.other('write', `${e} (files it writes)`, 'unknown', 'interpreter', 'awk runs a shell command');
  }
};

const findHandler: EffectHandler = (args, sink) => {
  const a = analyzeFind(args);
  const starts = a.startPaths.length
    ? a.startPaths
    : [{ text: '.', raw: '.', dynamic: false, quoted: false, hasGlob: false } as Word];
  for (const s of starts) sink.file('read', s, 'argument', 'find start path');
  if (a.deletes)
    for (const s of starts) sink.file('delete', s, 'argument', 'find -delete (files matched below)');
  for (const w of a.writes) sink.file('write', w, 'flag', 'find -fprint/-fls');
  for (const r of a.reads) sink.file('read', r, 'flag', 'find reference file');
  if (a.filesFrom)
    sink.other('read', 'paths named in the -files0-from list', 'unknown', 'flag', 'find -files0-from');
};

const JQ_SCAN = scanner(() => ({ safe: ['-f=', '--from-file=', '-L=', '--library-path=', '--indent='] }));
/** jq: `--arg n v`/`--argjson n v` take two words, `--rawfile n f`/`--slurpfile n f` read f. */
const jqHandler: EffectHandler = (args, sink) => {
  const rest: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (t === '--arg' || t === '--argjson') {
      i += 2;
      continue;
    }
    if (t === '--rawfile' || t === '--slurpfile') {
      const f = args[i + 2];
      if (f) sink.file('read', f, 'flag', `jq ${t}`);
      i += 2;
      continue;
    }
    if (t === '--args' || t === '--jsonargs') {
      // Everything after the program is arguments, not files.
      const items = JQ_SCAN(rest);
      for (const o of options(items, '-f', '--from-file', '-L', '--library-path'))
        sink.file('read', valueInput(o, rest), 'flag');
      return;
    }
    rest.push(args[i] as Word);
  }
  const items = JQ_SCAN(rest);
  const fromFile = options(items, '-f', '--from-file');
  for (const o of [...fromFile, ...options(items, '-L', '--library-path')])
    sink.file('read', valueInput(o, rest), 'flag');
  readAll(sink, operands(items).slice(fromFile.length ? 0 : 1), 'jq input');
};

const XXD_VALUE = /^-(c|cols|g|groupsize|l|len|n|name|o|offset|s|seek|R)$/;
const xxdHandler: EffectHandler = (args, sink) => {
  const ops: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (XXD_VALUE.test(t)) {
      i++;
      continue;
    }
    if (t.startsWith('-') && t !== '-') continue;
    ops.push(args[i] as Word);
  }
  if (ops[0]) sink.file('read', ops[0], 'argument', 'xxd input');
  if (ops[1])
    sink.file(
      'write',
      ops[1],
      'argument',
      args.some((w) => w.text.startsWith('-r')) ? 'xxd -r output' : 'xxd output',
    );
};

/** test/[ : the operand of a file test operator is a path (metadata read). */
const FILE_TESTS = new Set([...words('-a -b -c -d -e -f -g -G -h -k -L -N -O -p -r -s -S -u -w -x')]);
const testHandler: EffectHandler = (args, sink) => {
  for (let i = 0; i < args.length - 1; i++) {
    if (FILE_TESTS.has((args[i] as Word).text))
      sink.file('read', args[i + 1] as Word, 'argument', 'file test');
  }
  for (let i = 1; i < args.length - 1; i++) {
    const op = (args[i] as Word).text;
    if (op === '-nt' || op === '-ot' || op === '-ef') {
      sink.file('read', args[i - 1] as Word, 'argument', 'file test');
      sink.file('read', args[i + 1] as Word, 'argument', 'file test');
    }
  }
};

const HEAD_TABLE = (): OptionTable => ({
  safe: [...words('-n= -c= --lines= --bytes= -s= --pid= --sleep-interval= --max-unchanged-stats=')],
  numeric: true,
});
const DIFF_TABLE = (): OptionTable => ({
  safe: [
    ...words('-C= -U= -W= -I= -x= -X= -S= -F= -D= --label= --from-file= --to-file= --exclude='),
    ...words('--exclude-from= --ignore-matching-lines= --starting-file= --width= --tabsize= --color=?'),
    ...words('--palette= --horizontal-lines= --show-function-line= --ifdef='),
  ],
  numeric: true,
});

/** Handlers for readers; also covers every read-only validator program with file operands. */
export const readerHandlers: Record<string, EffectHandler> = {
  cat: reader(ANY),
  tac: reader(() => ({ safe: ['-s=', '--separator='] })),
  head: reader(HEAD_TABLE),
  tail: reader(HEAD_TABLE),
  less: reader(
    () => ({
      safe: [...words('-b= -h= -j= -p= -P= -x= -y= -z= -#= -o= -O= -k= -T= -t= --log-file= --lesskey-file=')],
    }),
    ['-k', '--lesskey-file', '-T'],
    false,
    0,
    ['-o', '-O', '--log-file'],
  ),
  more: reader(() => ({ safe: ['-n='] })),
  wc: reader(() => ({ safe: ['--files0-from=', '--total='] }), ['--files0-from']),
  nl: reader(() => ({ safe: ['-b=', '-d=', '-f=', '-h=', '-i=', '-l=', '-n=', '-s=', '-v=', '-w='] })),
  od: reader(() => ({ safe: ['-A=', '-j=', '-N=', '-S=', '-t=', '-w=?'] })),
  hexdump: reader(() => ({ safe: ['-e=', '-f=', '-n=', '-s='] }), ['-f']),
  base64: reader(() => ({ safe: ['-w=', '--wrap='] })),
  base32: reader(() => ({ safe: ['-w=', '--wrap='] })),
  strings: reader(() => ({
    safe: ['-n=', '-t=', '-e=', '-s=', '-T=', '-U=', '--bytes=', '--radix=', '--encoding='],
  })),
  diff: reader(DIFF_TABLE, ['-X', '--exclude-from', '--from-file', '--to-file']),
  cmp: reader(() => ({ safe: ['-i=', '-n=', '--ignore-initial=', '--bytes='] })),
  comm: reader(() => ({ safe: ['--output-delimiter='] })),
  paste: reader(() => ({ safe: ['-d=', '--delimiters='] })),
  join: reader(() => ({ safe: ['-a=', '-e=', '-j=', '-o=', '-t=', '-v=', '-1=', '-2='] })),
  cut: reader(() => ({
    safe: [...words('-b= -c= -d= -f= --bytes= --characters= --delimiter= --fields= --output-delimiter=')],
  })),
  column: reader(() => ({
    safe: ['-s=', '-o=', '-c=', '-N=', '-l=', '-R=', '-W=', '-E=', '-H=', '-O=', '-r=', '-i=', '-p='],
  })),
  fold: reader(() => ({ safe: ['-w=', '--width='], numeric: true })),
  fmt: reader(() => ({ safe: ['-p=', '-w=', '-g=', '--prefix=', '--width=', '--goal='], numeric: true })),
  expand: reader(() => ({ safe: ['-t=', '--tabs='], numeric: true })),
  unexpand: reader(() => ({ safe: ['-t=', '--tabs='], numeric: true })),
  rev: reader(ANY),
  file: reader(
    () => ({
      safe: [
        ...words('-e= -F= -P= -f= --files-from= -m= --magic-file= --separator= --parameter= --exclude='),
      ],
    }),
    ['-f', '--files-from', '-m', '--magic-file'],
  ),
  stat: reader(() => ({ safe: ['-c=', '--format=', '--printf=', '--cached='] })),
  du: reader(
    () => ({
      safe: [
        ...words('-B= -d= -t= -X= --block-size= --max-depth= --threshold= --time=? --time-style='),
        ...words('--exclude-from= --exclude= --files0-from='),
      ],
    }),
    ['-X', '--exclude-from', '--files0-from'],
    true,
  ),
  df: reader(() => ({
    safe: ['-B=', '-t=', '-x=', '--block-size=', '--output=?', '--type=', '--exclude-type='],
  })),
  ls: reader(
    () => ({
      safe: [
        ...words('-I= -T= -w= --block-size= --color=? --format= --hide= --ignore= --indicator-style='),
        ...words('--quoting-style= --sort= --time= --time-style= --tabsize= --width='),
      ],
    }),
    [],
    true,
  ),
  dir: reader(() => ({ safe: ['-I=', '-T=', '-w='] }), [], true),
  tree: reader(
    () => ({
      safe: [
        ...words('-L= -P= -I= -H= -T= -o= --charset= --filelimit= --sort= --timefmt= --infofile='),
        ...words('--gitfile='),
      ],
    }),
    ['--infofile', '--gitfile'],
    true,
    0,
    ['-o'],
  ),
  realpath: reader(() => ({ safe: ['--relative-to=', '--relative-base='] })),
  readlink: reader(ANY),
  md5sum: reader(ANY),
  sha1sum: reader(ANY),
  sha224sum: reader(ANY),
  sha256sum: reader(ANY),
  sha384sum: reader(ANY),
  sha512sum: reader(ANY),
  b2sum: reader(() => ({ safe: ['-l=', '--length='] })),
  cksum: reader(() => ({ safe: ['-a=', '--algorithm=', '-l=', '--length='] })),
  sum: reader(ANY),
  grep: searchHandler(GREP_TABLE, false),
  egrep: searchHandler(GREP_TABLE, false),
  fgrep: searchHandler(GREP_TABLE, false),
  rg: searchHandler(RG_TABLE, true),
  find: findHandler,
  fd: reader(
    () => ({
      safe: [
        ...words('-d= -E= -t= -e= -S= -o= -c= -j= --base-directory= --search-path= --ignore-file='),
        ...words('--exclude= --type= --extension= --size= --max-depth= --min-depth= --exact-depth='),
        ...words('--changed-within= --changed-before= --owner= --format= --color= --threads='),
        ...words('--max-results= --path-separator= --and='),
      ],
    }),
    ['--base-directory', '--search-path', '--ignore-file'],
    true,
    1,
  ),
  sort: sortHandler,
  uniq: uniqHandler,
  sed: sedHandler,
  awk: awkHandler,
  gawk: awkHandler,
  mawk: awkHandler,
  nawk: awkHandler,
  jq: jqHandler,
  xxd: xxdHandler,
  test: testHandler,
  '[': testHandler,
  '[[': testHandler,
};
