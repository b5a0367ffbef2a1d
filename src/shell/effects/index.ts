/**
 * Effects of a split command line (docs/architecture.md): for each sub-command, what it reads, writes,
 * deletes, executes and which hosts it contacts, with `cd` tracked across the line.
 *
 * Sequence per sub-command, in execution order: its working directory (tracked cwd; see below) →
 * redirections (resolved in the shell's cwd) → paths named by stripped wrappers (`env -C` changes
 * the cwd of the program only; `time -o`, `flock FILE`, `xargs -a`) → an `exec` effect for the
 * program → env effects of assignments → the program's argument semantics (handlers by program
 * basename; interpreters; unknown programs' path-looking operands become reads) → `cd`/`pushd`/
 * `popd` update the tracked cwd.
 *
 * cd tracking: a `cd` at the top level persists; a `cd` in a subshell, pipeline stage, `$(…)` or
 * nested script (`inSubshell`) does not persist past it. It applies to the commands after it in
 * the same subshell, recognised (at depth 0) by only `;`, `&&`, `||` and blanks between them in the
 * source; any other later subshell command gets an unknown cwd until a top-level command runs. `cd -`, `cd "$X"` and `popd` past the stack
 * make the cwd unknown; with an unknown cwd, relative paths become `unknown` effects. After
 * `cd X || …` the `||` branch runs in the old cwd.
 *
 * Decision (asked to decide): a program the analysis does not model gets an `exec` effect
 * and its path-looking operands (`a/b`, `./x`, `~/x`, `--opt=/p`) as `known` reads, so path
 * constraints and Read deny rules apply; a write is claimed only for the value of an
 * output-looking option (`-o`, `--out*`) or a protected file name (project-code.ts), otherwise an
 * allow rule for that program is what grants its behaviour. Programs that run project code
 * (`npm test`, `go build`, `npx tsc`, `make`, `docker`) get the same path fallback. A program named by an expansion gets `unknown` writes
 * for its path-looking operands.
 */
import type { Effect } from '../../core/effects.js';
import type { GitRepositoryInfo } from '../../core/permission-types.js';
import { fsPathResolver } from '../../core/paths.js';
import { budgetExpired } from '../budget.js';
import type { AnalyzeOptions, SimpleCommand, Word } from '../types.js';
import { archiveHandlers } from './archives.js';
import { dbClientHandlers } from './db-clients.js';
import { envAssignmentEffects } from './env-effects.js';
import { execHandlers, unknownProgramEffects } from './exec.js';
import { interpreterEffects } from './interpreters.js';
import { fileHandlers } from './files.js';
import type { EffectHandler } from './handler.js';
import { networkHandlers } from './network.js';
import { remoteHandlers } from './remote.js';
import { readerHandlers } from './readers.js';
import { redirectEffects } from './redirects.js';
import { type EffectEnv, EffectSink } from './sink.js';
import { bindLoopVariables, findLoops } from './loop-vars.js';
import { symlinkFollowEffects } from './symlink-follow.js';
import { gitHandler } from './vcs.js';
import { getOwn } from '../../core/get-own.js';

export { EffectSink, type EffectEnv } from './sink.js';

/** Linux PATH_MAX: a tracked cwd longer than this is unknown (and paths below it stay bounded). */
const PATH_MAX = 4096;

/** Programs whose only effect is on shell variables. */
const DECLARERS = new Set(['export', 'declare', 'typeset', 'local', 'readonly', 'unset', 'read']);
/** Programs with no file effects beyond their exec effect. */
const NO_FILE_EFFECTS = new Set([
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'pwd',
  'basename',
  'dirname',
  'seq',
  'sleep',
  'uname',
  'whoami',
  'id',
  'groups',
  'ps',
  'pgrep',
  'which',
  'type',
  'whereis',
  'command',
  'builtin',
  'env',
  'printenv',
  'set',
  'shopt',
  'shift',
  'exit',
  'return',
  'wait',
  'jobs',
  'alias',
  'umask',
  'tr',
  'expr',
  'uptime',
  'nproc',
  'arch',
  'free',
  'tty',
  'locale',
  'logname',
  'users',
  'who',
  'w',
  'lscpu',
  'getconf',
  'cal',
  'kill',
  'pkill',
  'killall',
  'dirs',
  'hash',
]);

