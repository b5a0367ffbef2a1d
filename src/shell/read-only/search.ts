/**
 * Read-only validators for search programs: grep (and egrep/fgrep), rg, find, fd.
 *
 * Source: docs/security-round-2.md (find -exec/-execdir/-ok/-okdir/-delete/
 * -fprint, -fprint0, -fprintf, -fls; rg --pre/--hostname-bin) (rg --search-zip helpers), BL-91 (rg --pre).
 */
import { analyzeFind } from './find.js';
import { byTable, no, type Validator, yes } from './verdict.js';
import { words } from './options.js';

const GREP = byTable('grep', () => ({
  safe: [
    ...'EFGPiyvwxcLloqsbHhnTZzaIrRU'.split('').map((c) => `-${c}`),
    ...words('-e= -f= -m= -A= -B= -C= -d= -D= --extended-regexp --fixed-strings --basic-regexp'),
    ...words('--perl-regexp --regexp= --file= --ignore-case --no-ignore-case --word-regexp --line-regexp'),
    ...words('--null-data --no-messages --invert-match --version --help --max-count= --byte-offset'),
    ...words('--line-number --no-line-number --line-buffered --with-filename --no-filename --label='),
    ...words('--only-matching --quiet --silent --binary-files= --text --directories= --devices='),
    ...words('--recursive --dereference-recursive --include= --exclude= --exclude-from= --exclude-dir='),
    ...words('--files-without-match --files-with-matches --count --initial-tab --null --before-context='),
    ...words('--after-context= --context= --group-separator= --no-group-separator --color=? --colour=?'),
    ...words('--binary'),
  ],
  numeric: true,
}));

const RG_SAFE = [
  ...'abcFLlHIiNnvxUo0PpqsSuwh.V'.split('').map((c) => `-${c}`),
  ...words('-A= -B= -C= -d= -E= -e= -f= -g= -j= -M= -m= -r= -t= -T= --text --byte-offset --count'),
  ...words('--count-matches --column --no-column --crlf --no-crlf --debug --trace --no-config'),
  ...words('--fixed-strings --no-fixed-strings --follow --no-follow --files --files-with-matches'),
  ...words('--files-without-match --glob-case-insensitive --no-glob-case-insensitive --heading'),
  ...words('--no-heading --hidden --no-hidden --ignore-case --ignore-file-case-insensitive'),
  ...words('--no-ignore-file-case-insensitive --invert-match --no-invert-match --json --no-json'),
  ...words('--line-buffered --no-line-buffered --block-buffered --no-block-buffered --line-number'),
  ...words('--no-line-number --line-regexp --max-columns-preview --no-max-columns-preview --mmap'),
  ...words('--no-mmap --multiline --no-multiline --multiline-dotall --no-multiline-dotall --no-ignore'),
  ...words('--ignore --no-ignore-dot --ignore-dot --no-ignore-exclude --ignore-exclude --no-ignore-files'),
  ...words('--ignore-files --no-ignore-global --ignore-global --no-ignore-parent --ignore-parent'),
  ...words('--no-ignore-vcs --ignore-vcs --no-ignore-messages --ignore-messages --no-messages --messages'),
  ...words('--no-require-git --require-git --no-unicode --unicode --null --null-data --one-file-system'),
  ...words('--no-one-file-system --only-matching --passthru --pcre2 --no-pcre2 --no-pcre2-unicode'),
  ...words('--pcre2-version --pretty --quiet --case-sensitive --smart-case --sort-files --no-sort-files'),
  ...words('--stats --no-stats --trim --no-trim --unrestricted --word-regexp --vimgrep --with-filename'),
  ...words('--no-filename --type-list --binary --no-binary --include-zero --no-include-zero'),
  ...words('--auto-hybrid-regex --no-auto-hybrid-regex --no-search-zip --no-context-separator --no-pre'),
  ...words('--help --version --after-context= --before-context= --context= --context-separator='),
  ...words('--field-context-separator= --field-match-separator= --max-depth= --maxdepth= --encoding='),
  ...words('--no-encoding --regexp= --file= --glob= --iglob= --ignore-file= --threads= --max-columns='),
  ...words('--max-count= --max-filesize= --replace= --type= --type-not= --type-add= --type-clear= --sort='),
  ...words('--sortr= --dfa-size-limit= --regex-size-limit= --engine= --generate= --hyperlink-format='),
  ...words('--pre-glob= --colors= --color= --path-separator='),
];

const RG = byTable('rg', () => ({
  safe: RG_SAFE,
  unsafe: {
    '--pre=': 'runs a preprocessor program on every searched file',
    '--hostname-bin=': 'runs a program to find the hostname',
    '-z': 'runs decompression programs on compressed files',
    '--search-zip': 'runs decompression programs on compressed files',
  },
}));

/** find is read-only without -exec/-execdir/-ok/-okdir, -delete, -fprint*, -fls and unknown primaries. */
const findValidator: Validator = (args) => {
  const a = analyzeFind(args);
  const ex = a.execs[0];
  if (ex) return no(`find ${ex.primary} runs a command for every match`);
  if (a.deletes) return no('find -delete removes files');
  if (a.writes.length) return no(`find -fprint, -fprint0, -fprintf, -fls writes ${a.writes[0]?.text}`);
  if (a.filesFrom) return no('find -files0-from reads the start paths from another file');
  if (a.dynamicPrimary) return no('find expression contains an expansion (could become -exec/-delete)');
  if (a.unknown.length) return no(`find primary ${a.unknown[0]} is not known to be read-only`);
  return yes('find only lists files');
};

const FD = byTable('fd', () => ({
  safe: [
    ...'HIusigFalLp01qh V'
      .replace(' ', '')
      .split('')
      .map((c) => `-${c}`),
    ...words('-d= -E= -t= -e= -S= -o= -c= -j= --hidden --no-hidden --no-ignore --ignore --no-ignore-vcs'),
    ...words('--ignore-vcs --no-ignore-parent --no-require-git --unrestricted --case-sensitive'),
    ...words('--ignore-case --glob --regex --fixed-strings --and= --absolute-path --relative-path'),
    ...words('--list-details --follow --no-follow --full-path --print0 --prune --quiet --show-errors'),
    ...words('--strip-cwd-prefix=? --one-file-system --max-depth= --min-depth= --exact-depth= --exclude='),
    ...words('--type= --extension= --size= --changed-within= --changed-before= --newer= --older= --owner='),
    ...words('--format= --ignore-file= --color= --threads= --max-results= --path-separator='),
    ...words('--search-path= --base-directory= --hyperlink=? --help --version'),
  ],
  unsafe: {
    '-x=': 'runs a command for every match',
    '--exec=': 'runs a command for every match',
    '-X=': 'runs a command with all matches',
    '--exec-batch=': 'runs a command with all matches',
  },
}));

export const searchValidators: Record<string, Validator> = {
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: RG,
  find: findValidator,
  fd: FD,
  fdfind: FD,
};
