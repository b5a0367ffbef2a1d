/**
 * The intermediate form of a parsed command line, shared by the phases of shell analysis:
 * parse/split (parse.ts, split*.ts) produce `SimpleCommand`s; checks, read-only validation,
 * sed parsing and effects consume them. Pure data; no processes anywhere in src/shell/.
 */
import type { Effect } from '../core/effects.js';
import type { EnvAssignment, Finding, SubcommandInfo } from '../core/permission-types.js';

/** One shell word after static unquoting. */
export interface Word {
  /** Static value after quote removal (`'a b'` → `a b`; `\rm` → `rm`; `$'\x72'` → `r`). Dynamic parts kept as written. */
  text: string;
  /** Source text of the word exactly as written. */
  raw: string;
  /** True when the value depends on expansions (`$VAR`, `$(…)`, backticks, arithmetic, `~user`). */
  dynamic: boolean;
  /** True when any part of the word was quoted or escaped. */
  quoted: boolean;
  /** True when unquoted glob characters (`* ? [`) or brace expansion remain. */
  hasGlob: boolean;
  /** True when unquoted brace expansion (`{a,b}`, `{1..3}`) remains (implies hasGlob). Set by the parser. */
  braceExpansion?: boolean;
  /** Set on each word brace expansion produced: the word as written (`secret{01..02}.txt`). */
  braceSource?: string;
}

/** A path-like argument of a stripped wrapper (`env -C DIR`, `sudo -D DIR`, `time -o FILE`, `flock FILE`, `xargs -a FILE`). */
export interface WrapperPath {
  wrapper: string;
  role: 'chdir' | 'write' | 'read' | 'lock';
  word: Word;
}

/** Kinds of syntax the security checks care about (recorded by the parser with their quoting context). */
export type SyntaxNoteKind =
  | 'command-substitution'
  | 'backtick'
  | 'process-substitution'
  | 'parameter-expansion'
  | 'simple-expansion'
  | 'arithmetic-expansion'
  | 'ansi-c-string'
  | 'translated-string'
  | 'heredoc'
  | 'herestring'
  | 'comment'
  | 'line-continuation'
  /** `name[index]` on the left of an assignment: bash evaluates the index as arithmetic. */
  | 'subscript'
  /** The `((init; cond; step ))` head of a C-style for loop (arithmetic). */
  | 'arithmetic-command';

/** One occurrence of a syntax feature. Offsets as in SimpleCommand.start/end. */
export interface SyntaxNote {
  kind: SyntaxNoteKind;
  /** Source text of the construct, in the script where it occurs. */
  text: string;
  start: number;
  end: number;
  /** Quoting context: `none` (unquoted), `double` (inside "…"), `heredoc` (body of an unquoted-delimiter heredoc). */
  context: 'none' | 'double' | 'heredoc';
  /** Script nesting depth (0 = the command line; 1 = inside `sh -c '…'`, `eval`, a shell-fed heredoc …). */
  depth: number;
}

/**
 * A quoted or non-code region of the top-level command (depth 0 only), for character-level checks:
 * `single` '…', `double` "…", `ansi-c` $'…', `heredoc` body, `comment`, and `code` for a `$(…)`/backtick
 * inside double quotes (code again). Inner spans override outer ones when applied in order of `start`.
 */
export interface QuoteSpan {
  kind: 'single' | 'double' | 'ansi-c' | 'heredoc' | 'comment' | 'code';
  start: number;
  end: number;
}

/** A script handed to a shell that the splitter re-parsed (or could not). */
export interface NestedScript {
  /** `sh -c`, `eval`, `heredoc-shell`, `env -S`, `watch`, `flock -c`, `su -c`, `stdin`, `file`. */
  via: string;
  /** The script text (static value; dynamic parts as written). Empty for `stdin`; the path for `file`. */
  text: string;
  /** True when the text depends on expansions: variable contents become code. */
  dynamic: boolean;
  /** Depth of the script itself (1 for a script in the command line). */
  depth: number;
  start: number;
  end: number;
}

/** One redirection attached to a simple command (after re-attribution; docs/dependencies.md "Bash parsing"). */
export interface Redirect {
  /** Operator as written: `>`, `>>`, `<`, `>|`, `&>`, `&>>`, `>&`, `<&`, `<<`, `<<-`, `<<<`, `<>`. */
  op: string;
  /** File descriptor number written before the operator, if any (`2>`). */
  fd?: number;
  /** The target word (a file, an fd number for `>&`, or the here-string/heredoc delimiter). */
  target: Word;
  /** Heredoc body when op is `<<`/`<<-` (undefined otherwise); `bodyExpands` false when the delimiter was quoted. */
  heredocBody?: string;
  bodyExpands?: boolean;
}

