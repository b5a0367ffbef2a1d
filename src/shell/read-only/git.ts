/**
 * Read-only validation of git: global options, then a per-sub-command table.
 *
 * Sequence: global options (`-C dir` fine — its path is checked as a cwd effect; `-c`,
 * `--config-env`, `--exec-path=…`, `--git-dir`, `--work-tree`, `--super-prefix`, `-p/--paginate`
 * disqualify) → sub-command → its option table (`--output=`, `--ext-diff`, `-O` pager …
 * disqualify) → sub-command specific rules (branch/tag only list, config only reads, stash only
 * lists/shows, remote only lists …). Aliases and unknown sub-commands are not read-only.
 *
 * Source: docs/security-round-2.md (read-only git list, git global options, --output),
 * corpus classes git-config-exec, git-output-write, pager-escape, benign-git.
 */
import type { SimpleCommand, Word } from '../types.js';
import {
  GIT_BLAME_SAFE,
  GIT_DIFF_CMD_SAFE,
  GIT_DIFF_SAFE,
  GIT_DIFF_UNSAFE,
  GIT_GREP_SAFE,
  GIT_LS_FILES_SAFE,
  GIT_REV_SAFE,
  GIT_STATUS_SAFE,
} from './git-options.js';
import { type ArgItem, hasOption, type OptionTable, operandsOf, words } from './options.js';
import { byTable, no, type ReadOnlyVerdict, type Validator, yes } from './verdict.js';
import { getOwn } from '../../core/get-own.js';

/** Global options of git, split from the sub-command (exact spellings; git does not abbreviate these). */
export interface GitGlobal {
  /** `-C` directories in order. */
  chdirs: Word[];
  /** First disqualifying global option, with reason. */
  unsafe?: string;
  /** Unknown global option. */
  unknown?: string;
  /** Index of the sub-command word in `args`, or -1. */
  subIndex: number;
}

const GLOBAL_FLAGS = new Set([
  ...words('--no-pager -P --no-replace-objects --no-lazy-fetch --no-optional-locks --no-advice --bare'),
  ...words('--literal-pathspecs --glob-pathspecs --noglob-pathspecs --icase-pathspecs --html-path'),
  ...words('--man-path --info-path --version -v --help -h'),
]);

const GLOBAL_UNSAFE: Record<string, string> = {
  '-c': 'sets a config value for this call (config values name programs git runs)',
  '--config-env': 'sets a config value from the environment (config values name programs git runs)',
  '--git-dir': 'points git at another repository (its config and hooks)',
  '--work-tree': 'points git at another work tree',
  '--super-prefix': 'internal option',
  '-p': 'runs the pager program',
  '--paginate': 'runs the pager program',
};

/** Splits git's global options from the sub-command. */
export function splitGitGlobal(args: readonly Word[]): GitGlobal {
  const out: GitGlobal = { chdirs: [], subIndex: -1 };
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (!t.startsWith('-')) {
      out.subIndex = i;
      return out;
    }
    if (t === '-C') {
      const d = args[++i];
      if (d) out.chdirs.push(d);
      continue;
    }
    if (GLOBAL_FLAGS.has(t)) continue;
    if (t === '--exec-path') continue; // prints the exec path
    if (t.startsWith('--exec-path=')) {
      out.unsafe ??= '--exec-path=DIR runs git sub-commands from another directory';
      continue;
    }
    if (t.startsWith('--namespace=') || t.startsWith('--list-cmds=') || t.startsWith('--attr-source='))
      continue;
    if (t === '--namespace' || t === '--attr-source') {
      i++;
      continue;
    }
    const eq = t.indexOf('=');
    const name = eq < 0 ? t : t.slice(0, eq);
    const c = name.startsWith('-c') && !name.startsWith('--') ? '-c' : name;
    const why = getOwn(GLOBAL_UNSAFE, c);
    if (why) {
      out.unsafe ??= `git ${c}: ${why}`;
      if (
        eq < 0 &&
        (c === '-c' || c === '--git-dir' || c === '--work-tree' || c === '--config-env') &&
        t === c
      )
        i++;
      continue;
    }
    out.unknown ??= t;
  }
  return out;
}

const LOG_TABLE = (): OptionTable => ({
  safe: [...GIT_REV_SAFE, ...GIT_DIFF_SAFE],
  unsafe: GIT_DIFF_UNSAFE,
  numeric: true,
});
const DIFF_TABLE = (): OptionTable => ({
  safe: [...GIT_DIFF_SAFE, ...GIT_DIFF_CMD_SAFE],
  unsafe: GIT_DIFF_UNSAFE,
  numeric: true,
});