const HANDLERS: Record<string, EffectHandler> = {
  ...readerHandlers,
  ...fileHandlers,
  ...networkHandlers,
  ...remoteHandlers,
  ...archiveHandlers,
  ...execHandlers,
  ...dbClientHandlers,
  git: gitHandler,
};

/** The programs with an effect handler of their own (tests: every table is checked). */
export function effectHandlerPrograms(): string[] {
  return Object.keys(HANDLERS);
}

/** Result of effect computation for a whole command line. */
export interface EffectsResult {
  /** Every effect, in sub-command order, each with its `subcommand` index. */
  effects: Effect[];
  /** Working directory each sub-command runs in (undefined when not statically known). */
  cwds: (string | undefined)[];
  /** Top-level cwd after the whole line, when known. */
  finalCwd?: string;
  /** For each sub-command that runs git: the repository it runs against (index → info). */
  gitRepositories: Map<number, GitRepositoryInfo>;
}

function basename(text: string): string {
  const i = text.lastIndexOf('/');
  return i >= 0 ? text.slice(i + 1) : text;
}

/** A subshell-like command: its `cd` does not persist (pipeline stage, `(… )`, `$(… )`, nested script). */
function isSubshellLike(cmd: SimpleCommand): boolean {
  return cmd.inSubshell || (cmd.depth ?? 0) > 0;
}

const DYNAMIC_INPUT: Word = {
  text: '$XARGS_INPUT',
  raw: '<arguments read from input>',
  dynamic: true,
  quoted: false,
  hasGlob: false,
};

function staticWord(text: string): Word {
  return { text, raw: text, dynamic: false, quoted: false, hasGlob: false };
}

/**
 * Paths a listing command prints, as the directories they lie below: `find DIR` (with -print or
 * -print0 only), `fd PATTERN DIR`, `git ls-files [PATHSPEC]`, `git diff --name-only`, `ls` (names relative to the cwd; not
 * with -a), `rg --files`/`rg -l`/`grep -l`. Undefined for any other producer (its output is
 * arbitrary text).
 */
export function listingPaths(producer: SimpleCommand): Word[] | undefined {
  const program = producer.argv[0];
  if (!program || program.dynamic || program.text.includes('/')) return undefined;
  const args = producer.argv.slice(1);
  const texts = args.map((w) => w.text);
  const plainOperands = (from: number): Word[] => args.filter((w) => !w.text.startsWith('-')).slice(from);
  switch (program.text) {
    case 'find': {
      if (texts.some((t) => /^-(f?printf|f?ls|fprint0?|exec|execdir|ok|okdir)$/.test(t))) return undefined;
      const starts: Word[] = [];
      for (const w of args) {
        if (w.text.startsWith('-') || w.text === '(' || w.text === '!') break;
        starts.push(w);
      }
      return starts.length ? starts : [staticWord('.')];
    }
    case 'fd':
    case 'fdfind': {
      if (texts.some((t) => /^(-x|-X|--exec|--exec-batch|--format|-l|--list-details)/.test(t)))
        return undefined;
      const ops = plainOperands(1);
      return ops.length ? ops : [staticWord('.')];
    }
    case 'git': {
      // `git diff --name-only` prints paths of the repository (relative to its top level).
      if (
        texts[0] === 'diff' &&
        texts.includes('--name-only') &&
        !texts.some((t) => t.startsWith('--output') || t === '--no-index')
      )
        return [staticWord('.')];
      if (texts[0] !== 'ls-files' || texts.some((t) => t.startsWith('--format'))) return undefined;
      const ops = args.slice(1).filter((w) => !w.text.startsWith('-'));
      return ops.length ? ops : [staticWord('.')];
    }
    case 'ls':
      return texts.some((t) => /^-[^-]*a/.test(t) || t === '--all') ? undefined : [staticWord('.')];
    case 'rg':
      if (texts.includes('--files')) return plainOperands(0).length ? plainOperands(0) : [staticWord('.')];
      if (texts.some((t) => /^-[^-]*l/.test(t) || t === '--files-with-matches'))
        return plainOperands(1).length ? plainOperands(1) : [staticWord('.')];
      return undefined;
    case 'grep':
      if (
        texts.some(
          (t) => /^-[^-]*[lL]/.test(t) || t === '--files-with-matches' || t === '--files-without-match',
        )
      )
        return plainOperands(1).length ? plainOperands(1) : [staticWord('.')];
      return undefined;
    default:
      return undefined;
  }
}

