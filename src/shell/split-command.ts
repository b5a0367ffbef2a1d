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
import { type SplitState, subshellCtx, type Task } from './split-state.js';
import type { EnvAssignment } from '../core/permission-types.js';
import type { Redirect, Word } from './types.js';
import { isDangerousEnvName } from './env-vars.js';
import { collectDynamic, type NestedBody, readWord, readWords, staticWord } from './words.js';
import { nestedToTasks, type RedirectParts, redirectFromNode } from './split-redirects.js';

export { type RedirectParts, redirectFromNode };

type StmtTask = Extract<Task, { kind: 'stmt' }>;

/** The children of a command that has no node (a redirection alone); never written to. */
const NO_NODES: readonly SyntaxNode[] = [];

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
        ctx: subshellCtx(ctx, 'subshell'),
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
    ctx: pipes ? subshellCtx(ctx) : ctx,
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
    ctx: pipes ? subshellCtx(ctx) : ctx,
    connector: task.connector,
    before,
    after,
    declaration: node.type === 'declaration_command',
    pseudo: node.type === 'compound_statement' || node.type === 'test_command',
  });
}
