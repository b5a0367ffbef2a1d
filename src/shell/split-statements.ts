/**
 * Statement-level splitting: walks lists, pipelines, subshells, groups, control structures and
 * function bodies, assigning each statement its connector and context, and hands simple commands to
 * split-command.ts. Redirects hung on a whole list/pipeline (tree-sitter-bash#345, docs/dependencies.md "Bash parsing"
 * misparse 1) are passed down to the list's last command.
 */
import type { SyntaxNode } from './parser.js';
import { buildCommand, buildPseudoCommand, redirectFromNode } from './split-command.js';
import {
  childVia,
  type Ctx,
  nestedBodyTask,
  newCtx,
  type Script,
  type SplitState,
  subshellCtx,
  type Task,
} from './split-state.js';
import type { Redirect, SimpleCommand } from './types.js';
import { collectDynamic, type NestedBody, readWord } from './words.js';

/** Node types that are statements (children of program/list/pipeline/compound …). */
export const STATEMENT_TYPES: ReadonlySet<string> = new Set([
  'command',
  'list',
  'pipeline',
  'redirected_statement',
  'subshell',
  'compound_statement',
  'if_statement',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'case_statement',
  'function_definition',
  'negated_command',
  'test_command',
  'declaration_command',
  'unset_command',
  'variable_assignment',
  'variable_assignments',
]);

/** Node types readWord understands; other expression nodes (arithmetic in `for ((…))`) are only scanned for substitutions. */
const WORD_TYPES = new Set([
  'word',
  'string',
  'raw_string',
  'ansi_c_string',
  'translated_string',
  'concatenation',
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
  'brace_expression',
  'number',
  'extglob_pattern',
  'regex',
]);

const REDIRECT_TYPES = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);

/** Separator tokens and the connector they give the next statement. */
const SEPARATORS: Record<string, string> = {
  ';': ';',
  '&': '&',
  '&&': '&&',
  '||': '||',
  '|': '|',
  '|&': '|',
  ';;': ';',
  ';&': ';',
  ';;&': ';',
};

/** Processes one statement task; pushes follow-up tasks. */
export function processStatement(state: SplitState, task: Extract<Task, { kind: 'stmt' }>): void {
  const { node, script } = task;
  switch (node.type) {
    case 'command':
      buildCommand(state, task, node, task.trailing);
      return;
    case 'redirected_statement':
      processRedirected(state, task);
      return;
    case 'declaration_command':
    case 'unset_command':
    case 'test_command':
    case 'variable_assignment':
    case 'variable_assignments':
      buildPseudoCommand(state, task);
      return;
    case 'comment':
      noteComment(state, script, node);
      return;
    default:
      processSequence(state, task);
  }
}

function noteComment(state: SplitState, script: Script, node: SyntaxNode): void {
  const [start, end] = state.span(script, node.start, node.end);
  state.notes.push({
    kind: 'comment',
    text: script.source.slice(node.start, node.end),
    start,
    end,
    context: 'none',
    depth: script.depth,
  });
  if (script.depth === 0) state.spans.push({ kind: 'comment', start: node.start, end: node.end });
}

function processRedirected(state: SplitState, task: Extract<Task, { kind: 'stmt' }>): void {
  const { node } = task;
  let body: SyntaxNode | undefined;
  const redirects: SyntaxNode[] = [];
  for (const child of node.children) {
    if (child.field === 'body' && !body) body = child;
    else if (REDIRECT_TYPES.has(child.type)) redirects.push(child);
    else if (child.type === 'comment') noteComment(state, task.script, child);
    else if (child.named) state.problem(`unexpected ${child.type} in a redirected statement`);
  }
  const all = [...redirects, ...task.trailing];
  if (!body) {
    // `> file` alone: a command with no words (truncates/creates the file).
    buildCommand(state, task, undefined, all);
    return;
  }
  if (body.type === 'command') {
    buildCommand(state, { ...task, node: body }, body, all);
    return;
  }
  state.stack.push({ ...task, node: body, trailing: all });
}

/** Containers whose statements run in a subshell. */
const SUBSHELL_CONTAINERS = new Set(['subshell', 'command_substitution', 'process_substitution']);

function structuralVia(type: string, first: SyntaxNode | undefined): string | undefined {
  if (type === 'subshell') return 'subshell';
  if (type === 'compound_statement') return first?.type === '((' ? undefined : 'group';
  if (type === 'function_definition') return 'function';
  if (type === 'pipeline') return 'pipeline';
  return undefined;
}

