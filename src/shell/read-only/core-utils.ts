/**
 * Read-only validators for file-inspection core utilities (GNU coreutils and friends): every
 * option listed is one that only reads; options that write, execute or read a list of other
 * files are `unsafe` with a reason; anything unlisted is not read-only.
 *
 * Source: docs/security-round-2.md (ls cat head tail wc od xxd base64 strings diff
 * cmp file stat du df tree basename dirname realpath …; `file -f`, `wc --files0-from`, `xxd -r`).
 */
import type { Word } from '../types.js';
import { anyArgs, byTable, no, type Validator, yes } from './verdict.js';
import { words } from './options.js';

const FILES0 = { '--files0-from=': 'reads the list of files to open from another file' };

const LS = byTable('ls', () => ({
  safe: [
    ...'aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1'.split('').map((c) => `-${c}`),
    ...words('-I= -T= -w= --all --almost-all --author --escape --block-size= --ignore-backups --color=?'),
    ...words('--directory --dired --classify=? --file-type --format= --full-time'),
    ...words('--group-directories-first --no-group --human-readable --si --dereference-command-line'),
    ...words('--dereference-command-line-symlink-to-dir --hide= --hyperlink=? --indicator-style= --inode'),
    ...words('--ignore= --kibibytes --dereference --numeric-uid-gid --literal --hide-control-chars'),
    ...words('--show-control-chars --quote-name --quoting-style= --reverse --recursive --size --sort='),
    ...words('--time= --time-style= --tabsize= --width= --context --zero --help --version'),
  ],
}));

const CAT = byTable('cat', () => ({
  safe: [
    ...'AbeEnstTuv'.split('').map((c) => `-${c}`),
    ...words('--show-all --number-nonblank --show-ends --number --squeeze-blank --show-tabs'),
    ...words('--show-nonprinting --help --version'),
  ],
}));

const HEAD_TAIL_COMMON = [
  ...words('-n= -c= -q -v -z --lines= --bytes= --quiet --silent --verbose --zero-terminated --help'),
  ...words('--version'),
];

const HEAD = byTable('head', () => ({ safe: HEAD_TAIL_COMMON, numeric: true }));
const TAIL = byTable('tail', () => ({
  safe: [
    ...HEAD_TAIL_COMMON,
    ...words('-f -F -s= --follow=? --pid= --retry --sleep-interval= --max-unchanged-stats='),
  ],
  numeric: true,
}));

const WC = byTable('wc', () => ({
  safe: [
    ...words('-c -l -w -m -L --bytes --chars --lines --words --max-line-length --total= --help --version'),
  ],
  unsafe: FILES0,
}));

const NL = byTable('nl', () => ({
  safe: [
    ...words('-b= -d= -f= -h= -i= -l= -n= -p -s= -v= -w= --body-numbering= --section-delimiter='),
    ...words('--footer-numbering= --header-numbering= --line-increment= --join-blank-lines='),
    ...words('--number-format= --no-renumber --number-separator= --starting-line-number= --number-width='),
    ...words('--help --version'),
  ],
}));

const OD = byTable('od', () => ({
  safe: [
    ...'abcdfilosvx'.split('').map((c) => `-${c}`),
    ...words('-A= -j= -N= -S= -t= -w=? --address-radix= --endian= --skip-bytes= --read-bytes= --strings=?'),
    ...words('--format= --output-duplicates --width=? --traditional --help --version'),
  ],
}));

const HEXDUMP = byTable('hexdump', () => ({
  safe: ['-b', '-c', '-C', '-d', '-o', '-x', '-v', '-L', '-e=', '-n=', '-s=', '--help', '--version'],
  unsafe: { '-f=': 'reads format strings from another file' },
}));

const BASE64 = byTable(
  'base64',
  () => ({
    safe: ['-d', '-i', '-w=', '--decode', '--ignore-garbage', '--wrap=', '--help', '--version'],
  }),
  { maxOperands: 1 },
);

const STRINGS = byTable('strings', () => ({
  safe: [
    ...words('-a -d -f -w -s= -n= -t= -e= -o -U= -T= --all --data --print-file-name --bytes= --radix='),
    ...words('--encoding= --unicode= --output-separator= --include-all-whitespace --target= --help'),
    ...words('--version'),
  ],
  numeric: true,
}));