/**
 * Where the arguments of an xargs child come from, as directories they lie below: `xargs -a FILE`
 * reads names from a file (the file is a read effect and path-checked; its names are taken
 * relative to the cwd, as the docs/security-round-2.md treats `xargs -a` inside the project as read-only);
 * a pipe from a listing producer (`listingPaths`); otherwise undefined (unknown).
 */
function xargsInputsFor(cmd: SimpleCommand, previous: SimpleCommand | undefined): Word[] | undefined {
  if (!cmd.wrappers.includes('xargs')) return undefined;
  if (cmd.wrapperPaths?.some((p) => p.wrapper === 'xargs' && p.role === 'read')) return [staticWord('.')];
  if (previous && cmd.connector === '|') return listingPaths(previous);
  return undefined;
}

/**
 * xargs children get arguments from their input: the replace string (`-I{}`) or appended words.
 * With a listing producer (`inputs`) they are paths below its directories; otherwise unknown.
 */
function withLauncherInputs(cmd: SimpleCommand, inputs?: Word[]): Word[] {
  const args = cmd.argv.slice(1);
  if (cmd.wrappers.includes('xargs')) {
    let replace: string | undefined;
    for (let i = 0; i < cmd.fullArgv.length; i++) {
      const t = (cmd.fullArgv[i] as Word).text;
      if (t === '-I') replace = cmd.fullArgv[i + 1]?.text;
      else if (t.startsWith('-I')) replace = t.slice(2);
      else if (t === '-i' || t === '--replace') replace = '{}';
      else if (t.startsWith('-i')) replace = t.slice(2);
      else if (t.startsWith('--replace=')) replace = t.slice(10);
      if (t === cmd.argv[0]?.text && i > 0) break;
    }
    const single = inputs?.length === 1 ? inputs[0] : undefined;
    if (replace) {
      const r = replace;
      return args.map((w) => {
        if (!w.text.includes(r)) return w;
        if (single && !single.dynamic) return { ...w, text: w.text.split(r).join(single.text) };
        return { ...w, dynamic: true, text: w.text.split(r).join('$XARGS_INPUT') };
      });
    }
    return inputs ? [...args, ...inputs] : [...args, DYNAMIC_INPUT];
  }
  if (
    cmd.wrappers.some((w) => w.startsWith('find -exec') || w.startsWith('find -ok')) ||
    cmd.via === 'find -exec'
  )
    return args.map((w) =>
      w.text.includes('{}') ? { ...w, dynamic: true, text: w.text.split('{}').join('$FIND_MATCH') } : w,
    );
  return args;
}

/**
 * Records the effects of one sub-command into `sink` (cwd already set). `xargsInputs`: directories
 * the xargs input lies below (see `listingPaths`), when known. Never throws.
 */