/**
 * Any container: program, list, pipeline, subshell, group, if/while/for/case, function, substitution
 * bodies, ERROR nodes. Statement children become tasks in source order; word children (for-in
 * values, case subjects, arithmetic) are read for their substitutions; redirects of compound commands
 * are inherited by every command inside.
 */
function processSequence(state: SplitState, task: Extract<Task, { kind: 'stmt' }>): void {
  const { node, script } = task;
  const children = node.children;
  if (node.type === 'compound_statement' && children[0]?.type === '((') {
    buildPseudoCommand(state, task);
    return;
  }
  const isPipeline = node.type === 'pipeline';
  const passesTrailing = node.type === 'list' || isPipeline || node.type === 'negated_command';
  let via = task.ctx.via;
  const sv = structuralVia(node.type, children[0]);
  if (sv) via = childVia(via, sv);
  const inSubshell =
    task.ctx.inSubshell || SUBSHELL_CONTAINERS.has(node.type) || node.type === 'function_definition';
  let inherited = task.ctx.inherited;
  const ownRedirects: Redirect[] = [];
  if (!passesTrailing && task.trailing.length > 0)
    ownRedirects.push(...redirectsFor(state, script, task.trailing, task.ctx));
  const own = children.some((c) => REDIRECT_TYPES.has(c.type))
    ? children.filter((c) => REDIRECT_TYPES.has(c.type))
    : NO_NODES;
  if (own.length > 0 && node.type !== 'command_substitution') {
    ownRedirects.push(...redirectsFor(state, script, own, task.ctx));
  } else if (own.length > 0) {
    // `$(< file)`: bash reads the file; modelled as `cat < file` so effects see the read.
    const redirects = redirectsFor(state, script, own, task.ctx);
    buildPseudoCommand(state, { ...task, ctx: subshellCtx(task.ctx, via), trailing: [] }, redirects);
  }
  if (ownRedirects.length > 0) {
    inherited = [...inherited, ...ownRedirects];
    // A compound command that runs no command still opens its redirections (`case x in esac > f`
    // truncates f): they become a command with no words when nothing inside emits one.
    state.stack.push({ kind: 'emit-if-none', since: state.commands.length, cmd: holder(task, inherited) });
  }
  if (node.type === 'for_statement') recordBinding(state, script, node);
  else if (node.type === 'c_style_for_statement') noteArithmeticHead(state, script, node);
  // The context of the children: the statement's own unless something changes (contexts are never
  // modified once made, so children may share one).
  let ctx: Ctx = task.ctx;
  if (
    via !== ctx.via ||
    inSubshell !== ctx.inSubshell ||
    inherited !== ctx.inherited ||
    node.type === 'function_definition'
  )
    ctx = newCtx(
      via,
      inSubshell,
      inherited,
      task.ctx.wrappers,
      functionName(node, script) ?? ctx.inFunction,
      ctx.background,
    );
  const stageCtx: Ctx = isPipeline ? subshellCtx(ctx) : ctx;

  interface Planned {
    node: SyntaxNode;
    connector: string;
    background: boolean;
  }
  const planned: Planned[] = [];
  let pending: string | undefined;
  let prevEnd = node.start;
  let first = true;
  const nested: NestedBody[] = [];
  for (const child of children) {
    if (!child.named) {
      const sep = SEPARATORS[child.type];
      if (sep !== undefined) {
        if (sep === '&' && planned.length > 0) (planned[planned.length - 1] as Planned).background = true;
        pending = sep;
      } else if (!first) pending ??= ';';
      prevEnd = child.end;
      continue;
    }
    if (STATEMENT_TYPES.has(child.type)) {
      let connector: string;
      if (first) connector = task.connector;
      else if (pending !== undefined && pending !== ';') connector = pending;
      else if (script.source.slice(prevEnd, child.start).includes('\n')) connector = '\n';
      else connector = pending ?? ';';
      planned.push({ node: child, connector, background: false });
      first = false;
      pending = undefined;
      prevEnd = child.end;
      continue;
    }
    prevEnd = child.end;
    if (child.type === 'comment') {
      noteComment(state, script, child);
      continue;
    }
    if (REDIRECT_TYPES.has(child.type)) continue;
    if (
      child.type === 'do_group' ||
      child.type === 'else_clause' ||
      child.type === 'elif_clause' ||
      child.type === 'case_item' ||
      child.type === 'ERROR'
    ) {
      planned.push({ node: child, connector: first ? task.connector : ';', background: false });
      first = false;
      continue;
    }
    if (child.type === 'compound_statement' || child.type === 'subshell') {
      planned.push({ node: child, connector: first ? task.connector : ';', background: false });
      first = false;
      continue;
    }
    // Words and expressions: for-in lists, case subjects and patterns, c-style for clauses,
    // function names. Read them for the substitutions they contain.
    if (WORD_TYPES.has(child.type)) readWord(script.source, child, state.sink(script, nested));
    else collectDynamic(script.source, child, 'none', state.sink(script, nested));
  }
  // Run order: the substitution bodies of the words read above (the last one first), then the
  // statements in source order; the stack pops the last task pushed first.
  for (let k = planned.length - 1; k >= 0; k--) {
    const p = planned[k] as Planned;
    const last = k === planned.length - 1;
    const childCtx = p.background
      ? newCtx(stageCtx.via, true, stageCtx.inherited, stageCtx.wrappers, stageCtx.inFunction, true)
      : stageCtx;
    state.stack.push({
      kind: 'stmt',
      node: p.node,
      script,
      ctx: childCtx,
      connector: p.connector,
      trailing: last && passesTrailing ? task.trailing : [],
    });
  }
  for (const n of nested) state.stack.push(nestedBodyTask(script, n));
}

