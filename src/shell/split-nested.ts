/**
 * Finishing a simple command: strip transparent wrappers (wrappers.ts), record env assignments,
 * emit the `SimpleCommand`, then queue what it launches — the script of `sh -c`/`bash -c`/`eval`/
 * `env -S`/`watch`/`flock -c`/`su -c` and of shell-fed heredocs (re-parsed as scripts one level
 * deeper), and the commands of `find -exec/-execdir/-ok/-okdir`.
 */
import { isDangerousEnvName } from './env-vars.js';
import { parseScript } from './parse-script.js';
import { MAX_PARSE_INPUT_CHARS } from './parser.js';
import {
  childVia,
  type Ctx,
  newCtx,
  type Script,
  SPLIT_LIMITS,
  type SplitState,
  type Task,
} from './split-state.js';
import type { EnvAssignment } from '../core/permission-types.js';
import type { Redirect, SimpleCommand, Word } from './types.js';
import { programBasename, SHELL_NAMES, shellInvocation, stripWrappers } from './wrappers.js';

/** Everything known about a command before wrapper stripping. */
export interface CommandInput {
  words: Word[];
  assignments: EnvAssignment[];
  redirects: Redirect[];
  raw: string;
  span: [number, number];
  script: Script;
  ctx: Ctx;
  connector: string;
  /** Tasks that run before the command (substitution bodies). */
  before: Task[];
  /** Statements that follow the command (heredoc continuations). */
  after: Task[];
  declaration?: boolean;
  /** True for `[[ … ]]` / `((… ))`, whose first word is a keyword by construction. */
  pseudo?: boolean;
  /** Words as written when they differ from `words` (launched commands: the whole find command). */
  fullArgv?: Word[];
}

/** Reserved words that tree-sitter-bash accepts as command names (docs/dependencies.md "Bash parsing"). */
const RESERVED_AS_COMMAND = new Set([
  'fi',
  'then',
  'else',
  'elif',
  'done',
  'do',
  'esac',
  'in',
  '}',
  '{',
  ']]',
  '[[',
  'if',
  'while',
  'until',
  'for',
  'case',
  'select',
  'function',
  'coproc',
  '!',
]);

/**
 * The words a misparsed keyword prefix runs: `coproc CMD …` → `CMD …`, `coproc NAME { CMD …` and
 * `coproc { CMD …` → `CMD …`, `{ CMD …` (after `time`/`!`, which tree-sitter reads as a command) → `CMD …`.
 * Undefined when the first word is not such a keyword.
 */
function recoverReserved(argv: Word[]): Word[] | undefined {
  const first = argv[0];
  if (!first || first.quoted || first.dynamic) return undefined;
  const isOpen = (w: Word | undefined) => w !== undefined && !w.quoted && !w.dynamic && w.text === '{';
  if (first.text === '{') return argv.slice(1);
  if (first.text !== 'coproc') return undefined;
  if (isOpen(argv[1])) return argv.slice(2);
  if (isOpen(argv[2])) return argv.slice(3);
  return argv.slice(1);
}

