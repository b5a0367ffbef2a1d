/**
 * Findings the facade adds on top of the security checks (checks/), from the precise program
 * analyses of this room (sed.ts, read-only/awk.ts, effects): execution primitives the regex rules
 * of checks/primitives.ts do not see, interpreter one-liners, git configuration that names
 * programs, and unparseable commands. All `ask`; each names its sub-command.
 *
 * Ids: `EXECUTION_PRIMITIVE` (same id as the check, deduplicated per sub-command by the facade),
 * `INTERPRETER_ONE_LINER`, `GIT_CONFIG_EXEC`, `UNPARSEABLE_COMMAND`, `SUBCOMMAND_CAP`.
 *
 * Source: docs/security-round-2.md (sed e, awk
 * system(), ssh -o ProxyCommand, npm exec … sh, interpreter one-liners) and "Agent and VCS config"
 * (core.hooksPath, aliases with `!`, external diff) brief.
 */
import type { Finding } from '../core/permission-types.js';
import { analyzeAwk } from './read-only/awk.js';
import { analyzeSed } from './sed.js';
import type { SimpleCommand, Word } from './types.js';
import { getOwn } from '../core/get-own.js';

/** git config keys whose value is a program (or pulls in other config) — setting one changes what git runs. */
export const GIT_EXEC_KEYS =
  /^(core\.(hookspath|pager|editor|sshcommand|fsmonitor|askpass|gitproxy|worktree)|alias\..+|diff\.external|diff\..+\.(command|textconv)|difftool\..+\.cmd|mergetool\..+\.cmd|filter\..+\.(clean|smudge|process)|merge\..+\.driver|credential(\..+)?\.helper|sequence\.editor|gpg(\..+)?\.program|pager\..+|uploadpack\.packobjectshook|include\.path|includeif\..+\.path|remote\..+\.(uploadpack|receivepack|proxy)|web\.browser|browser\..+\.(cmd|path)|man\..+\.(cmd|path)|instaweb\..+|protocol\.ext\.allow|receive\.procreceiverefs|init\.templatedir|notes\.rewritemode)$/;

const INTERPRETER_INLINE: Record<string, RegExp> = {
  python: /^-[A-Za-z]*c/,
  node: /^(-[A-Za-z]*[ep]|--eval(=|$)|--print(=|$))/,
  perl: /^-[A-Za-z]*[eE]/,
  ruby: /^-[A-Za-z]*e/,
  php: /^-[A-Za-z]*r/,
  lua: /^-e/,
  Rscript: /^-e/,
  osascript: /^-e/,
  bun: /^(-e|-p|--eval(=|$)|--print(=|$))/,
  deno: /^eval$/,
  tclsh: /^-c$/,
};

function interpreterKey(program: string): string | undefined {
  if (/^python(\d+(\.\d+)?)?$/.test(program) || /^pypy3?$/.test(program)) return 'python';
  if (program === 'nodejs') return 'node';
  if (/^perl(5[\d.]*)?$/.test(program)) return 'perl';
  if (/^ruby[\d.]*$/.test(program)) return 'ruby';
  if (/^php[\d.]*$/.test(program)) return 'php';
  if (/^lua(jit|[\d.]*)$/.test(program)) return 'lua';
  return getOwn(INTERPRETER_INLINE, program) ? program : undefined;
}

function basename(word: Word | undefined): string | undefined {
  if (!word || word.dynamic) return undefined;
  const t = word.text;
  const i = t.lastIndexOf('/');
  return i >= 0 ? t.slice(i + 1) : t;
}

/**
 * An interpreter with no script operand (or `-`) and no module/version/help option reads its
 * program from stdin. Options that take a value are skipped roughly (`-W x`, `-X x`, `-r mod`).
 */
function readsProgramFromStdin(args: readonly Word[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (t === '-') return true;
    if (!t.startsWith('-')) return false;
    if (/^(-m|-V|--version|-v|-h|--help|-i|--interactive|--check|-c)$/.test(t)) return false;
    if (/^(-W|-X|-r|--require|-I|-M|--import|--loader)$/.test(t)) i++;
  }
  return true;
}

/** Options of editors/debuggers/multiplexers that run commands. */
function toolPrimitive(program: string, args: readonly Word[]): string | undefined {
  const t = args.map((w) => w.text);
  switch (program) {
    case 'vi':
    case 'vim':
    case 'nvim':
    case 'view':
    case 'gvim':
      return t.some(
        (x) =>
          x === '-c' ||
          x === '--cmd' ||
          x === '-S' ||
          (x.startsWith('+') && x.length > 1 && !/^\+\d+$/.test(x)),
      )
        ? `${program} runs editor commands (-c/--cmd/+cmd/-S can run shell commands)`
        : undefined;
    case 'ed':
    case 'ex':
      return `${program} reads editing commands that can run shell commands (!)`;
    case 'emacs':
      return t.some((x) => /^(--eval|-l|--load|--script|-batch|--batch|-f|--funcall)/.test(x))
        ? 'emacs evaluates Lisp code'
        : undefined;
    case 'gdb':
      return t.some((x) => /^(-ex|-iex|-x|-ix|--eval-command|--command|-batch)/.test(x))
        ? 'gdb runs debugger commands (which can run shell commands)'
        : undefined;
    case 'tmux':
      return t.some((x) =>
        /^(send-keys|send|run-shell|run|new-session|new|new-window|neww|split-window|splitw|respawn-pane|respawn-window|pipe-pane|if-shell|confirm-before)$/.test(
          x,
        ),
      )
        ? 'tmux runs or types a command in a terminal'
        : undefined;
    case 'screen':
      return t.some((x) => x === 'stuff' || x === '-X') ? 'screen sends commands to a session' : undefined;
    case 'nc':
    case 'ncat':
    case 'netcat':
      return t.some((x) => /^(-e|-c|--exec|--sh-exec|--lua-exec)/.test(x))
        ? `${program} -e/-c runs a program for the connection`
        : undefined;
    case 'socat':
      return t.some((x) => /^(EXEC|SYSTEM):/i.test(x)) ? 'socat EXEC:/SYSTEM: runs a program' : undefined;
    case 'fd':
    case 'fdfind':
      return t.some((x) => /^(-x|-X|--exec|--exec-batch)/.test(x))
        ? 'fd -x/-X runs a command for every match'
        : undefined;
    case 'parallel':
      return 'parallel runs its arguments as shell commands';
    case 'script':
      return t.some((x) => /^(-c|--command)/.test(x)) ? 'script -c runs a shell command' : undefined;
    case 'at':
    case 'batch':
      return `${program} schedules commands to run later`;
    case 'crontab':
      return t.includes('-l') ? undefined : 'crontab installs scheduled commands';
    case 'env':
      return t.some((x) => /^(-[a-zA-Z0-9]*S|--split-string)/.test(x) && !x.startsWith('--unset'))
        ? 'env -S splits a string into a command line'
        : undefined;
    case 'watch':
      return 'watch runs its arguments through sh -c, repeatedly';
    case 'npx':
    case 'bunx':
      return t.some((x) => /^(-c|--call)(=|$)/.test(x)) ? `${program} -c runs a shell command` : undefined;
    default:
      return undefined;
  }
}