function onlyWhen(
  program: string,
  table: OptionTable,
  rule: (items: ArgItem[], cmd: SimpleCommand) => ReadOnlyVerdict | undefined,
): Validator {
  return byTable(program, table, { check: rule });
}

const listing =
  (what: string, listFlags: string[]) =>
  (items: ArgItem[]): ReadOnlyVerdict | undefined => {
    const operands = operandsOf(items);
    if (operands.length > 0 && !hasOption(items, ...listFlags))
      return no(`git ${what} with a name creates or changes a ${what} (use ${listFlags.join('/')} to list)`);
    return undefined;
  };

const BRANCH = onlyWhen(
  'git branch',
  {
    safe: [
      ...words('-a --all -r --remotes -v -vv --verbose -l --list --show-current --contains='),
      ...words('--no-contains= --merged= --no-merged= --points-at= --sort= --format= --color=? --no-color'),
      ...words('--column=? --no-column -i --ignore-case --abbrev= --no-abbrev --omit-empty -q --quiet'),
    ],
    unsafe: {
      '-d': 'deletes a branch',
      '-D': 'deletes a branch',
      '--delete': 'deletes a branch',
      '-m': 'renames a branch',
      '-M': 'renames a branch',
      '--move': 'renames a branch',
      '-c': 'copies a branch',
      '-C': 'copies a branch',
      '--copy': 'copies a branch',
      '-f': 'forces a branch change',
      '--force': 'forces a branch change',
      '-u=': 'sets upstream',
      '--set-upstream-to=': 'sets upstream',
      '--unset-upstream': 'unsets upstream',
      '--edit-description': 'edits the description (runs an editor)',
      '-t': 'sets up tracking',
      '--track=?': 'sets up tracking',
    },
  },
  listing('branch', ['-l', '--list']),
);

const TAG = onlyWhen(
  'git tag',
  {
    safe: [
      ...words('-l --list -n=? --sort= --format= --color=? --column=? --no-column -i --ignore-case'),
      ...words('--contains= --no-contains= --merged= --no-merged= --points-at= --omit-empty'),
    ],
    unsafe: {
      '-a': 'creates an annotated tag',
      '-s': 'creates a signed tag',
      '-u=': 'creates a signed tag',
      '-f': 'replaces a tag',
      '-d': 'deletes a tag',
      '-v': 'verifies a tag (runs gpg)',
      '-m=': 'creates a tag',
      '-F=': 'creates a tag',
      '-e': 'runs an editor',
    },
  },
  listing('tag', ['-l', '--list']),
);

const CONFIG_READ_ACTIONS = [
  ...words('--get --get-all --get-regexp --get-urlmatch --get-color --get-colorbool -l --list'),
];

const CONFIG = onlyWhen(
  'git config',
  {
    safe: [
      ...CONFIG_READ_ACTIONS,
      ...words('--global --system --local --worktree -f= --file= --blob= --show-origin --show-scope'),
      ...words('--name-only -z --null --type= -t= --bool --int --bool-or-int --path --expiry-date'),
      ...words('--default= --includes --no-includes --fixed-value --all --regexp --value= --url='),
    ],
    unsafe: {
      '--add': 'adds a config value',
      '--replace-all': 'replaces config values',
      '--unset': 'removes a config value',
      '--unset-all': 'removes config values',
      '--rename-section': 'renames a config section',
      '--remove-section': 'removes a config section',
      '-e': 'edits the config (runs an editor)',
      '--edit': 'edits the config (runs an editor)',
    },
  },
  (items) => {
    const operands = operandsOf(items).map((w) => w.text);
    const sub = operands[0];
    if (hasOption(items, ...CONFIG_READ_ACTIONS)) return undefined;
    if (sub === 'list') return undefined;
    if (sub === 'get') return operands.length <= 3 ? undefined : no('git config get with extra operands');
    if (operands.length === 1 && sub !== undefined && sub.includes('.')) return undefined; // `git config key` reads
    return no('git config without a read action sets or edits a value');
  },
);

