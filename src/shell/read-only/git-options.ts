import { words } from './options.js';
/**
 * Option lists of git's read-only sub-commands (revision walking, diff output, pretty formats,
 * blame, grep, ls-files …), in the option-table syntax of options.ts. Kept apart from the
 * validator logic (git.ts) because they are long.
 *
 * Unsafe everywhere: `--output=<file>` (writes; docs/security-round-2.md), `--ext-diff`
 * (runs the configured external diff program). Source: git 2.39+ documentation.
 */

/** Options that write or run programs, valid in every diff-producing sub-command. */
export const GIT_DIFF_UNSAFE: Record<string, string> = {
  '--output=': 'writes the output to a file',
  '--ext-diff': 'runs the configured external diff program',
  '--open-files-in-pager=?': 'opens matching files in a pager program',
};

export const GIT_DIFF_SAFE = [
  ...words('-p -u --patch -s --no-patch -U=? --unified= --output-indicator-new= --output-indicator-old='),
  ...words('--output-indicator-context= --raw --patch-with-raw --indent-heuristic --no-indent-heuristic'),
  ...words('--minimal --patience --histogram --anchored= --diff-algorithm= --stat=? --stat-width='),
  ...words('--stat-name-width= --stat-count= --stat-graph-width= --compact-summary --numstat --shortstat'),
  ...words('-X=? --dirstat=? --cumulative --dirstat-by-file=? --summary --patch-with-stat -z --name-only'),
  ...words('--name-status --submodule=? --color=? --no-color --color-moved=? --no-color-moved'),
  ...words('--color-moved-ws= --no-color-moved-ws --word-diff=? --word-diff-regex= --color-words=?'),
  ...words('--renames --no-renames --rename-empty --no-rename-empty --check --ws-error-highlight='),
  ...words('--full-index --binary --abbrev=? --no-abbrev -B=? --break-rewrites=? -M=? --find-renames=?'),
  ...words('-C=? --find-copies=? --find-copies-harder -D --irreversible-delete -l= -S= -G= --find-object='),
  ...words('--pickaxe-all --pickaxe-regex -O= --skip-to= --rotate-to= -R --relative=? --no-relative -a'),
  ...words('--text --ignore-cr-at-eol --ignore-space-at-eol -b --ignore-space-change -w'),
  ...words('--ignore-all-space --ignore-blank-lines -I= --ignore-matching-lines= --inter-hunk-context= -W'),
  ...words('--function-context --exit-code --quiet --no-ext-diff --textconv --no-textconv'),
  ...words('--ignore-submodules=? --src-prefix= --dst-prefix= --no-prefix --default-prefix --line-prefix='),
  ...words('--ita-invisible-in-index --ita-visible-in-index -0 -1 -2 -3 --base --ours --theirs -c --cc'),
  ...words('--combined-all-paths -m --diff-merges= --no-diff-merges --remerge-diff -t -r --root'),
  ...words('--no-commit-id --merge-base --diff-filter='),
];

/** `git diff` / `diff-index` / `diff-files` / `diff-tree` extras. */
export const GIT_DIFF_CMD_SAFE = [
  ...words('--cached --staged --no-index --follow --stdin -v --pretty=? --format= --always'),
];

export const GIT_REV_SAFE = [
  ...words('--all --branches=? --tags=? --remotes=? --glob= --exclude= --exclude-hidden= --reflog'),
  ...words('--alternate-refs --not --merges --no-merges --min-parents= --max-parents= --no-min-parents'),
  ...words('--no-max-parents --first-parent --exclude-first-parent-only --bisect --stdin --cherry-mark'),
  ...words('--cherry-pick --left-only --right-only --cherry --walk-reflogs -g --merge --boundary'),
  ...words('--simplify-by-decoration --full-history --dense --sparse --simplify-merges --ancestry-path=?'),
  ...words('--topo-order --date-order --author-date-order --reverse --no-walk=? --do-walk --pretty=?'),
  ...words('--format= --abbrev-commit --no-abbrev-commit --oneline --encoding= --expand-tabs=?'),
  ...words('--no-expand-tabs --notes=? --no-notes --show-notes=? --standard-notes --no-standard-notes'),
  ...words('--show-signature --relative-date --date= --parents --children --left-right --graph'),
  ...words('--show-linear-break=? --decorate=? --no-decorate --decorate-refs= --decorate-refs-exclude='),
  ...words('--clear-decorations --source --use-mailmap --mailmap --no-mailmap --no-use-mailmap'),
  ...words('--full-diff --log-size --follow --since= --after= --until= --before= --since-as-filter='),
  ...words('--max-age= --min-age= --author= --committer= --grep-reflog= --grep= --all-match --invert-grep'),
  ...words('--regexp-ignore-case -i --basic-regexp --extended-regexp -E --fixed-strings -F --perl-regexp'),
  ...words('-P --remove-empty --skip= --max-count= -n= --count --show-pulls --single-worktree'),
  ...words('--ignore-missing --in-commit-order -L= --no-follow --objects --objects-edge --no-object-names'),
  ...words('--object-names --timestamp --header --quiet --show-origin --disk-usage=?'),
];

export const GIT_STATUS_SAFE = [
  ...words('-s --short -b --branch --show-stash --porcelain=? --long -v --verbose -u=?'),
  ...words('--untracked-files=? --ignore-submodules=? --ignored=? -z --column=? --no-column'),
  ...words('--ahead-behind --no-ahead-behind --renames --no-renames --find-renames=?'),
];

export const GIT_BLAME_SAFE = [
  ...words('-b --root --show-stats -L= -l -t -S= --reverse= --first-parent -p --porcelain'),
  ...words('--line-porcelain --incremental --encoding= --contents= --date= --progress --no-progress -M=?'),
  ...words('-C=? --ignore-rev= --ignore-revs-file= --color-lines --color-by-age --minimal -h -c'),
  ...words('--score-debug -f --show-name -n --show-number -s -e --show-email -w --abbrev=? --since='),
];

export const GIT_GREP_SAFE = [
  ...words('--cached --untracked --no-index --no-exclude-standard --exclude-standard --recurse-submodules'),
  ...words('-a --text --textconv --no-textconv -i --ignore-case -I --max-depth= -r --recursive'),
  ...words('--no-recursive -w --word-regexp -v --invert-match -h -H --full-name -E --extended-regexp -G'),
  ...words('--basic-regexp -P --perl-regexp -F --fixed-strings -n --line-number --column -l'),
  ...words('--files-with-matches --name-only -L --files-without-match -z --null -o --only-matching -c'),
  ...words('--count --color=? --no-color --break --heading -p --show-function -A= --after-context= -B='),
  ...words('--before-context= -C= --context= -W --function-context -m= --max-count= --threads= -f= -e='),
  ...words('--and --or --not --all-match -q --quiet'),
];

export const GIT_LS_FILES_SAFE = [
  ...words('-c --cached -d --deleted -m --modified -o --others -i --ignored -s --stage -u --unmerged -k'),
  ...words('--killed -z -t -v -f --directory --no-empty-directory --eol --deduplicate -x= --exclude= -X='),
  ...words('--exclude-from= --exclude-per-directory= --exclude-standard --error-unmatch --with-tree='),
  ...words('--full-name --recurse-submodules --abbrev=? --debug --format= --sparse'),
];
