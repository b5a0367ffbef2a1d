/**
 * Read-only inspection commands seen in real agent sessions (docs/shell-analysis.md "Read-only
 * additions"): `ifconfig`/`ip` listings, `lsof` listings, `gh` view/list/status sub-commands,
 * `brew` queries, and `--version`-style queries of common programs. Each validator accepts only
 * the listed forms; anything else (an address change, `gh pr checkout`, `--web`, `brew install`)
 * is not read-only.
 *
 * `gh` read sub-commands contact GitHub's API with the words of the command only; they are treated
 * like Claude Code treats them (read-only), so no network effect is claimed for them.
 *
 * Source: ifconfig(8), ip(8), lsof(8), the gh manual (`gh help pr` …), `brew help`.
 */
import { byTable, no, type Validator, yes } from './verdict.js';
import { words } from './options.js';
import type { Word } from '../types.js';

/** `ifconfig [-a|-s|-l|-v] [INTERFACE]`: listing; any further word configures the interface. */
const ifconfigValidator: Validator = byTable('ifconfig', () => ({ safe: words('-a -s -l -L -v -u -d') }), {
  maxOperands: 1,
});

const IP_OBJECTS = new Set(
  words('addr a address link l route r neigh n neighbour neighbor rule ru maddr m mroute netconf tunnel'),
);
const IP_READS = new Set(words('show list ls get lst sh'));
const IP_OPTIONS =
  /^-(?:4|6|c|color|br|brief|s|stats|statistics|d|details|j|json|p|pretty|o|oneline|h|human|r|resolve|N|numeric)$/;

/** `ip [OPTIONS] OBJECT [show|list|get …]`: a listing; add/del/set/flush/change/replace change state. */
const ipValidator: Validator = (args) => {
  let i = 0;
  while (i < args.length && IP_OPTIONS.test((args[i] as Word).text)) i++;
  const object = args[i];
  if (!object) return no('ip without an object');
  if (!IP_OBJECTS.has(object.text)) return no(`ip ${object.text} is not a known listing`);
  const action = args[i + 1];
  if (action && !IP_READS.has(action.text) && !/^(?:dev|to|from|table|scope)$/.test(action.text))
    return no(`ip ${object.text} ${action.text} changes network state`);
  return yes(`ip ${object.text} only lists`);
};

/**
 * lsof listings (repeat mode included); unknown options are not read-only. `+D DIR`, `+d DIR` and
 * the other `+` forms scan as operands (lsof only lists what is open below DIR).
 */
const lsofValidator: Validator = byTable('lsof', () => ({
  safe: [
    ...words('-a -b -C -h -l -n -N -O -P -R -t -U -V -w -X -x -H -Q -M -E'),
    ...words('-i=? -p= -u= -c= -g=? -d= -D= -F=? -s=? -S=? -T=? -k= -L=? -o=? -r=? -z=? -e= -K=?'),
  ],
}));

/** gh read sub-commands: [group, sub-commands]. */
const GH_READS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['pr', new Set(words('view checks list diff status'))],
  ['issue', new Set(words('view list status'))],
  ['repo', new Set(words('view'))],
  ['run', new Set(words('list view'))],
  ['release', new Set(words('list view'))],
  ['workflow', new Set(words('list view'))],
  ['auth', new Set(words('status'))],
  ['search', new Set(words('prs issues repos code commits'))],
]);
/** gh options that open a browser, download, or write. */
const GH_UNSAFE =
  /^(?:-w|--web|--log-failed-to|-D|--dir|--output|--clobber|--exit-status=?)$|^--(?:web|output)=/;

const ghValidator: Validator = (args) => {
  if (args.length === 1 && /^(?:--version|version|--help|-h)$/.test(args[0]?.text ?? ''))
    return yes('gh only prints its version');
  const group = args[0];
  const sub = args[1];
  if (!group || !sub || group.dynamic || sub.dynamic) return no('gh command not known to be read-only');
  const reads = GH_READS.get(group.text);
  if (!reads?.has(sub.text)) return no(`gh ${group.text} ${sub.text} is not a read-only gh command`);
  const bad = args.slice(2).find((w) => w.dynamic || GH_UNSAFE.test(w.text));
  if (bad) return no(`gh ${group.text} ${sub.text} ${bad.raw} opens a browser, downloads or is computed`);
  return yes(`gh ${group.text} ${sub.text} only shows information`);
};

const BREW_READS = new Set(
  words('info list ls --version -v deps leaves config --prefix --cellar --repository --cache desc outdated'),
);
/** brew queries; install/upgrade/tap/cleanup … change the machine, `home` opens a browser. */
const brewValidator: Validator = (args) => {
  const sub = args[0];
  if (!sub || sub.dynamic || !BREW_READS.has(sub.text))
    return no(`brew ${sub?.text ?? ''} is not a brew query`);
  if (args.some((w) => w.dynamic)) return no('brew with an expansion');
  return yes(`brew ${sub.text} only shows information`);
};

/** `--version` forms of programs without a validator of their own: [program, accepted flags]. */
const VERSION_QUERIES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['kubectl', ['version']],
  ['terraform', ['version', '-version', '--version', '-v']],
  ['helm', ['version']],
  ['psql', ['--version', '-V']],
  ['mysql', ['--version', '-V']],
  ['sqlite3', ['--version', '-version']],
  ['redis-cli', ['--version', '-v']],
  ['php', ['--version', '-v']],
  ['perl', ['--version', '-v']],
  ['lua', ['-v']],
  ['gradle', ['--version', '-v']],
  ['mvn', ['--version', '-v']],
  ['aws', ['--version']],
  ['gcloud', ['--version', 'version']],
  ['az', ['--version', 'version']],
  ['composer', ['--version', '-V']],
  ['swift', ['--version']],
  ['dotnet', ['--version', '--info']],
  ['clang', ['--version']],
  ['cmake', ['--version']],
  ['curl', ['--version', '-V']],
  ['wget', ['--version', '-V']],
  ['openssl', ['version']],
  ['ssh', ['-V']],
  ['tmux', ['-V']],
  ['bash', ['--version']],
  ['zsh', ['--version']],
  ['uv', ['--version', '-V', 'version']],
  ['pipx', ['--version']],
  ['poetry', ['--version', '-V']],
  ['ffmpeg', ['-version']],
  ['code', ['--version', '-v']],
  ['jq', ['--version']],
  ['brew', ['--version']],
  ['ghc', ['--version']],
  ['elixir', ['--version', '-v']],
  ['kotlin', ['-version']],
  ['scala', ['-version']],
];

function versionOnly(program: string, accepted: readonly string[]): Validator {
  return (args) =>
    args.length === 1 && accepted.includes(args[0]?.text ?? '')
      ? yes(`${program} ${args[0]?.text} only prints its version`)
      : no(`${program} is not read-only (only ${accepted.join('/')} is)`);
}

/** The validators of this file, by program. */
export const inspectValidators: Record<string, Validator> = {
  ...Object.fromEntries(VERSION_QUERIES.map(([p, flags]) => [p, versionOnly(p, flags)])),
  ifconfig: ifconfigValidator,
  ip: ipValidator,
  lsof: lsofValidator,
  gh: ghValidator,
  brew: brewValidator,
};
