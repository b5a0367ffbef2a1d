/**
 * Simple commands: words, assignments and redirects of one `command` node → a `SimpleCommand`.
 *
 * Sequence per command: read prefix assignments, the name and the arguments in source order; read
 * redirects, treating every `file_redirect` destination after the first as an argument
 * (tree-sitter-bash#233, docs/dependencies.md "Bash parsing": `rm 2>/dev/null -rf /` is `rm -rf /`); collect the
 * bodies of substitutions; then `finishCommand` strips wrappers and queues nested scripts.
 */
import type { SyntaxNode } from './parser.js';
import { finishCommand } from './split-nested.js';
import { type Ctx, nestedBodyTask, type Script, type SplitState, type Task } from './split-state.js';
import type { EnvAssignment } from '../core/permission-types.js';
import type { Heredoc } from './heredocs.js';
import type { Redirect, Word } from './types.js';
import { isDangerousEnvName } from './env-vars.js';
import { collectDynamic, type NestedBody, readWord, readWords, staticWord } from './words.js';
import { rescanRegion } from './words-rescan.js';

type StmtTask = Extract<Task, { kind: 'stmt' }>;

/** What one redirect node contributes. */
export interface RedirectParts {
  redirect?: Redirect;
  /** Destinations after the first (really arguments of the command). */
  extraWords: Word[];
  /** Substitution bodies inside the target or heredoc body. */
  nestedTasks: Task[];
  /** Statements tree-sitter hung inside a heredoc redirect (`cat <<EOF | sh`, `<<EOF && ls`). */
  continuations: Task[];
  /** True when a continuation pipes this command's output (`cat <<EOF | …`): it is a pipeline stage. */
  pipes: boolean;
  /** Redirects written after a heredoc operator on the same line (`cat <<EOF > out`). */
  extraRedirects?: Redirect[];
}

const HEREDOC_CONTINUATION_OPS = new Set(['&&', '||', ';', '&', '|', '|&']);

/** The children of a command that has no node (a redirection alone); never written to. */
const NO_NODES: readonly SyntaxNode[] = [];

function nestedToTasks(script: Script, nested: NestedBody[]): Task[] {
  return nested.map((n) => nestedBodyTask(script, n));
}

/** Reads one file/heredoc/herestring redirect node. `ctx` is used for continuation statements. */
export function redirectFromNode(
  state: SplitState,
  script: Script,
  node: SyntaxNode,
  _extra: SyntaxNode[],
  ctx?: Ctx,
): RedirectParts {
  const src = script.source;
  const nested: NestedBody[] = [];
  const sink = state.sink(script, nested);
  const parts: RedirectParts = { extraWords: [], nestedTasks: [], continuations: [], pipes: false };
  let fd: number | undefined;
  let op = '';
  let target: Word | undefined;
  const heredoc = node.type === 'file_redirect' ? heredocOf(script, node) : undefined;
  if (heredoc) {
    readLocatedHeredoc(state, script, node, heredoc, parts, nested);
  } else if (node.type === 'file_redirect' || node.type === 'herestring_redirect') {
    for (const child of node.children) {
      if (child.field === 'descriptor' || child.type === 'file_descriptor') {
        fd = Number(src.slice(child.start, child.end));
        continue;
      }
      if (!child.named) {
        op += src.slice(child.start, child.end);
        continue;
      }
      if (target || node.type === 'herestring_redirect') {
        // A here-string is not brace-expanded; destinations after the first are arguments.
        if (!target) target = readWord(src, child, sink);
        else parts.extraWords.push(...readWords(src, child, sink));
        continue;
      }
      // A redirection target is brace-expanded; more than one word is an "ambiguous redirect"
      // (bash refuses the command), kept as the unexpanded word, whose target is unknown.
      const expanded = readWords(src, child, sink);
      target =
        expanded.length === 1 ? (expanded[0] as Word) : { ...readWordQuiet(src, child), hasGlob: true };
    }
    if (node.type === 'herestring_redirect') op = '<<<';
    if (!target) {
      state.problem(`redirection without a target (${truncate(src.slice(node.start, node.end))})`);
      target = staticWord('');
    }
    const [s, e] = state.span(script, node.start, node.end);
    if (node.type === 'herestring_redirect') {
      state.notes.push({
        kind: 'herestring',
        text: src.slice(node.start, node.end),
        start: s,
        end: e,
        context: 'none',
        depth: script.depth,
      });
    }
    parts.redirect = fd === undefined ? { op, target } : { op, fd, target };
  } else {
    readHeredoc(state, script, node, parts, nested, ctx);
  }
  parts.nestedTasks.push(...nestedToTasks(script, nested));
  return parts;
}