export function commandEffects(cmd: SimpleCommand, sink: EffectSink, xargsInputs?: Word[]): void {
  redirectEffects(cmd, sink);
  for (const p of cmd.wrapperPaths ?? []) {
    const wrapper = p.wrapper;
    if (p.role === 'chdir') {
      sink.file('read', p.word, 'cwd', `${wrapper} changes directory`);
      sink.cwd = p.word.dynamic ? undefined : sink.absolute(p.word.text);
    } else if (p.role === 'read') sink.file('read', p.word, 'flag', wrapper);
    else sink.file('write', p.word, 'flag', p.role === 'lock' ? `${wrapper} lock file` : wrapper);
  }
  for (const a of cmd.assignments)
    sink.other(
      'env',
      a.name,
      'known',
      'argument',
      cmd.argv.length ? 'environment of this command' : 'shell variable',
    );
  envAssignmentEffects(cmd, sink);
  const program = cmd.argv[0];
  if (!program) return;
  if (program.dynamic) {
    sink.other('exec', program.raw, 'unknown', 'program', 'the program name is an expansion');
    for (const w of cmd.argv.slice(1))
      if (
        !w.text.startsWith('-') &&
        (w.text.includes('/') || w.text.startsWith('.') || w.text.startsWith('~'))
      )
        sink.other(
          'write',
          sink.absolute(w.text) ?? w.raw,
          'unknown',
          'unknown',
          'operand of an unknown program',
        );
    return;
  }
  sink.other('exec', program.text, 'known', 'program');
  if (program.text.includes('/')) sink.file('read', program, 'program', 'program file');
  const name = basename(program.text);
  const args = withLauncherInputs(cmd, xargsInputs);
  if (DECLARERS.has(name)) {
    for (const w of args) {
      if (w.text.startsWith('-')) continue;
      sink.other('env', w.text.split('=')[0] ?? w.text, w.dynamic ? 'unknown' : 'known', 'argument', name);
    }
    return;
  }
  if (name === 'cd' || name === 'pushd' || name === 'popd' || NO_FILE_EFFECTS.has(name)) return;
  const handler = getOwn(HANDLERS, name) ?? interpreterEffects(name);
  if (handler) handler(args, sink, cmd);
  else unknownProgramEffects(args, sink, cmd);
  symlinkFollowEffects(name, args, sink);
}

/** Where `cd`/`pushd` goes: an absolute directory, `undefined` (unknown), or `null` when the command is not a directory change. */
function cdTarget(cmd: SimpleCommand, sink: EffectSink, stack: string[]): string | undefined | null {
  const program = cmd.argv[0];
  if (!program || program.dynamic) return null;
  const name = program.text;
  if (name !== 'cd' && name !== 'pushd' && name !== 'popd' && name !== 'chdir') return null;
  const ops = cmd.argv.slice(1).filter((w) => !/^-[LPe@]+$/.test(w.text) && w.text !== '--');
  if (name === 'popd') {
    if (ops.length > 0 || cmd.argv.some((w) => w.text === '-n')) return undefined;
    return stack.pop();
  }
  const target = ops[0];
  if (name === 'pushd' && (!target || /^[+-]\d+$/.test(target.text))) return undefined;
  if (!target) return sink.env.resolver.realpath(sink.env.home);
  if (target.text === '-') return undefined;
  sink.file('read', target, 'cwd', name);
  const r = sink.resolve(target);
  if (r.unknown !== undefined || r.targets.length !== 1) return undefined;
  const t = r.targets[0];
  // A directory path longer than PATH_MAX cannot be used by a system call: the cwd is unknown.
  return t && !t.glob && t.target.length <= PATH_MAX ? t.target : undefined;
}

const PERSISTING = new Set(['export', 'declare', 'typeset', 'readonly', 'local']);

