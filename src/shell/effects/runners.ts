/**
 * Runners: programs and package-manager sub-commands that run a command named on the command line
 * (a package binary, a project script, or any program on PATH), and the `create` sub-commands that
 * download a `create-*` package and run it (docs/shell-analysis.md "Programs that run, load or
 * write").
 *
 * Each is an `exec` effect naming what runs. It is known when the sub-command's words name it (a
 * rule on `poetry run pytest` names pytest), and unknown — so the call asks even under an allow rule
 * for the program, and (with the unknown write that goes with it) in bypassPermissions — when what
 * runs is not in the words: a shell string
 * (`npx -c`, `npm exec --call`, `nix-shell --run`), a program picked by `--package`, a computed
 * word, no command at all (`npm explore pkg` opens a shell), or a shell or interpreter handed
 * inline code (`poetry run sh -c '…'`, `bundle exec ruby -e '…'`).
 *
 * Source: the manuals of each program (npm-exec(1), npm-explore(1), npm-init(1), pnpm, yarn, bun,
 * uv, pipx, poetry, pipenv, pdm, hatch, rye, conda, bundle-exec(1), composer, mise, nix-shell(1)).
 */
import type { Word } from '../types.js';
import type { EffectHandler } from './handler.js';
import { summary } from './interpreters.js';
import { pathOperandEffects } from './project-code.js';
import type { EffectSink } from './sink.js';

/**
 * One runner sub-command. `valueOptions`: the runner's own options that take the next word as
 * their value (`conda run -n base …`); `picks`: options that hand it a shell string or pick the
 * program apart from the words; `afterDoubleDash`: the command is only the words after `--`
 * (without them the runner opens a shell); `skip`: words between the sub-command and its options
 * (`uv tool run`).
 */
export interface RunnerRow {
  program: string;
  sub: string;
  reason: string;
  valueOptions?: readonly string[];
  picks?: RegExp;
  afterDoubleDash?: boolean;
  skip?: string;
}

/** npm-style runner options: a shell string (`-c`, `--call`) or a binary picked by `--package`. */
const NPM_PICKS = /^(?:-c|--call(?:=|$)|--shell-auto-fallback|-p|--package(?:=|$))/;
/** For runners without such options. */
const NONE = /(?!)/;

/** One row per sub-command, each with its reason. */
export const RUNNER_SUBCOMMANDS: readonly RunnerRow[] = [
  {
    program: 'npm',
    sub: 'exec',
    reason: 'runs a package binary, downloading it if needed, or any command on PATH',
  },
  {
    program: 'npm',
    sub: 'x',
    reason: 'runs a package binary, downloading it if needed, or any command on PATH',
  },
  {
    program: 'npm',
    sub: 'explore',
    reason: 'runs a command inside an installed package (a shell when none is given)',
    afterDoubleDash: true,
  },
  { program: 'pnpm', sub: 'exec', reason: 'runs a command in the project environment' },
  { program: 'pnpm', sub: 'dlx', reason: 'downloads a package and runs its binary' },
  { program: 'yarn', sub: 'exec', reason: 'runs a command in the project environment' },
  { program: 'yarn', sub: 'dlx', reason: 'downloads a package and runs its binary' },
  { program: 'bun', sub: 'x', reason: 'runs a package binary, downloading it if needed' },
  { program: 'uv', sub: 'run', reason: 'runs a command or script in the project environment' },
  { program: 'uv', sub: 'tool', reason: 'uv tool run downloads a tool and runs it', skip: 'run' },
  { program: 'pipx', sub: 'run', reason: 'downloads a package and runs its application' },
  {
    program: 'cargo',
    sub: 'install',
    reason: 'builds a crate (its build scripts run) and installs its binaries',
  },
  { program: 'poetry', sub: 'run', reason: 'runs a command in the project virtual environment' },
  { program: 'pipenv', sub: 'run', reason: 'runs a command or a Pipfile script in the virtual environment' },
  {
    program: 'pdm',
    sub: 'run',
    reason: 'runs a command or a pyproject.toml script',
    valueOptions: ['-p', '--project', '-g'],
    picks: NONE,
  },
  {
    program: 'hatch',
    sub: 'run',
    reason: 'runs a command or a script in a project environment',
    picks: NONE,
  },
  {
    program: 'rye',
    sub: 'run',
    reason: 'runs a command or a script in the project environment',
    picks: NONE,
  },
  {
    program: 'conda',
    sub: 'run',
    reason: 'runs a command in a conda environment',
    valueOptions: ['-n', '--name', '-p', '--prefix', '--cwd'],
    picks: NONE,
  },
  {
    program: 'mamba',
    sub: 'run',
    reason: 'runs a command in a conda environment',
    valueOptions: ['-n', '--name', '-p', '--prefix', '--cwd'],
    picks: NONE,
  },
  {
    program: 'micromamba',
    sub: 'run',
    reason: 'runs a command in a conda environment',
    valueOptions: ['-n', '--name', '-p', '--prefix', '--cwd'],
    picks: NONE,
  },
  { program: 'bundle', sub: 'exec', reason: "runs a command with the bundle's gems loaded", picks: NONE },
  { program: 'composer', sub: 'exec', reason: 'runs a vendored binary', picks: NONE },
  {
    program: 'mise',
    sub: 'exec',
    reason: 'runs a command with the named tools (a shell string with -c)',
    afterDoubleDash: true,
    picks: /^(?:-c|--command(?:=|$))/,
  },
  {
    program: 'mise',
    sub: 'x',
    reason: 'runs a command with the named tools (a shell string with -c)',
    afterDoubleDash: true,
    picks: /^(?:-c|--command(?:=|$))/,
  },
];