/** The here-document a rewritten `<` redirect stands for (parse-script.ts), if any. */
function heredocOf(script: Script, node: SyntaxNode): Heredoc | undefined {
  if (!script.heredocs || script.heredocs.size === 0) return undefined;
  const op = node.children.find((c) => !c.named && c.type === '<');
  return op ? script.heredocs.get(op.start) : undefined;
}

/**
 * A here-document located by bash's rule (heredocs.ts): the parser saw `< DELIM`; the operator,
 * delimiter and body come from the scan. Words after the delimiter are arguments (tree-sitter-bash
 * misparse 2); an unquoted body is scanned for substitutions like a double-quoted string.
 */
function readLocatedHeredoc(
  state: SplitState,
  script: Script,
  node: SyntaxNode,
  h: Heredoc,
  parts: RedirectParts,
  nested: NestedBody[],
): void {
  const src = script.source;
  const sink = state.sink(script, nested);
  let fd: number | undefined;
  let seenTarget = false;
  for (const child of node.children) {
    if (child.field === 'descriptor' || child.type === 'file_descriptor') {
      fd = Number(src.slice(child.start, child.end));
      continue;
    }
    if (!child.named) continue;
    if (!seenTarget) seenTarget = true;
    else parts.extraWords.push(...readWords(src, child, sink));
  }
  const delimiter: Word = {
    text: h.delimiter,
    raw: src.slice(h.op + (h.strip ? 3 : 2), h.wordEnd).trimStart(),
    dynamic: false,
    quoted: h.quoted,
    hasGlob: false,
  };
  if (script.depth === 0) state.spans.push({ kind: 'heredoc', start: h.bodyStart, end: h.end });
  if (!h.quoted) rescanRegion(src, h.bodyStart, h.bodyEnd, 'double', 'heredoc', sink);
  const [s, e] = state.span(script, h.op, h.end);
  state.notes.push({
    kind: 'heredoc',
    text: src.slice(h.op, h.end),
    start: s,
    end: e,
    context: 'none',
    depth: script.depth,
  });
  const redirect: Redirect = {
    op: h.strip ? '<<-' : '<<',
    target: delimiter,
    heredocBody: h.body,
    bodyExpands: !h.quoted,
  };
  if (fd !== undefined) redirect.fd = fd;
  parts.redirect = redirect;
}