/** The key a `git config` invocation sets, if it sets one. */
function gitConfigSetKey(args: readonly Word[]): string | undefined {
  const t = args.map((w) => w.text);
  const sub = t.findIndex((x) => x === 'config');
  if (sub < 0) return undefined;
  const rest = t.slice(sub + 1);
  if (
    rest.some(
      (x) =>
        /^--(get|get-all|get-regexp|get-urlmatch|get-color|get-colorbool|list|unset|unset-all|remove-section|rename-section)$/.test(
          x,
        ) || x === '-l',
    )
  )
    return undefined;
  const valued = new Set(['-f', '--file', '--blob', '--type', '-t', '--default', '--value', '--comment']);
  const ops: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const x = rest[i] as string;
    if (valued.has(x)) {
      i++;
      continue;
    }
    if (x.startsWith('-')) continue;
    ops.push(x);
  }
  if (ops[0] === 'set' || ops[0] === 'add') ops.shift();
  else if (ops[0] === 'get' || ops[0] === 'list' || ops[0] === 'unset') return undefined;
  return ops.length >= 2 || rest.includes('--add') || rest.includes('--replace-all')
    ? ops[0]?.toLowerCase()
    : undefined;
}

/**
 * Extra findings for one sub-command. `index` is its position in the split. Never throws.
 */
export function programFindings(cmd: SimpleCommand, index: number): Finding[] {
  const out: Finding[] = [];
  const add = (id: string, message: string): void => {
    out.push({ id, message, behavior: 'ask', subcommand: index });
  };
  const program = basename(cmd.argv[0]);
  if (!program) return out;
  const args = cmd.argv.slice(1);
  if (program === 'sed') {
    const a = analyzeSed(args);
    if (a.executes.length)
      add('EXECUTION_PRIMITIVE', `The sed script runs a shell command (${a.executes[0]}).`);
    else if (a.scriptFiles.length)
      add(
        'EXECUTION_PRIMITIVE',
        'sed -f runs a script file the analysis cannot see (it may use the e command).',
      );
    else if (a.scriptDynamic)
      add(
        'EXECUTION_PRIMITIVE',
        'The sed script is built from expansions; at run time it may contain the e command.',
      );
  } else if (/^(awk|gawk|mawk|nawk)$/.test(program)) {
    const a = analyzeAwk(args);
    if (a.executes.length) add('EXECUTION_PRIMITIVE', `The awk program runs a command (${a.executes[0]}).`);
    else if (a.programFiles.length)
      add('EXECUTION_PRIMITIVE', 'awk -f runs a program file the analysis cannot see.');
    else if (a.programDynamic)
      add(
        'EXECUTION_PRIMITIVE',
        'The awk program is built from expansions; at run time it may call system().',
      );
    else if (a.unsafeOptions.some((o) => /^(-l|--load)/.test(o)))
      add('EXECUTION_PRIMITIVE', 'awk loads a native extension.');
  } else if (program === 'git') {
    const key = gitConfigSetKey(args);
    if (key && GIT_EXEC_KEYS.test(key))
      add(
        'GIT_CONFIG_EXEC',
        `git config sets ${key}, which changes which programs git runs (hooks, pagers, aliases, diff or filter programs).`,
      );
  } else {
    const key = interpreterKey(program);
    const inline = key ? getOwn(INTERPRETER_INLINE, key) : undefined;
    if (inline) {
      // Options with an attached value (`-MFile::Temp`, `-Wdefault`, `-Iinc`) are not inline-code flags.
      const hit = args.find((w) => !/^-[MmIWXr]./.test(w.text) && inline.test(w.text));
      if (hit)
        add(
          'INTERPRETER_ONE_LINER',
          `${program} ${hit.text} runs inline code whose effects cannot be analysed.`,
        );
      else if (readsProgramFromStdin(args))
        add(
          'INTERPRETER_ONE_LINER',
          `${program} reads its program from standard input (a pipe or heredoc); its effects cannot be analysed.`,
        );
    } else {
      const why = toolPrimitive(program, args);
      if (why) add('EXECUTION_PRIMITIVE', `${why}.`);
    }
  }
  return out;
}