const STATUS = byTable('git status', () => ({ safe: GIT_STATUS_SAFE }));
const LOG = byTable('git log', LOG_TABLE);
const DIFF = byTable('git diff', DIFF_TABLE);
const BLAME = byTable('git blame', () => ({ safe: GIT_BLAME_SAFE, unsafe: GIT_DIFF_UNSAFE }));
const GREP = byTable('git grep', () => ({ safe: GIT_GREP_SAFE, unsafe: GIT_DIFF_UNSAFE, numeric: true }));
const LS_FILES = byTable('git ls-files', () => ({ safe: GIT_LS_FILES_SAFE }));
const LS_TREE = byTable('git ls-tree', () => ({
  safe: [
    ...words('-d -r -t -l --long -z --name-only --name-status --object-only --full-name --full-tree'),
    ...words('--abbrev=? --format='),
  ],
}));
const DESCRIBE = byTable('git describe', () => ({
  safe: [
    ...words('--tags --all --abbrev= --long --always --dirty=? --broken=? --exact-match --candidates='),
    ...words('--match= --exclude= --first-parent --contains --debug'),
  ],
}));
const SHORTLOG = byTable('git shortlog', () => ({
  safe: [...GIT_REV_SAFE, ...words('-n --numbered -s --summary -e --email -c --committer -w=? --group=')],
  numeric: true,
}));
const CHECK_IGNORE = byTable('git check-ignore', () => ({
  safe: ['-q', '--quiet', '-v', '--verbose', '--stdin', '-z', '-n', '--non-matching', '--no-index'],
}));
const CHECK_ATTR = byTable('git check-attr', () => ({
  safe: ['-a', '--all', '--cached', '--stdin', '-z', '--source='],
}));
const CAT_FILE = byTable('git cat-file', () => ({
  safe: [
    ...words('-t -s -e -p --batch=? --batch-check=? --batch-command=? --batch-all-objects --buffer'),
    ...words('--follow-symlinks --unordered --textconv --filters --path= --allow-unknown-type --mailmap'),
    ...words('--use-mailmap --no-mailmap -Z -z'),
  ],
}));
const MERGE_BASE = byTable('git merge-base', () => ({
  safe: ['-a', '--all', '--octopus', '--independent', '--is-ancestor', '--fork-point'],
}));
const NAME_REV = byTable('git name-rev', () => ({
  safe: [...words('--tags --refs= --exclude= --all --annotate-stdin --name-only --no-undefined --always')],
}));
const FOR_EACH_REF = byTable('git for-each-ref', () => ({
  safe: [
    ...words('--count= --sort= --format= --color=? --shell -s --perl -p --python --tcl --points-at='),
    ...words('--merged=? --no-merged=? --contains=? --no-contains=? --ignore-case --omit-empty --exclude='),
    ...words('--start-after= --stdin'),
  ],
}));
const SHOW_REF = byTable('git show-ref', () => ({
  safe: [
    ...words('--head --branches --heads --tags -d --dereference -s --hash=? --abbrev=? --verify --exists'),
    ...words('-q --quiet'),
  ],
}));
const SYMBOLIC_REF = byTable(
  'git symbolic-ref',
  () => ({
    safe: ['-q', '--quiet', '--short', '--no-recurse', '--recurse'],
    unsafe: { '-d': 'deletes a symbolic ref', '--delete': 'deletes a symbolic ref', '-m=': 'updates a ref' },
  }),
  { maxOperands: 1 },
);
const HASH_OBJECT = byTable('git hash-object', () => ({
  safe: ['-t=', '--stdin', '--stdin-paths', '--path=', '--no-filters', '--literally'],
  unsafe: { '-w': 'writes the object into the object database' },
}));
const REV_PARSE: Validator = () => yes('git rev-parse only prints repository facts');

function sub2(name: string, allowed: Record<string, Validator>, bare?: Validator): Validator {
  return (args, cmd) => {
    const first = args[0];
    if (!first || first.text.startsWith('-')) {
      return bare ? bare(args, cmd) : no(`git ${name} without a read-only sub-command`);
    }
    const v = allowed[first.text];
    if (!v) return no(`git ${name} ${first.text} is not known to be read-only`);
    return v(args.slice(1), cmd);
  };
}

const REMOTE: Validator = (args) => {
  const t = args.map((w) => w.text);
  if (t.length === 0 || (t.length === 1 && (t[0] === '-v' || t[0] === '--verbose')))
    return yes('git remote lists remotes');
  if (t[0] === 'get-url' && t.slice(1).every((x) => !x.startsWith('-') || x === '--push' || x === '--all'))
    return yes('git remote get-url prints a URL');
  if (t[0] === 'show' && t[1] === '-n') return yes('git remote show -n reads local config only');
  return no(`git remote ${t[0] ?? ''} changes remotes or contacts the network`);
};