const DIFF_SAFE = [
  ...'qsceniyltTabwBEZdNrpuaPR'.split('').map((c) => `-${c}`),
  ...words('-C= -U= -W= -I= -x= -X= -S= -F= -D= --normal --brief --report-identical-files --context=?'),
  ...words('--unified=? --ed --rcs --side-by-side --width= --left-column --suppress-common-lines'),
  ...words('--show-c-function --show-function-line= --label= --expand-tabs --initial-tab --tabsize='),
  ...words('--suppress-blank-empty --paginate --new-file --unidirectional-new-file --ignore-case'),
  ...words('--ignore-file-name-case --no-ignore-file-name-case --ignore-tab-expansion'),
  ...words('--ignore-trailing-space --ignore-space-change --ignore-all-space --ignore-blank-lines'),
  ...words('--ignore-matching-lines= --text --strip-trailing-cr --recursive --no-dereference --exclude='),
  ...words('--exclude-from= --starting-file= --from-file= --to-file= --minimal --horizontal-lines='),
  ...words('--speed-large-files --color=? --palette= --ifdef= --old-line-format= --new-line-format='),
  ...words('--unchanged-line-format= --line-format= --old-group-format= --new-group-format='),
  ...words('--unchanged-group-format= --changed-group-format= --help --version'),
];
const DIFF = byTable('diff', () => ({ safe: DIFF_SAFE, numeric: true }));

const CMP = byTable('cmp', () => ({
  safe: [
    ...words('-b -l -s -i= -n= --print-bytes --verbose --quiet --silent --ignore-initial= --bytes= --help'),
    ...words('--version'),
  ],
}));

const FILE = byTable('file', () => ({
  safe: [
    ...'bcdEhiIkLlNnpsrvzZ0S'.split('').map((c) => `-${c}`),
    ...words('-e= -F= -P= --brief --checking-printout --exclude= --exclude-quiet= --extension --mime'),
    ...words('--mime-type --mime-encoding --apple --keep-going --list --dereference --no-dereference'),
    ...words('--no-buffer --no-pad --preserve-date --raw --special-files --uncompress'),
    ...words('--uncompress-noreport --no-sandbox --separator= --parameter= --print0 --help --version'),
  ],
  unsafe: {
    '-f=': 'reads the names of the files to examine from another file',
    '--files-from=': 'reads the names of the files to examine from another file',
    '-m=': 'loads an alternate magic file',
    '--magic-file=': 'loads an alternate magic file',
    '-C': 'compiles a magic file (writes magic.mgc)',
    '--compile': 'compiles a magic file (writes magic.mgc)',
  },
}));

const STAT = byTable('stat', () => ({
  safe: [
    ...words('-L -f -t -c= --dereference --file-system --format= --printf= --terse --cached= --help'),
    ...words('--version'),
  ],
}));

const DU = byTable('du', () => ({
  safe: [
    ...'0abcDhHklLmPSsx'.split('').map((c) => `-${c}`),
    ...words('-B= -d= -t= -X= --null --all --apparent-size --block-size= --bytes --total'),
    ...words('--dereference-args --max-depth= --human-readable --inodes --dereference --count-links'),
    ...words('--no-dereference --separate-dirs --si --summarize --threshold= --time=? --time-style='),
    ...words('--exclude-from= --exclude= --one-file-system --help --version'),
  ],
  unsafe: FILES0,
}));

const DF = byTable('df', () => ({
  safe: [
    ...'ahHiklPTv'.split('').map((c) => `-${c}`),
    ...words('-B= -t= -x= --all --block-size= --human-readable --si --inodes --local --no-sync --output=?'),
    ...words('--portability --total --type= --print-type --exclude-type= --help --version'),
  ],
}));

const TREE = byTable('tree', () => ({
  safe: [
    ...'adlfxACDFgiJnNpqQrstuUvhS'.split('').map((c) => `-${c}`),
    ...words('-L= -P= -I= -H= -T= --gitignore --gitfile= --ignore-case --matchdirs --metafirst --prune'),
    ...words('--info --infofile= --noreport --charset= --filelimit= --dirsfirst --filesfirst --sort= --du'),
    ...words('--si --inodes --device --timefmt= --nolinks --hintro= --houtro= --fromfile --fromtabfile'),
    ...words('--fflinks --opt-toggle --help --version'),
  ],
  unsafe: {
    '-o=': 'writes the listing to a file',
    '-R': 'reruns tree writing 00Tree.html files into each directory',
  },
}));