/** Programs that are runners themselves: [program, reason]. */
export const RUNNER_PROGRAMS: ReadonlyArray<readonly [string, string]> = [
  ['npx', 'runs a package binary, downloading it if needed, or any command on PATH'],
  ['pnpx', 'downloads a package and runs its binary'],
  ['bunx', 'runs a package binary, downloading it if needed'],
  ['uvx', 'downloads a tool and runs it'],
];

/** `create` sub-commands: download the package `create-NAME` (npm's naming rule) and run its binary. */
export const CREATE_SUBCOMMANDS: ReadonlyArray<readonly [string, string]> = [
  ['npm', 'init'],
  ['npm', 'create'],
  ['npm', 'innit'],
  ['yarn', 'create'],
  ['pnpm', 'create'],
  ['bun', 'create'],
];

/** Install sub-commands that run the installed packages' build scripts (setup.py, lifecycle scripts). */
const BUILD_SCRIPT_INSTALLS: ReadonlyArray<readonly [string, string]> = [
  ['pip', 'install'],
  ['npm', 'install'],
  ['npm', 'i'],
  ['npm', 'ci'],
  ['npm', 'add'],
  ['pnpm', 'install'],
  ['pnpm', 'add'],
  ['yarn', 'install'],
  ['yarn', 'add'],
  ['bun', 'install'],
  ['bun', 'add'],
  ['gem', 'install'],
];

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'busybox']);
const INTERPRETERS = new Set([
  ...['python', 'python2', 'python3', 'node', 'nodejs', 'deno', 'bun', 'perl', 'ruby', 'php'],
  ...['lua', 'luajit', 'Rscript', 'pwsh', 'powershell', 'tclsh', 'osascript', 'irb', 'jruby'],
]);