/** The name `f() { …; }` defines, for the context of its body; undefined for any other node. */
function functionName(node: SyntaxNode, script: Script): string | undefined {
  if (node.type !== 'function_definition') return undefined;
  const name = node.children.find((c) => c.field === 'name');
  return name ? script.source.slice(name.start, name.end) : undefined;
}

/** The redirect children of a node that has none; never written to. */
const NO_NODES: SyntaxNode[] = [];

/** `for NAME in …` / `select NAME in …`: the variable it binds, for the checks. */
function recordBinding(state: SplitState, script: Script, node: SyntaxNode): void {
  const variable = node.children.find((c) => c.field === 'variable');
  if (!variable) return;
  const values = node.children.filter((c) => c.field === 'value');
  const dynamic =
    values.length === 0 || values.some((v) => /[$`]|[<>]\(/.test(script.source.slice(v.start, v.end)));
  const [start, end] = state.span(script, node.start, node.end);
  state.bindings.push({
    name: script.source.slice(variable.start, variable.end),
    via: node.children[0]?.type === 'select' ? 'select' : 'for',
    dynamic,
    values: values.map((v) => script.source.slice(v.start, v.end)).join(' '),
    start,
    end,
    depth: script.depth,
  });
}

/** The `((… ))` head of a C-style for loop, noted as arithmetic for the checks. */
function noteArithmeticHead(state: SplitState, script: Script, node: SyntaxNode): void {
  const open = node.children.find((c) => c.type === '((');
  const close = node.children.find((c) => c.type === '))');
  if (!open || !close) return;
  const [start, end] = state.span(script, open.start, close.end);
  state.notes.push({
    kind: 'arithmetic-command',
    text: script.source.slice(open.start, close.end),
    start,
    end,
    context: 'none',
    depth: script.depth,
  });
}

/** The word-less command that carries a compound command's redirections (see processSequence). */
function holder(task: Extract<Task, { kind: 'stmt' }>, redirects: Redirect[]): SimpleCommand {
  const { node, script } = task;
  const [start, end] = script.range ?? [node.start, node.end];
  return {
    argv: [],
    fullArgv: [],
    assignments: [],
    wrappers: [...task.ctx.wrappers],
    redirects,
    raw: script.source.slice(node.start, node.end),
    via: task.ctx.via,
    start,
    end,
    connector: task.connector,
    inSubshell: task.ctx.inSubshell,
    depth: script.depth,
  };
}

/** Redirect nodes of a compound command → Redirects (extra destinations are a syntax error in bash). */
function redirectsFor(state: SplitState, script: Script, nodes: SyntaxNode[], ctx: Ctx): Redirect[] {
  const out: Redirect[] = [];
  for (const n of nodes) {
    const r = redirectFromNode(state, script, n, [], ctx);
    if (r.extraWords.length > 0) {
      state.problem('words after the redirection of a compound command (bash rejects this)');
    }
    if (r.redirect) out.push(r.redirect);
    if (r.extraRedirects) out.push(...r.extraRedirects);
    for (const t of [...r.continuations].reverse()) state.stack.push(t);
    for (const t of r.nestedTasks) state.stack.push(t);
  }
  return out;
}