/** `GIT_DIR=…` / `export GIT_WORK_TREE=…` on their own change what later git calls run against. */
function recordGitEnv(cmd: SimpleCommand, env: EffectEnv): void {
  const program = cmd.argv[0]?.text;
  if (cmd.argv.length > 0 && !(program && PERSISTING.has(program))) return;
  for (const a of cmd.assignments)
    if (a.name === 'GIT_DIR' || a.name === 'GIT_WORK_TREE')
      env.gitEnv?.set(a.name, { value: a.value, dynamic: /[$`]/.test(a.value) });
}

/** Text between two commands of the same subshell scope: only blanks, `;`, `&&`, `||` (no `|`, `&`, parens). */
function sameScope(between: string): boolean {
  return /^(?:\s|;|&&|\|\|)*$/.test(between);
}

/**
 * Computes the effects of every sub-command, tracking the cwd across the line.
 * @param source - the command line (lets a `cd` inside a subshell apply to the commands that
 *   follow it in the same subshell, told apart by the operators between them).
 * @param limit - how many sub-commands are analysed (the rest get no effects; the caller reports it).
 */
export function computeEffects(
  commands: readonly SimpleCommand[],
  opts: AnalyzeOptions,
  limit = Infinity,
  source?: string,
): EffectsResult {
  const env: EffectEnv = {
    home: opts.home,
    resolver: opts.resolver ?? fsPathResolver,
    createdLinks: new Map(),
    gitEnv: new Map(),
  };
  const gitRepositories = new Map<number, GitRepositoryInfo>();
  const effects: Effect[] = [];
  const cwds: (string | undefined)[] = [];
  let outer: string | undefined = opts.cwd;
  /** A later subshell command may be in the scope of an earlier subshell `cd` we cannot place: unknown cwd. */
  let dirty = false;
  /** The scope of a subshell `cd` at depth 0: its target, and where the last command of the scope ended. */
  let scope: { cwd: string | undefined; end: number } | undefined;
  const stack: string[] = [];
  const loops = source !== undefined ? findLoops(source) : [];
  let afterCd: { previous: string | undefined } | undefined;
  let stopped = false; // the analysis deadline passed: no more effects (analyze.ts reports it)
  for (const [index, cmd] of commands.entries()) {
    if (!stopped && (index & 63) === 0) stopped = budgetExpired();
    if (index >= limit || stopped) {
      cwds.push(undefined);
      continue;
    }
    const inSub = isSubshellLike(cmd);
    let cwd: string | undefined;
    if (!inSub) {
      dirty = false;
      scope = undefined;
      cwd = outer;
    } else if (scope) {
      if ((cmd.depth ?? 0) === 0 && source !== undefined && sameScope(source.slice(scope.end, cmd.start))) {
        cwd = scope.cwd;
        scope.end = cmd.end;
      } else {
        scope = undefined;
        dirty = true;
        cwd = undefined;
      }
    } else cwd = dirty ? undefined : outer;
    const orBranch = afterCd !== undefined && cmd.connector === '||';
    if (orBranch) cwd = afterCd?.previous;
    const sink = new EffectSink(env, cwd, index);
    cwds.push(cwd);
    const before = cwd;
    const target = cdTarget(cmd, sink, stack);
    commandEffects(
      bindLoopVariables(cmd, loops),
      sink,
      xargsInputsFor(cmd, index > 0 ? commands[index - 1] : undefined),
    );
    effects.push(...sink.effects);
    if (sink.gitRepository) gitRepositories.set(index, sink.gitRepository);
    recordGitEnv(cmd, env);
    if (orBranch && !inSub) {
      const name = cmd.argv[0]?.text;
      // `cd X || exit`: after the line, the cd succeeded. Any other fallback leaves either cwd.
      if (name !== 'exit' && name !== 'return') outer = undefined;
    }
    afterCd = undefined;
    if (target === null) continue;
    if (inSub) {
      if ((cmd.depth ?? 0) === 0 && source !== undefined) scope = { cwd: target, end: cmd.end };
      else dirty = true;
      // A `cd` the parser put in a pipeline stage may really be at the top level (tree-sitter-bash
      // misparses `cd x && y 2>/dev/null | z`, docs/dependencies.md "Bash parsing"): it may persist, so the cwd after it is unknown.
      if (cmd.via === 'pipeline') outer = undefined;
      continue;
    }
    if (cmd.argv[0]?.text === 'pushd' && before !== undefined) stack.push(before);
    afterCd = { previous: before };
    outer = target;
  }
  const result: EffectsResult = { effects, cwds, gitRepositories };
  if (outer !== undefined) result.finalCwd = outer;
  return result;
}