/** True when `words` run a shell or an interpreter with inline code (`sh -c …`, `ruby -e …`). */
function inlineCode(words: readonly Word[]): boolean {
  const name = (words[0]?.text ?? '').replace(/^.*\//, '').replace(/\d+(\.\d+)*$/, '');
  if (name === 'eval') return true;
  const rest = words.slice(1).map((w) => w.text);
  if (SHELLS.has(name) || SHELLS.has(words[0]?.text ?? ''))
    return rest.some((t) => /^-[a-zA-Z]*c/.test(t) || /^[+-]O$/.test(t));
  if (INTERPRETERS.has(name) || INTERPRETERS.has(words[0]?.text ?? ''))
    return rest.some((t) =>
      /^-[a-zA-Z]*[ceEpr](=|$)|^--(eval|print|command|require|import)(=|$)|^-Command$/i.test(t),
    );
  return false;
}

/**
 * The command a runner runs (after its own options), as written, and whether the sub-command's
 * words name it (see the module comment).
 */
export function runnerTarget(
  args: readonly Word[],
  from: number,
  row?: Pick<RunnerRow, 'valueOptions' | 'picks' | 'afterDoubleDash'>,
): { text: string; known: boolean } {
  const rest = args.slice(from);
  const values = new Set(row?.valueOptions ?? []);
  let split = rest.length;
  let start = rest.length;
  if (row?.afterDoubleDash) {
    const dd = rest.findIndex((w) => w.text === '--');
    if (dd >= 0) [split, start] = [dd, dd + 1];
  } else {
    for (let i = 0; i < rest.length; i++) {
      const t = (rest[i] as Word).text;
      if (t === '--') {
        [split, start] = [i, i + 1];
        break;
      }
      if (!t.startsWith('-') || t === '-') {
        [split, start] = [i, i];
        break;
      }
      if (values.has(t)) i++;
    }
  }
  const head = rest.slice(0, split);
  const words = rest.slice(start);
  const picks = row?.picks ?? NPM_PICKS;
  const known =
    words.length > 0 &&
    !words[0]?.dynamic &&
    !head.some((w) => w.dynamic || picks.test(w.text)) &&
    !inlineCode(words);
  const fallback = row?.afterDoubleDash ? '(a shell)' : '(a package binary)';
  return { text: summary(words.map((w) => w.raw).join(' ')) || fallback, known };
}

/**
 * The exec effect of a runner. When what runs is not in the words, its writes are not either: an
 * unknown write too, so bypassPermissions asks as it does for `sh -c` text it cannot see into.
 */
function runnerExec(
  runner: string,
  t: { text: string; known: boolean },
  reason: string,
  sink: EffectSink,
): void {
  sink.other('exec', `${runner} ${t.text}`, t.known ? 'known' : 'unknown', 'argument', `${runner} ${reason}`);
  if (!t.known)
    sink.other(
      'write',
      `${runner} ${t.text} (files it writes)`,
      'unknown',
      'argument',
      `${runner}: the files the command writes are not known`,
    );
}

/** The package `npm init NAME` runs: create-NAME, @scope/create, @scope/create-NAME (npm-init(1)). */
function createPackage(name: string): string {
  const scoped = /^(@[^/@]+)(?:\/([^@]+))?(@.*)?$/.exec(name);
  if (scoped) return `${scoped[1]}/create${scoped[2] ? `-${scoped[2]}` : ''}${scoped[3] ?? ''}`;
  return `create-${name}`;
}

/** The exec of a runner or create sub-command; a known exec for installs that run build scripts. */
export function runnerEffects(
  pm: string,
  sub: string | undefined,
  args: readonly Word[],
  sink: EffectSink,
): void {
  if (!sub) return;
  const at = args.findIndex((w) => w.text === sub);
  const row = RUNNER_SUBCOMMANDS.find((r) => r.program === pm && r.sub === sub);
  if (row && !(row.skip && args[at + 1]?.text !== row.skip)) {
    const t = runnerTarget(args, at + 1 + (row.skip ? 1 : 0), row);
    runnerExec(`${pm} ${sub}`, t, row.reason, sink);
    return;
  }
  if (CREATE_SUBCOMMANDS.some(([p, s]) => p === pm && s === sub)) {
    const name = args.slice(at + 1).find((w) => !w.text.startsWith('-'));
    if (!name) return; // `npm init -y` writes package.json and runs nothing
    const what = name.dynamic ? name.raw : createPackage(name.text);
    sink.other(
      'exec',
      `${pm} ${sub} ${what}`,
      name.dynamic ? 'unknown' : 'known',
      'argument',
      `${pm} ${sub} downloads the package ${what} and runs its binary`,
    );
    return;
  }
  if (BUILD_SCRIPT_INSTALLS.some(([p, s]) => p === pm && s === sub))
    sink.other(
      'exec',
      `${pm} ${sub} (package build and install scripts)`,
      'known',
      'argument',
      `${pm} ${sub} runs the build or install scripts of the packages`,
    );
}

const runnerProgram =
  (name: string): EffectHandler =>
  (args, sink) => {
    const row = RUNNER_PROGRAMS.find(([p]) => p === name);
    const t = runnerTarget(args, 0);
    if (row) runnerExec(name, t, row[1], sink);
    pathOperandEffects(args, sink, name);
    sink.other(
      'network',
      `${name} package registry`,
      'unknown',
      'argument',
      `${name} may download the package it runs`,
    );
  };

/** A program whose runner sub-commands are rows above and whose other sub-commands run project code. */
const runnerSubProgram =
  (name: string): EffectHandler =>
  (args, sink) => {
    const sub = args.find((w) => !w.text.startsWith('-'))?.text;
    runnerEffects(name, sub, args, sink);
    pathOperandEffects(args, sink, name);
  };

/**
 * nix-shell: `--run`/`--command` hand it a shell string (an unknown exec).
 */
const nixShellHandler: EffectHandler = (args, sink) => {
  const i = args.findIndex((w) => w.text === '--run' || w.text === '--command');
  if (i >= 0)
    sink.other(
      'exec',
      `nix-shell ${summary(args[i + 1]?.raw ?? '')}`,
      'unknown',
      'argument',
      'nix-shell --run runs a shell string in the environment',
    );
  pathOperandEffects(args, sink, 'nix-shell');
};

/** Handlers by program name. */
export const runnerHandlers: Record<string, EffectHandler> = {
  npx: runnerProgram('npx'),
  pnpx: runnerProgram('pnpx'),
  bunx: runnerProgram('bunx'),
  uvx: runnerProgram('uvx'),
  pipx: (args, sink) => {
    const sub = args.find((w) => !w.text.startsWith('-'))?.text;
    if (sub === 'run') runnerEffects('pipx', sub, args, sink);
    pathOperandEffects(args, sink, 'pipx');
    if (sub && sub !== 'list')
      sink.other('network', 'pipx package index', 'unknown', 'argument', `pipx ${sub}`);
  },
  'nix-shell': nixShellHandler,
};
for (const p of ['pipenv', 'pdm', 'hatch', 'rye', 'conda', 'mamba', 'micromamba', 'bundle', 'mise'])
  runnerHandlers[p] = runnerSubProgram(p);