const STASH = sub2('stash', { list: LOG, show: DIFF });
const NOTES = sub2('notes', {
  list: byTable('git notes list', () => ({ safe: [] })),
  show: byTable('git notes show', () => ({ safe: [] })),
});
const WORKTREE = sub2('worktree', {
  list: byTable('git worktree list', () => ({ safe: ['--porcelain', '-v', '--verbose', '-z', '--expire='] })),
});
const SUBMODULE = sub2('submodule', {
  status: byTable('git submodule status', () => ({ safe: ['--cached', '--recursive', '-q', '--quiet'] })),
});
const REFLOG = sub2('reflog', { show: LOG, exists: byTable('git reflog exists', () => ({ safe: [] })) }, LOG);

const HELP = byTable('git help', () => ({
  safe: [
    ...words('-a --all -g --guides -c --config --verbose --no-external-commands --no-aliases -i --info -m'),
    ...words('--man --user-interfaces --developer-interfaces'),
  ],
  unsafe: { '-w': 'opens a web browser', '--web': 'opens a web browser' },
}));

/** Read-only sub-commands of git. */
const GIT_SUBCOMMANDS: Record<string, Validator> = {
  status: STATUS,
  log: LOG,
  whatchanged: LOG,
  'rev-list': LOG,
  show: LOG,
  cherry: byTable('git cherry', () => ({ safe: ['-v', '--abbrev=?'] })),
  'show-branch': byTable('git show-branch', () => ({
    safe: [
      ...words('-a --all -r --remotes --topo-order --date-order --current --sparse --more= --list'),
      ...words('--merge-base --independent --no-name --sha1-name --topics --color=? --no-color'),
    ],
  })),
  diff: DIFF,
  'diff-tree': DIFF,
  'diff-index': DIFF,
  'diff-files': DIFF,
  'range-diff': byTable('git range-diff', () => ({
    safe: [...GIT_DIFF_SAFE, '--creation-factor=', '--no-dual-color', '--left-only', '--right-only'],
    unsafe: GIT_DIFF_UNSAFE,
  })),
  blame: BLAME,
  annotate: BLAME,
  grep: GREP,
  branch: BRANCH,
  tag: TAG,
  remote: REMOTE,
  'rev-parse': REV_PARSE,
  'ls-files': LS_FILES,
  'ls-tree': LS_TREE,
  describe: DESCRIBE,
  shortlog: SHORTLOG,
  stash: STASH,
  notes: NOTES,
  worktree: WORKTREE,
  submodule: SUBMODULE,
  reflog: REFLOG,
  'check-ignore': CHECK_IGNORE,
  'check-attr': CHECK_ATTR,
  'check-mailmap': byTable('git check-mailmap', () => ({ safe: ['--stdin'] })),
  'check-ref-format': byTable('git check-ref-format', () => ({
    safe: ['--allow-onelevel', '--no-allow-onelevel', '--refspec-pattern', '--normalize', '--branch'],
  })),
  config: CONFIG,
  'cat-file': CAT_FILE,
  'merge-base': MERGE_BASE,
  'name-rev': NAME_REV,
  'for-each-ref': FOR_EACH_REF,
  'show-ref': SHOW_REF,
  'symbolic-ref': SYMBOLIC_REF,
  'hash-object': HASH_OBJECT,
  'count-objects': byTable('git count-objects', () => ({
    safe: ['-v', '--verbose', '-H', '--human-readable'],
  })),
  var: byTable('git var', () => ({ safe: ['-l'] })),
  version: byTable('git version', () => ({ safe: ['--build-options'] })),
  help: HELP,
};

/** git validator: global options, then the sub-command's rules. */
export const gitValidator: Validator = (args, cmd) => {
  const g = splitGitGlobal(args);
  if (g.unsafe) return no(g.unsafe);
  if (g.unknown) return no(`git global option ${g.unknown} is not known to be read-only`);
  if (g.subIndex < 0) return yes('git without a sub-command prints help or version');
  const subWord = args[g.subIndex] as Word;
  if (subWord.dynamic) return no('git sub-command is an expansion');
  const v = getOwn(GIT_SUBCOMMANDS, subWord.text);
  if (!v) return no(`git ${subWord.text} is not a read-only git sub-command (or is an alias)`);
  return v(args.slice(g.subIndex + 1), cmd);
};