function readHeredoc(
  state: SplitState,
  script: Script,
  node: SyntaxNode,
  parts: RedirectParts,
  nested: NestedBody[],
  ctx?: Ctx,
): void {
  const src = script.source;
  const sink = state.sink(script, nested);
  let fd: number | undefined;
  let op = '<<';
  let delimiter: Word = staticWord('');
  let body = '';
  let expands = true;
  let pendingConnector: string | undefined;
  const contCtx: Ctx = ctx ?? { via: 'top', inSubshell: false, inherited: [], wrappers: [] };
  for (const child of node.children) {
    const text = src.slice(child.start, child.end);
    if (child.type === 'file_descriptor') fd = Number(text);
    else if (child.type === '<<' || child.type === '<<-') op = child.type;
    else if (child.type === 'heredoc_start') {
      expands = !/['"\\]/.test(text);
      delimiter = {
        text: text.replace(/['"\\]/g, ''),
        raw: text,
        dynamic: false,
        quoted: !expands,
        hasGlob: false,
      };
    } else if (child.type === 'heredoc_body') {
      body = text;
      if (script.depth === 0) state.spans.push({ kind: 'heredoc', start: child.start, end: child.end });
      if (expands) {
        // tree-sitter misses backticks and `$(` after leading blanks in heredoc bodies: rescan the
        // raw body with double-quote rules; the tree only contributes the expansion notes.
        rescanRegion(src, child.start, child.end, 'double', 'heredoc', sink);
        for (const part of child.children) {
          if (part.type !== 'heredoc_content') collectDynamic(src, part, 'heredoc', sink, true);
        }
      }
    } else if (child.type === 'heredoc_end') {
      // the terminator line
    } else if (child.type === 'file_redirect' || child.type === 'herestring_redirect') {
      const more = redirectFromNode(state, script, child, [], ctx);
      if (more.redirect) parts.extraRedirects = [...(parts.extraRedirects ?? []), more.redirect];
      parts.extraWords.push(...more.extraWords);
      parts.nestedTasks.push(...more.nestedTasks);
    } else if (child.type === 'pipeline') {
      // `cat <<EOF | rest`: the pipeline node starts with `|` followed by the later stages.
      parts.pipes = true;
      parts.continuations.push({
        kind: 'stmt',
        node: child,
        script,
        ctx: { ...contCtx, inSubshell: true },
        connector: '|',
        trailing: [],
      });
    } else if (!child.named && HEREDOC_CONTINUATION_OPS.has(child.type)) {
      pendingConnector = child.type === '|&' ? '|' : child.type;
    } else if (child.named && child.field === 'argument') {
      parts.extraWords.push(...readWords(src, child, sink));
    } else if (child.named) {
      parts.continuations.push({
        kind: 'stmt',
        node: child,
        script,
        ctx: contCtx,
        connector: pendingConnector ?? ';',
        trailing: [],
      });
      pendingConnector = undefined;
    }
  }
  const [s, e] = state.span(script, node.start, node.end);
  state.notes.push({
    kind: 'heredoc',
    text: src.slice(node.start, node.end),
    start: s,
    end: e,
    context: 'none',
    depth: script.depth,
  });
  const redirect: Redirect = { op, target: delimiter, heredocBody: body, bodyExpands: expands };
  if (fd !== undefined) redirect.fd = fd;
  parts.redirect = redirect;
}

/** Builds the SimpleCommand for a `command` node (or a bare redirect statement when `node` is undefined). */
export function buildCommand(
  state: SplitState,
  task: StmtTask,
  node: SyntaxNode | undefined,
  redirectNodes: SyntaxNode[],
): void {
  const { script, ctx } = task;
  const src = script.source;
  const nested: NestedBody[] = [];
  const sink = state.sink(script, nested);
  const words: Word[] = [];
  const assignments: EnvAssignment[] = [];
  const redirects: Redirect[] = [...ctx.inherited];
  const before: Task[] = [];
  const after: Task[] = [];
  let pipes = false;
  const handleRedirect = (r: SyntaxNode) => {
    const parts = redirectFromNode(state, script, r, [], ctx);
    if (parts.redirect) redirects.push(parts.redirect);
    if (parts.extraRedirects) redirects.push(...parts.extraRedirects);
    words.push(...parts.extraWords);
    before.push(...parts.nestedTasks);
    after.push(...parts.continuations);
    if (parts.pipes) pipes = true;
  };
  const children = node ? node.children : NO_NODES;
  for (let ci = 0; ci < children.length; ci++) {
    const child = children[ci] as SyntaxNode;
    if (isNamedFd(src, child, children[ci + 1] ?? redirectNodes[0])) continue;
    if (child.type === 'variable_assignment' && words.length === 0) {
      assignments.push(readAssignment(src, child, sink));
      continue;
    }
    if (
      child.type === 'file_redirect' ||
      child.type === 'heredoc_redirect' ||
      child.type === 'herestring_redirect'
    ) {
      handleRedirect(child);
      continue;
    }
    if (child.type === 'comment') continue;
    if (child.type === 'subshell') {
      state.problem('a subshell inside a simple command is not understood');
      before.push({
        kind: 'stmt',
        node: child,
        script,
        ctx: { ...ctx, via: 'subshell', inSubshell: true },
        connector: '',
        trailing: [],
      });
      continue;
    }
    if (!child.named) continue;
    for (const w of readWords(src, child, sink)) words.push(w);
  }
  for (const r of redirectNodes) handleRedirect(r);
  if (nested.length > 0) before.unshift(...nestedToTasks(script, nested));
  // The command's extent: its node and every redirection (Infinity when there is neither, as
  // Math.min of nothing).
  let start = node ? node.start : Number.POSITIVE_INFINITY;
  let end = node ? node.end : 0;
  for (const r of redirectNodes) {
    if (r.start < start) start = r.start;
    if (r.end > end) end = r.end;
  }
  finishCommand(state, {
    words,
    assignments,
    redirects,
    raw: src.slice(start, end),
    span: state.span(script, start, end),
    script,
    ctx: pipes ? { ...ctx, inSubshell: true } : ctx,
    connector: task.connector,
    before,
    after,
  });
}

/**
 * `{name}` written right before a redirection operator (`exec {fd}>file`) names the descriptor bash
 * allocates (bash(1) "REDIRECTION"): it is part of the redirection, not an argument.
 */
function isNamedFd(src: string, child: SyntaxNode, next: SyntaxNode | undefined): boolean {
  if (!next || next.start !== child.end) return false;
  if (
    next.type !== 'file_redirect' &&
    next.type !== 'heredoc_redirect' &&
    next.type !== 'herestring_redirect'
  )
    return false;
  if (next.children[0]?.type === 'file_descriptor') return false;
  return /^\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(src.slice(child.start, child.end));
}

/** `NAME=value` / `NAME+=value` / `a[i]=value`. */
export function readAssignment(
  src: string,
  node: SyntaxNode,
  sink: ReturnType<SplitState['sink']>,
): EnvAssignment & { word: Word } {
  let name = '';
  let value: Word = staticWord('');
  let op = '=';
  for (const child of node.children) {
    if (child.field === 'name' && child.type === 'subscript') {
      // `a[$(cmd)]=v`: the index is arithmetic (substitutions in it run, values in it are code).
      name = src.slice(child.start, child.end);
      const [s, e] = sink.span(child.start, child.end);
      sink.notes.push({
        kind: 'subscript',
        text: name,
        start: s,
        end: e,
        context: 'none',
        depth: sink.depth,
      });
      const index = child.children.find((c) => c.field === 'index');
      if (index) collectDynamic(src, index, 'none', sink);
    } else if (child.field === 'name') name = src.slice(child.start, child.end);
    else if (!child.named && (child.type === '=' || child.type === '+=')) op = child.type;
    else if (child.field === 'value' || child.named) value = readWord(src, child, sink);
  }
  const raw = src.slice(node.start, node.end);
  const word: Word = {
    text: `${name}${op}${value.text}`,
    raw,
    dynamic: value.dynamic,
    quoted: value.quoted,
    hasGlob: false,
  };
  const bare = name.replace(/\[.*$/s, '');
  return { name: bare, value: value.text, dangerous: isDangerousEnvName(bare), word };
}

/**
 * Commands that are not `command` nodes: `export/declare/local/readonly/typeset`, `unset`, `[[ … ]]`,
 * `((… ))`, standalone assignments (argv empty), `$(< file)` (modelled as `cat`).
 */
export function buildPseudoCommand(state: SplitState, task: StmtTask, presetRedirects?: Redirect[]): void {
  const { node, script, ctx } = task;
  const src = script.source;
  const nested: NestedBody[] = [];
  const sink = state.sink(script, nested);
  const words: Word[] = [];
  const assignments: EnvAssignment[] = [];
  const redirects: Redirect[] = [...ctx.inherited, ...(presetRedirects ?? [])];
  const redirectNodes: SyntaxNode[] = [];
  const before: Task[] = [];
  if (presetRedirects) {
    words.push(staticWord('cat', src.slice(node.start, node.end)));
  } else if (node.type === 'variable_assignment' || node.type === 'variable_assignments') {
    const list =
      node.type === 'variable_assignment'
        ? [node]
        : node.children.filter((c) => c.type === 'variable_assignment');
    for (const a of list) {
      const { word: _w, ...assignment } = readAssignment(src, a, sink);
      assignments.push(assignment);
    }
  } else if (node.type === 'compound_statement' || node.type === 'test_command') {
    // `((expr ))` and `[[ expr ]]`: the keywords and the expression's leaves as words.
    const stack: SyntaxNode[] = [...node.children].reverse();
    while (stack.length > 0) {
      const n = stack.pop() as SyntaxNode;
      const leafLike =
        n.children.length === 0 ||
        [
          'string',
          'raw_string',
          'concatenation',
          'expansion',
          'simple_expansion',
          'command_substitution',
          'arithmetic_expansion',
          'process_substitution',
          'number',
          'ansi_c_string',
        ].includes(n.type);
      if (leafLike) words.push(readWord(src, n, sink));
      else for (let k = n.children.length - 1; k >= 0; k--) stack.push(n.children[k] as SyntaxNode);
    }
  } else {
    // declaration_command / unset_command: keyword token, then words and assignments.
    for (const child of node.children) {
      if (child.type === 'variable_assignment') {
        const { word, ...assignment } = readAssignment(src, child, sink);
        assignments.push(assignment);
        words.push(word);
      } else if (
        child.type === 'file_redirect' ||
        child.type === 'herestring_redirect' ||
        child.type === 'heredoc_redirect'
      ) {
        redirectNodes.push(child);
      } else if (child.type !== 'comment') {
        words.push(...readWords(src, child, sink));
      }
    }
  }
  // Redirections written after the command (`[ x ] > f`, `export A=1 2>>f`, `((x )) > f`) are
  // the command's own: bash opens them whatever the command is.
  const after: Task[] = [];
  let pipes = false;
  for (const r of [...redirectNodes, ...task.trailing]) {
    const parts = redirectFromNode(state, script, r, [], ctx);
    if (parts.redirect) redirects.push(parts.redirect);
    if (parts.extraRedirects) redirects.push(...parts.extraRedirects);
    words.push(...parts.extraWords);
    before.push(...parts.nestedTasks);
    after.push(...parts.continuations);
    if (parts.pipes) pipes = true;
  }
  before.unshift(...nestedToTasks(script, nested));
  const start = Math.min(node.start, ...task.trailing.map((r) => r.start));
  const end = Math.max(node.end, ...task.trailing.map((r) => r.end));
  finishCommand(state, {
    words,
    assignments,
    redirects,
    raw: src.slice(start, end),
    span: state.span(script, start, end),
    script,
    ctx: pipes ? { ...ctx, inSubshell: true } : ctx,
    connector: task.connector,
    before,
    after,
    declaration: node.type === 'declaration_command',
    pseudo: node.type === 'compound_statement' || node.type === 'test_command',
  });
}

/** The word as read, without reporting its notes or substitutions again. */
function readWordQuiet(src: string, node: SyntaxNode): Word {
  return readWord(src, node, {
    nested: [],
    notes: [],
    problems: [],
    spans: [],
    span: (a, b) => [a, b],
    depth: 1,
  });
}

function truncate(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
