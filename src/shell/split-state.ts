/**
 * Shared state of one split run (split.ts drives it; split-statements.ts and split-command.ts fill it).
 * The walk is a single explicit work stack of tasks, so nesting depth never grows the JS call stack.
 */
import type { Heredoc } from './heredocs.js';
import type { SyntaxNode } from './parser.js';
import type {
  NestedScript,
  QuoteSpan,
  Redirect,
  SimpleCommand,
  SyntaxNote,
  VariableBinding,
  Word,
} from './types.js';
import type { NestedBody, WordSink } from './words.js';

/** One script being split: the command line itself, or a re-parsed `sh -c`/`eval`/heredoc script. */
export interface Script {
  source: string;
  /** 0 for the command line; +1 per re-parse. */
  depth: number;
  /** For re-parsed scripts: the span of the enclosing word in the top-level command. */
  range?: [number, number];
  /** Here-documents of this script by operator offset (parse-script.ts); the parser saw each as `<`. */
  heredocs?: ReadonlyMap<number, Heredoc>;
}

/** Context inherited by the statements under a node. */
export interface Ctx {
  via: string;
  inSubshell: boolean;
  /** Redirects of an enclosing compound command (`{ …; } > out`, `while …; done < in`). */
  inherited: Redirect[];
  /** Wrappers of an enclosing command (for `find -exec` launches). */
  wrappers: string[];
  /** Name of the shell function whose body this is (`f() { …; }`), for structural checks. */
  inFunction: string | undefined;
  /** True under a statement run in the background (`… &`). */
  background: boolean | undefined;
}

/**
 * A context with every field set, always in this order: every context of a split then has one
 * object shape, so the walk's reads of it stay monomorphic (a spread of contexts of several shapes
 * went through V8's slow generic copy, most of the self time of a 64 KiB line of functions).
 */
export function newCtx(
  via: string,
  inSubshell: boolean,
  inherited: Redirect[],
  wrappers: string[],
  inFunction: string | undefined,
  background: boolean | undefined,
): Ctx {
  return { via, inSubshell, inherited, wrappers, inFunction, background };
}

/** `ctx` for the stages of a pipeline or a subshell: the same, run in a subshell (`via` changed when given). */
export function subshellCtx(ctx: Ctx, via: string = ctx.via): Ctx {
  return newCtx(via, true, ctx.inherited, ctx.wrappers, ctx.inFunction, ctx.background);
}

export type Task =
  | { kind: 'stmt'; node: SyntaxNode; script: Script; ctx: Ctx; connector: string; trailing: SyntaxNode[] }
  | { kind: 'emit'; cmd: SimpleCommand }
  /**
   * Emits `cmd` only when no command was emitted since `since` (the redirections of a compound
   * command that runs no command, `case x in esac > f`, still open their files).
   */
  | { kind: 'emit-if-none'; since: number; cmd: SimpleCommand }
  | {
      kind: 'launch';
      /** Words that run, before wrapper stripping. */
      words: Word[];
      fullArgv: Word[];
      raw: string;
      span: [number, number];
      script: Script;
      ctx: Ctx;
    };

/** Structural vias are replaced by a more specific one; nested-script and substitution vias are kept. */
const STRUCTURAL_VIA = new Set(['top', 'pipeline', 'subshell', 'group', 'function']);

/** The via for a child reached through `next` from a context with `current`. */
export function childVia(current: string, next: string): string {
  return STRUCTURAL_VIA.has(current) ? next : current;
}

/**
 * The task that splits a substitution body: the node in `script`, or — for a body found by a raw
 * rescan (`NestedBody.source`) — the root of that body re-parsed as a script one level deeper.
 */
export function nestedBodyTask(script: Script, n: NestedBody): Task {
  const body: Script =
    n.source === undefined
      ? script
      : {
          source: n.source,
          depth: script.depth + 1,
          range: n.range,
          ...(n.heredocs ? { heredocs: n.heredocs } : {}),
        };
  return {
    kind: 'stmt',
    node: n.node,
    script: body,
    ctx: newCtx(n.via, true, [], [], undefined, undefined),
    connector: '',
    trailing: [],
  };
}

/** Caps that keep analysis bounded (fail closed past them). */
export const SPLIT_LIMITS = {
  /** Re-parse depth (`sh -c "sh -c '…'"`). */
  maxScriptDepth: 8,
  /** Tasks processed per command line. */
  maxTasks: 200_000,
  /** Simple commands per command line. */
  maxCommands: 20_000,
} as const;

export class SplitState {
  readonly commands: SimpleCommand[] = [];
  readonly problems: string[] = [];
  readonly notes: SyntaxNote[] = [];
  readonly scripts: NestedScript[] = [];
  readonly spans: QuoteSpan[] = [];
  readonly bindings: VariableBinding[] = [];
  readonly stack: Task[] = [];
  tasks = 0;

  constructor(readonly top: string) {}

  problem(message: string): void {
    if (!this.problems.includes(message) && this.problems.length < 50) this.problems.push(message);
  }

  /** Maps a span in `script` to the top-level command. */
  span(script: Script, start: number, end: number): [number, number] {
    return script.range ? [script.range[0], script.range[1]] : [start, end];
  }

  sink(script: Script, nested: WordSink['nested']): WordSink {
    return {
      nested,
      notes: this.notes,
      problems: this.problems,
      spans: this.spans,
      span: (s, e) => this.span(script, s, e),
      depth: script.depth,
    };
  }
}