const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** Strips wrappers, emits the command and queues its launches (see module doc). */
export function finishCommand(state: SplitState, input: CommandInput): void {
  const { script, ctx } = input;
  const strip = stripWrappers(input.words);
  const assignments = [...input.assignments];
  for (const w of strip.assignments) {
    const eq = w.text.indexOf('=');
    const name = w.text.slice(0, eq);
    assignments.push({ name, value: w.text.slice(eq + 1), dangerous: isDangerousEnvName(name) });
  }
  let via = ctx.via;
  if (strip.wrappers.includes('xargs')) via = childVia(via, 'xargs');
  // IFS as a prefix of a command (`IFS= read -r line`) only affects that command's own splitting.
  if (input.words.length > 0 && !input.declaration) {
    for (const a of assignments) if (a.name === 'IFS' && input.assignments.includes(a)) a.dangerous = false;
  }
  const cmd: SimpleCommand = {
    argv: strip.argv,
    fullArgv: input.fullArgv ?? input.words,
    assignments,
    wrappers: [...ctx.wrappers, ...strip.wrappers],
    redirects: input.redirects,
    raw: input.raw,
    via,
    start: input.span[0],
    end: input.span[1],
    connector: input.connector,
    inSubshell: ctx.inSubshell,
    depth: script.depth,
  };
  if (ctx.inFunction !== undefined) cmd.inFunction = ctx.inFunction;
  if (ctx.background) cmd.background = true;
  if (strip.paths.length > 0) cmd.wrapperPaths = strip.paths;
  const first = cmd.argv[0];
  if (!input.pseudo && first && !first.quoted && !first.dynamic && RESERVED_AS_COMMAND.has(first.text)) {
    state.problem(`reserved word "${first.text}" used as a command name (the parser cannot be trusted here)`);
  }
  const launches: Task[] = [];
  const recovered = input.pseudo ? undefined : recoverReserved(cmd.argv);
  if (recovered && recovered.length > 0) {
    // `coproc rm …`, `coproc X { rm …; }`, `time { rm …; }`, `! { rm …; }`: tree-sitter reads the
    // keyword as a command name. The problem above keeps the result from being allowed; the words
    // after the keyword are still split out so a deny rule on them wins (docs/security-round-2.md).
    launches.push({
      kind: 'launch',
      words: recovered,
      fullArgv: recovered,
      raw: recovered.map((w) => w.raw).join(' '),
      span: input.span,
      script: input.script,
      ctx: newCtx(
        ctx.via,
        ctx.inSubshell,
        ctx.inherited,
        [...ctx.wrappers, ...strip.wrappers, first?.text ?? ''],
        ctx.inFunction,
        ctx.background,
      ),
    });
  }
  if (strip.script) {
    queueScript(state, launches, input, strip.script.text, strip.script.dynamic, strip.script.via, ctx);
  } else if (first) {
    const program = programBasename(first);
    if (program && SHELL_NAMES.has(program)) {
      queueShell(state, launches, input, cmd, ctx);
    } else if (program === 'eval') {
      // `eval -- words`: like every builtin, eval ends its (empty) option list at `--`.
      const args = cmd.argv[1]?.text === '--' ? cmd.argv.slice(2) : cmd.argv.slice(1);
      queueScript(
        state,
        launches,
        input,
        args.map((w) => w.text).join(' '),
        args.some((w) => w.dynamic),
        'eval',
        ctx,
      );
    } else if (program === 'find') {
      queueFindExec(state, launches, input, cmd, newCtx(via, true, [], cmd.wrappers, undefined, undefined));
    }
  }
  if (state.commands.length + state.stack.length > SPLIT_LIMITS.maxCommands) {
    state.problem(`more than ${SPLIT_LIMITS.maxCommands} commands: not analysed further`);
    return;
  }
  for (let k = input.after.length - 1; k >= 0; k--) state.stack.push(input.after[k] as Task);
  for (let k = launches.length - 1; k >= 0; k--) state.stack.push(launches[k] as Task);
  state.stack.push({ kind: 'emit', cmd });
  for (let k = input.before.length - 1; k >= 0; k--) state.stack.push(input.before[k] as Task);
}

function queueShell(
  state: SplitState,
  launches: Task[],
  input: CommandInput,
  cmd: SimpleCommand,
  ctx: Ctx,
): void {
  const inv = shellInvocation(cmd.argv);
  const [start, end] = input.span;
  switch (inv.kind) {
    case 'command-string':
      queueScript(state, launches, input, inv.word.text, inv.word.dynamic, 'sh -c', ctx);
      return;
    case 'file':
      state.scripts.push({
        via: 'file',
        text: inv.word.text,
        dynamic: inv.word.dynamic,
        depth: input.script.depth + 1,
        start,
        end,
      });
      return;
    case 'unknown':
      state.scripts.push({
        via: 'sh -c',
        text: cmd.argv.map((w) => w.text).join(' '),
        dynamic: true,
        depth: input.script.depth + 1,
        start,
        end,
      });
      return;
    case 'stdin': {
      const stdin = [...cmd.redirects]
        .reverse()
        .find(
          (r) =>
            (r.op === '<<' || r.op === '<<-' || r.op === '<<<' || r.op === '<') &&
            (r.fd === undefined || r.fd === 0),
        );
      if (stdin && (stdin.op === '<<' || stdin.op === '<<-')) {
        const body = stdin.heredocBody ?? '';
        const dynamic = stdin.bodyExpands === true && /[$`]/.test(body);
        queueScript(state, launches, input, body, dynamic, 'heredoc-shell', ctx);
      } else if (stdin && stdin.op === '<<<') {
        queueScript(state, launches, input, stdin.target.text, stdin.target.dynamic, 'heredoc-shell', ctx);
      } else if (stdin && stdin.op === '<') {
        state.scripts.push({
          via: 'file',
          text: stdin.target.text,
          dynamic: stdin.target.dynamic,
          depth: input.script.depth + 1,
          start,
          end,
        });
      } else {
        const piped = input.connector === '|' ? pipedScript(state) : undefined;
        if (piped) queueScript(state, launches, input, piped.text, piped.dynamic, piped.via, ctx);
        else {
          state.scripts.push({
            via: 'stdin',
            text: '',
            dynamic: true,
            depth: input.script.depth + 1,
            start,
            end,
          });
        }
      }
    }
  }
}

/**
 * The script a shell reads from the previous pipeline stage, when that stage is static:
 * `cat <<EOF | sh` (the heredoc body), `cat <<< "…" | sh`, `echo static words | sh`.
 */
function pipedScript(state: SplitState): { text: string; dynamic: boolean; via: string } | undefined {
  const previous = state.commands[state.commands.length - 1];
  const program = previous && programBasename(previous.argv[0]);
  if (!previous || previous.argv.length === 0) return undefined;
  if (program === 'cat' && previous.argv.length === 1) {
    const stdin = [...previous.redirects].reverse().find((r) => r.fd === undefined || r.fd === 0);
    if (stdin && (stdin.op === '<<' || stdin.op === '<<-')) {
      const body = stdin.heredocBody ?? '';
      return { text: body, dynamic: stdin.bodyExpands === true && /[$`]/.test(body), via: 'heredoc-shell' };
    }
    if (stdin && stdin.op === '<<<')
      return { text: stdin.target.text, dynamic: stdin.target.dynamic, via: 'heredoc-shell' };
    return undefined;
  }
  if (program === 'echo' && !previous.argv.slice(1).some((w) => /^-[neE]+$/.test(w.text))) {
    const args = previous.argv.slice(1);
    return {
      text: args.map((w) => w.text).join(' '),
      dynamic: args.some((w) => w.dynamic),
      via: 'echo-pipe',
    };
  }
  return undefined;
}