const BASENAME = byTable('basename', () => ({
  safe: ['-a', '-s=', '-z', '--multiple', '--suffix=', '--zero', '--help', '--version'],
}));
const DIRNAME = byTable('dirname', () => ({ safe: ['-z', '--zero', '--help', '--version'] }));
const REALPATH = byTable('realpath', () => ({
  safe: [
    ...words('-e -m -L -P -q -s -z --canonicalize-existing --canonicalize-missing --logical --physical'),
    ...words('--quiet --strip --no-symlinks --relative-to= --relative-base= --zero --help --version'),
  ],
}));
const READLINK = byTable('readlink', () => ({
  safe: [
    ...words('-f -e -m -n -q -s -v -z --canonicalize --canonicalize-existing --canonicalize-missing'),
    ...words('--no-newline --quiet --silent --verbose --zero --help --version'),
  ],
}));
const PWD = byTable('pwd', () => ({ safe: ['-L', '-P', '--help', '--version'] }));

const SUMS = byTable('checksum', () => ({
  safe: [
    ...words('-b -t -z -l= --binary --text --tag --zero --length= --untagged --base64 --raw -a='),
    ...words('--algorithm= --help --version'),
  ],
  unsafe: {
    '-c': 'reads and opens every file named inside the checksum list',
    '--check': 'reads and opens every file named inside the checksum list',
  },
}));

const SEQ = byTable('seq', () => ({
  safe: ['-f=', '-s=', '-w', '--format=', '--separator=', '--equal-width', '--help', '--version'],
  // Negative numbers are operands (`seq -5 5`).
  numeric: true,
}));

/** `printf` is read-only except `-v NAME` (assigns a variable; an array subscript there is evaluated). */
const PRINTF: Validator = (args) => {
  if (args[0]?.text.startsWith('-v'))
    return no('printf -v assigns a shell variable (subscripts are evaluated)');
  return yes('printf only prints');
};

const TEST_ARITH = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

/**
 * `test`/`[`: read-only, except `-v NAME` (bash evaluates an array subscript in NAME). `[[` also
 * evaluates arithmetic operands of `-eq` … as expressions, so those need plain integers there.
 */
function testValidator(name: string, arithmeticEvaluated: boolean): Validator {
  return (args) => {
    for (let i = 0; i < args.length; i++) {
      const t = (args[i] as Word).text;
      if (t === '-v' || t === '-R')
        return no(`${name} ${t} evaluates an array subscript in the variable name`);
      if (arithmeticEvaluated && TEST_ARITH.has(t)) {
        const around = [args[i - 1], args[i + 1]];
        if (
          around.some((w) => w && !/^-?\d+$/.test(w.text) && !/^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(w.text))
        )
          return no(`${name} ${t} evaluates its operands as arithmetic expressions`);
      }
    }
    return yes(`${name} only tests a condition`);
  };
}

/** Validators by program name. */
/** tee into devices only (`tee /dev/null`, `tee /dev/stderr`) writes no file, like a redirect there. */
const TEE_DEVICE = /^\/dev\/(null|stdout|stderr|tty)$/;
const TEE = byTable(
  'tee',
  () => ({ safe: [...words('-a -i -p --append --ignore-interrupts --output-error=? --help --version')] }),
  {
    check: (items) => {
      for (const it of items)
        if (
          (it.kind === 'operand' || it.kind === 'dynamic') &&
          (it.word.dynamic || !TEE_DEVICE.test(it.word.text))
        )
          return no('tee writes the files it names');
      return undefined;
    },
  },
);

export const coreUtilValidators: Record<string, Validator> = {
  tee: TEE,
  ls: LS,
  dir: LS,
  vdir: LS,
  cat: CAT,
  head: HEAD,
  tail: TAIL,
  wc: WC,
  nl: NL,
  od: OD,
  hexdump: HEXDUMP,
  base64: BASE64,
  base32: BASE64,
  strings: STRINGS,
  diff: DIFF,
  cmp: CMP,
  file: FILE,
  stat: STAT,
  du: DU,
  df: DF,
  tree: TREE,
  basename: BASENAME,
  dirname: DIRNAME,
  realpath: REALPATH,
  readlink: READLINK,
  pwd: PWD,
  md5sum: SUMS,
  sha1sum: SUMS,
  sha224sum: SUMS,
  sha256sum: SUMS,
  sha384sum: SUMS,
  sha512sum: SUMS,
  b2sum: SUMS,
  cksum: SUMS,
  sum: byTable('sum', () => ({ safe: ['-r', '-s', '--sysv', '--help', '--version'] })),
  seq: SEQ,
  echo: anyArgs('echo only prints its arguments'),
  printf: PRINTF,
  true: anyArgs('true does nothing'),
  false: anyArgs('false does nothing'),
  ':': anyArgs(': does nothing'),
  test: testValidator('test', false),
  '[': testValidator('[', false),
  '[[': testValidator('[[', true),
  sleep: byTable('sleep', () => ({ safe: ['--help', '--version'] })),
};