/**
 * One simple command, reached by splitting a command line at operators and into nested scripts.
 * `argv` excludes env assignments and transparent wrappers (recorded separately).
 */
export interface SimpleCommand {
  /** Words that run, after stripping assignments and transparent wrappers. argv[0] is the program. */
  argv: Word[];
  /** Words as written, before wrapper stripping (for effects of the wrappers themselves). */
  fullArgv: Word[];
  assignments: EnvAssignment[];
  /** Wrappers stripped, outermost first (`timeout`, `nice`, `env`, `sudo`, `xargs`, `find -exec` …). */
  wrappers: string[];
  redirects: Redirect[];
  /** Source text of this command. */
  raw: string;
  /** How it was reached: `top`, `pipeline`, `$()`, `backtick`, `<()`, `>()`, `sh -c`, `eval`, `xargs`, `find -exec`, `heredoc-shell`, `subshell`, `group`, `function` … */
  via: string;
  /**
   * Offsets in the top-level command as JS string indices (UTF-16 code units; equal to byte offsets for
   * ASCII). For commands of a re-parsed script (`sh -c`, `eval`, heredoc-fed shell): the span of the
   * command that launched the script.
   */
  start: number;
  end: number;
  /** `&&`, `||`, `;`, `|`, `&` or newline that connects this command to the previous one (`''` for the first). */
  connector: string;
  /** True when the command runs in a subshell or pipeline stage (so `cd` does not persist past it). */
  inSubshell: boolean;
  /** Script nesting depth (0 = the command line; +1 per `sh -c`/`eval`/shell-fed heredoc). Set by the parser. */
  depth?: number;
  /** Paths named by stripped wrappers (`env -C`, `time -o`, `flock FILE`, `xargs -a`), for effects. Set by the parser. */
  wrapperPaths?: WrapperPath[];
  /** Name of the shell function whose body holds this command, when it is in one. */
  inFunction?: string;
  /** True when the command runs in the background (`… &`, alone or as part of a backgrounded list or pipeline). */
  background?: boolean;
}

/** A variable a compound command binds (`for NAME in …`, `select NAME in …`). */
export interface VariableBinding {
  name: string;
  via: 'for' | 'select';
  /** True when the bound values come from expansions or substitutions (`for x in $(cat f)`). */
  dynamic: boolean;
  /** The value words as written (`$(seq 1 3)`), joined by spaces. */
  values: string;
  /** Offsets of the loop in the top-level command (as SimpleCommand.start/end). */
  start: number;
  end: number;
  depth: number;
}

/** Result of parse + split. */
export interface SplitResult {
  /** False when the parser found ERROR/MISSING nodes, the input exceeded the size cap, or a construct was not understood. */
  ok: boolean;
  /** Why `ok` is false (human-readable), empty when ok. */
  problems: string[];
  commands: SimpleCommand[];
  /** Findings raised while parsing/splitting (e.g. INCOMPLETE_COMMANDS, unsupported constructs). */
  findings: Finding[];
  /** Syntax features seen, with quoting context (input of the security checks). Set by the parser. */
  notes?: SyntaxNote[];
  /** Scripts handed to shells (`sh -c`, `eval`, heredoc-fed shells …). Set by the parser. */
  scripts?: NestedScript[];
  /** Quoted/comment/heredoc regions of the command line itself (depth 0). Set by the parser. */
  spans?: QuoteSpan[];
  /**
   * The command line as bash reads it, when it differs from the input: backslash-newline
   * continuations joined. Every offset (commands, notes, spans) refers to this text.
   */
  source?: string;
  /** Loop variables bound by `for`/`select`, in source order. Set by the parser. */
  bindings?: VariableBinding[];
}

/** Options for analysis: the world the command runs in. */
export interface AnalyzeOptions {
  /** Working directory the command starts in (absolute). */
  cwd: string;
  /** $HOME (absolute). */
  home: string;
  /** Resolves symlinks (injectable; default: the real filesystem). */
  resolver?: import('../core/paths.js').PathResolver;
  /**
   * Deadline of the analysis in ms (default 1000, budget.ts). Past it every phase stops and the
   * analysis carries an `ANALYSIS_DEADLINE` finding that asks in every mode.
   */
  deadlineMs?: number;
}

/** Full analysis of one Bash command line: what permission rules, checks and effects need. */
export interface CommandAnalysis {
  command: string;
  /** False → the command cannot be proven safe (ask, never allow). */
  parseOk: boolean;
  problems: string[];
  subcommands: SubcommandInfo[];
  findings: Finding[];
  effects: Effect[];
  /** True only when every sub-command is proven read-only and there is no finding and no mutating effect. */
  readOnly: boolean;
  /** Working directory after the command, when statically known (persisting `cd`). */
  finalCwd?: string;
}