/** Re-parses `text` as a script one level deeper and queues its statements. */
function queueScript(
  state: SplitState,
  launches: Task[],
  input: CommandInput,
  text: string,
  dynamic: boolean,
  via: string,
  ctx: Ctx,
): void {
  const depth = input.script.depth + 1;
  const [start, end] = input.span;
  state.scripts.push({ via, text, dynamic, depth, start, end });
  if (depth > SPLIT_LIMITS.maxScriptDepth) {
    state.problem(`scripts nested more than ${SPLIT_LIMITS.maxScriptDepth} levels deep`);
    return;
  }
  if (text.length > MAX_PARSE_INPUT_CHARS) {
    state.problem(`the script given to ${via} is over ${MAX_PARSE_INPUT_CHARS} characters`);
    return;
  }
  // The shell that runs the script joins its continuations too (`sh -c 'ca\<newline>t f'` runs cat).
  const { parsed, source, heredocs, problems } = parseScript(text);
  if (parsed.hasError) state.problem(`the script given to ${via} does not parse as bash`);
  for (const p of problems) state.problem(`in the script given to ${via}: ${p}`);
  const script: Script = { source, depth, range: [start, end], heredocs };
  // eval runs in the current shell (a `cd` persists); the others run in a child shell.
  const inSubshell = via === 'eval' ? ctx.inSubshell : true;
  launches.push({
    kind: 'stmt',
    node: parsed.root,
    script,
    ctx: newCtx(childVia(ctx.via, via), inSubshell, [], [], undefined, undefined),
    connector: '',
    trailing: [],
  });
}

/** `find … -exec cmd … ;` / `+`: each clause's command is launched as its own sub-command. */
function queueFindExec(
  state: SplitState,
  launches: Task[],
  input: CommandInput,
  cmd: SimpleCommand,
  ctx: Ctx,
): void {
  const argv = cmd.argv;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] as Word;
    if (w.dynamic || !FIND_EXEC.has(w.text)) continue;
    const clause: Word[] = [];
    let j = i + 1;
    let terminated = false;
    for (; j < argv.length; j++) {
      const t = (argv[j] as Word).text;
      if (t === ';' || (t === '+' && clause.length > 0 && clause[clause.length - 1]?.text === '{}')) {
        terminated = true;
        break;
      }
      clause.push(argv[j] as Word);
    }
    if (!terminated) state.problem(`find ${w.text} without a terminating ";" or "+"`);
    if (clause.length > 0) {
      launches.push({
        kind: 'launch',
        words: clause,
        fullArgv: cmd.fullArgv,
        raw: clause.map((c) => c.raw).join(' '),
        span: [cmd.start, cmd.end],
        script: input.script,
        ctx: newCtx(
          childVia(ctx.via, 'find -exec'),
          ctx.inSubshell,
          ctx.inherited,
          [...ctx.wrappers, `find ${w.text}`],
          ctx.inFunction,
          ctx.background,
        ),
      });
    }
    i = j;
  }
}

/** Processes a `launch` task (a command started by `find -exec`). */
export function processLaunch(state: SplitState, task: Extract<Task, { kind: 'launch' }>): void {
  finishCommand(state, {
    words: task.words,
    assignments: [],
    redirects: [],
    raw: task.raw,
    span: task.span,
    script: task.script,
    ctx: task.ctx,
    connector: '',
    before: [],
    after: [],
    fullArgv: task.fullArgv,
  });
}
