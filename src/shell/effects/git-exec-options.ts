/**
 * git options that run a program, for vcs.ts: `-c`/`--config-env`/`--exec-path`, the
 * `--upload-pack`/`--receive-pack`/`--exec` family, templates, `rebase -x`, `bisect run`,
 * `submodule foreach`, diff/merge tools, pagers, mailers, editors, and merge strategies that are
 * not built in. Source: git(1) and the sub-commands' manual pages (git-merge(1) "MERGE
 * STRATEGIES").
 */
import { GIT_EXEC_KEYS } from '../analyze-findings.js';
import type { Word } from '../types.js';
import type { EffectSink } from './sink.js';

/**
 * git options that name a program to run, or a template or configuration to load (which can name
 * programs): [scope, option pattern, reason], one row per option; scope is `global` (before the
 * sub-command) or the sub-command. Each is an unknown execution.
 */
/** `-s NAME`, `-sNAME`, `--strategy NAME`, `--strategy=NAME`. */
const STRATEGY = /^(?:-s|--strategy(?:=|$))/;

export const GIT_EXEC_OPTIONS: ReadonlyArray<readonly [string, RegExp, string]> = [
  [
    'global',
    /^-c(?:$|.)/,
    'sets configuration for this run (pagers, ssh commands, fsmonitor, hooks, aliases)',
  ],
  ['global', /^--config-env(?:=|$)/, 'sets configuration from the environment'],
  ['global', /^--exec-path=/, 'runs git helper programs from another directory'],
  [
    'clone',
    /^(?:-u|--upload-pack(?:=|$))/,
    'names the program run on the other side (a local path runs here)',
  ],
  ['clone', /^--template(?:=|$)/, 'copies hooks from a template directory'],
  ['clone', /^(?:-c|--config(?:=|$))/, 'sets configuration of the new repository (hooks path, fsmonitor)'],
  ['init', /^--template(?:=|$)/, 'copies hooks from a template directory'],
  ['fetch', /^--upload-pack(?:=|$)/, 'names the program run on the other side'],
  ['pull', /^--upload-pack(?:=|$)/, 'names the program run on the other side'],
  ['ls-remote', /^--upload-pack(?:=|$)/, 'names the program run on the other side'],
  ['push', /^--receive-pack(?:=|$)|^--exec(?:=|$)/, 'names the program run on the other side'],
  ['archive', /^--exec(?:=|$)/, 'names the program run on the other side'],
  ['rebase', /^(?:-x|--exec(?:=|$))/, 'runs a shell command after each commit'],
  ['bisect', /^run$/, 'runs a command at each step'],
  ['submodule', /^foreach$/, 'runs a shell command in each submodule'],
  ['filter-branch', /^--/, 'runs shell filters on every commit'],
  ['difftool', /^(?:-x|--extcmd(?:=|$)|-t|--tool(?:=|$))/, 'runs a diff program'],
  ['mergetool', /^(?:-t|--tool(?:=|$))/, 'runs a merge program'],
  ['grep', /^(?:-O|--open-files-in-pager)/, 'runs a pager program on the matches'],
  ['send-email', /^--(?:smtp-server|sendmail-cmd)(?:=|$)/, 'runs a program to send mail'],
  ['config', /^--edit$|^-e$/, 'runs an editor'],
  ['instaweb', /^(?:-d|--httpd(?:=|$)|-b|--browser(?:=|$))/, 'runs the named web server or browser'],
  ['web--browse', /^(?:-b|--browser(?:=|$)|-t|--tool(?:=|$)|--cmd(?:=|$))/, 'runs the named browser'],
  ['merge', STRATEGY, 'a strategy that is not built in runs the program git-merge-NAME'],
  ['pull', STRATEGY, 'a strategy that is not built in runs the program git-merge-NAME'],
  ['rebase', STRATEGY, 'a strategy that is not built in runs the program git-merge-NAME'],
  ['cherry-pick', STRATEGY, 'a strategy that is not built in runs the program git-merge-NAME'],
  ['revert', STRATEGY, 'a strategy that is not built in runs the program git-merge-NAME'],
];

/** The merge strategies git carries itself (git-merge(1) "MERGE STRATEGIES"); any other name is a program. */
const BUILTIN_STRATEGIES = new Set(['ort', 'recursive', 'resolve', 'octopus', 'ours', 'subtree']);

/** The strategy an `-s NAME`/`-sNAME`/`--strategy[=]NAME` word names, or undefined when it names none. */
function strategyName(w: Word, next: Word | undefined): Word | undefined {
  if (w.text === '-s' || w.text === '--strategy') return next;
  const v = w.text.startsWith('--strategy=') ? w.text.slice(11) : w.text.slice(2);
  return { ...w, text: v };
}

/** Sub-commands that always run a command (their operands are the command). */
const GIT_ALWAYS_EXEC = new Set(['filter-branch', 'filter-repo', 'mergetool']);

/** Unknown execs for git's program-naming options (see GIT_EXEC_OPTIONS). */
export function gitExecOptions(args: readonly Word[], subIndex: number, sink: EffectSink): void {
  const end = subIndex < 0 ? args.length : subIndex;
  const sub = subIndex < 0 ? undefined : args[subIndex]?.text;
  const hit = (scope: string, w: Word, next: Word | undefined): void => {
    const row = GIT_EXEC_OPTIONS.find(([s, re]) => s === scope && re.test(w.text));
    // `-c KEY=VALUE` / `--config KEY=VALUE`: only keys that name programs (or pull in config) run anything.
    if (row && /^(?:-c|--config)(?:$|=|.)/.test(w.text) && !w.text.startsWith('--config-env')) {
      const kv =
        w.text === '-c' || w.text === '--config'
          ? next
          : { ...w, text: w.text.replace(/^(?:-c|--config=)/, '') };
      const key = kv?.text.split('=')[0]?.toLowerCase() ?? '';
      if (kv && !kv.dynamic && !GIT_EXEC_KEYS.test(key)) return;
    }
    if (row && row[1] === STRATEGY) {
      const name = strategyName(w, next);
      if (name && !name.dynamic && BUILTIN_STRATEGIES.has(name.text)) return;
    }
    if (row)
      sink.other(
        'exec',
        `git ${scope === 'global' ? '' : `${scope} `}${w.text}`,
        'unknown',
        'flag',
        `git ${row[0] === 'global' ? w.text.slice(0, 2) : row[0]}: ${row[2]}`,
      );
  };
  for (let i = 0; i < end; i++) hit('global', args[i] as Word, args[i + 1]);
  if (sub === undefined) return;
  for (let i = subIndex + 1; i < args.length; i++) {
    const w = args[i] as Word;
    if (w.text === '--' && sub !== 'bisect') break;
    hit(sub, w, args[i + 1]);
  }
  if (GIT_ALWAYS_EXEC.has(sub))
    sink.other('exec', `git ${sub}`, 'unknown', 'argument', `git ${sub} runs configured or given programs`);
}
