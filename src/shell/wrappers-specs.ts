/**
 * Option tables of the transparent wrappers (wrappers.ts): which options take a value, which mean
 * "no command follows", how many operands come before the wrapped command. Sources: the GNU
 * coreutils/util-linux/sudo/findutils manuals of each program.
 */

export interface OptionSpec {
  /** Short options that take a value (`-n 5`, `-n5`). */
  shortValue: string;
  /** Short options without a value. */
  shortFlag: string;
  /** Long options that take a value (`--signal=KILL` or `--signal KILL`). */
  longValue: string[];
  longFlag: string[];
  /** Short options whose presence means "no command follows" (query modes): do not strip. */
  noCommand?: string;
  longNoCommand?: string[];
  /** Short options whose value is optional and must be attached (`xargs -i[R]`, `-e[EOF]`, `-l[N]`). */
  shortOptionalAttached?: string;
  /** Number of positional operands before the command (`timeout DURATION`, `flock FILE`, `taskset MASK`). */
  positional?: number;
  /** `NAME=value` words allowed before the command (env, sudo, doas). */
  assignments?: boolean;
  /** Accepts `-N` numeric options (nice -10). */
  numericOption?: boolean;
}

export const SPECS: Record<string, OptionSpec> = {
  timeout: {
    shortValue: 'ks',
    shortFlag: 'v',
    longValue: ['kill-after', 'signal'],
    longFlag: ['foreground', 'preserve-status', 'verbose'],
    positional: 1,
  },
  time: {
    shortValue: 'fo',
    shortFlag: 'pvaq',
    longValue: ['format', 'output'],
    longFlag: ['portability', 'verbose', 'append', 'quiet'],
  },
  nice: { shortValue: 'n', shortFlag: '', longValue: ['adjustment'], longFlag: [], numericOption: true },
  nohup: { shortValue: '', shortFlag: '', longValue: [], longFlag: [] },
  stdbuf: { shortValue: 'ioe', shortFlag: '', longValue: ['input', 'output', 'error'], longFlag: [] },
  ionice: {
    shortValue: 'cnP',
    shortFlag: 'tu',
    longValue: ['class', 'classdata', 'pgid'],
    longFlag: ['ignore'],
    noCommand: 'pPu',
    longNoCommand: ['pid', 'pgid', 'uid'],
  },
  setsid: { shortValue: '', shortFlag: 'cfw', longValue: [], longFlag: ['ctty', 'fork', 'wait'] },
  flock: {
    shortValue: 'wEc',
    shortFlag: 'sexnuoF',
    longValue: ['timeout', 'wait', 'conflict-exit-code', 'command'],
    longFlag: ['shared', 'exclusive', 'nonblock', 'nb', 'unlock', 'close', 'no-fork', 'verbose'],
    positional: 1,
  },
  taskset: {
    shortValue: '',
    shortFlag: 'ac',
    longValue: [],
    longFlag: ['all-tasks', 'cpu-list'],
    noCommand: 'p',
    longNoCommand: ['pid'],
    positional: 1,
  },
  command: { shortValue: '', shortFlag: 'p', longValue: [], longFlag: [], noCommand: 'vV' },
  builtin: { shortValue: '', shortFlag: '', longValue: [], longFlag: [] },
  exec: { shortValue: 'a', shortFlag: 'cl', longValue: [], longFlag: [] },
  noglob: { shortValue: '', shortFlag: '', longValue: [], longFlag: [] },
  busybox: { shortValue: '', shortFlag: '', longValue: [], longFlag: [], noCommand: '' },
  env: {
    shortValue: 'uCS',
    shortFlag: 'i0v',
    longValue: ['unset', 'chdir', 'split-string', 'block-signal', 'default-signal', 'ignore-signal'],
    longFlag: ['ignore-environment', 'null', 'debug', 'list-signal-handling'],
    assignments: true,
  },
  sudo: {
    shortValue: 'CDghpRrtTUu',
    shortFlag: 'AbEHinPSs',
    longValue: [
      'close-from',
      'chdir',
      'group',
      'host',
      'prompt',
      'chroot',
      'role',
      'type',
      'command-timeout',
      'other-user',
      'user',
    ],
    longFlag: [
      'askpass',
      'background',
      'preserve-env',
      'set-home',
      'login',
      'non-interactive',
      'preserve-groups',
      'stdin',
      'shell',
    ],
    noCommand: 'eKklvV',
    longNoCommand: ['edit', 'remove-timestamp', 'reset-timestamp', 'list', 'validate', 'version', 'help'],
    assignments: true,
  },
  doas: {
    shortValue: 'uC',
    shortFlag: 'n',
    longValue: [],
    longFlag: [],
    noCommand: 'sL',
    assignments: false,
  },
  xargs: {
    shortValue: 'adEILnPs',
    shortFlag: '0prtxo',
    longValue: [
      'arg-file',
      'delimiter',
      'eof',
      'replace',
      'max-lines',
      'max-args',
      'max-procs',
      'max-chars',
      'process-slot-var',
    ],
    longFlag: ['null', 'interactive', 'no-run-if-empty', 'verbose', 'exit', 'open-tty'],
    shortOptionalAttached: 'eil',
    noCommand: '',
    longNoCommand: ['show-limits', 'help', 'version'],
  },
  watch: {
    shortValue: 'nq',
    shortFlag: 'dtbegcxpwr',
    longValue: ['interval', 'differences', 'equexit'],
    longFlag: [
      'no-title',
      'beep',
      'errexit',
      'chgexit',
      'color',
      'no-color',
      'exec',
      'precise',
      'no-wrap',
      'no-rerun',
    ],
  },
  chrt: {
    shortValue: 'TPD',
    shortFlag: 'bdfioRav',
    longValue: ['sched-runtime', 'sched-period', 'sched-deadline'],
    longFlag: ['batch', 'deadline', 'fifo', 'idle', 'other', 'rr', 'reset-on-fork', 'all-tasks', 'verbose'],
    noCommand: 'pmh',
    longNoCommand: ['pid', 'max', 'help', 'version'],
    positional: 1,
  },
  runuser: {
    shortValue: 'ugGwcs',
    shortFlag: 'mplfP',
    longValue: [
      'user',
      'group',
      'supp-group',
      'whitelist-environment',
      'command',
      'session-command',
      'shell',
    ],
    longFlag: ['preserve-environment', 'login', 'fast', 'pty'],
    noCommand: 'hV',
    longNoCommand: ['help', 'version'],
  },
  su: {
    shortValue: 'csgGw',
    shortFlag: 'lmpP',
    longValue: ['command', 'session-command', 'shell', 'group', 'supp-group', 'whitelist-environment'],
    longFlag: ['login', 'preserve-environment', 'pty'],
  },
};
