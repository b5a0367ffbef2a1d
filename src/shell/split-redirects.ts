/**
 * Redirects of one command: a file, heredoc or herestring redirect node → its `Redirect`, the
 * destinations after the first (really arguments: tree-sitter-bash#233, docs/dependencies.md "Bash
 * parsing"), the substitution bodies inside it and the statements tree-sitter hung inside a heredoc
 * redirect. Used by split-command.ts.
 */
import type { SyntaxNode } from './parser.js';
import {
  type Ctx,
  nestedBodyTask,
  newCtx,
  type Script,
  type SplitState,
  subshellCtx,
  type Task,
} from './split-state.js';
import type { Heredoc } from './heredocs.js';
import type { Redirect, Word } from './types.js';
import { collectDynamic, type NestedBody, readWord, readWords, staticWord } from './words.js';
import { rescanRegion } from './words-rescan.js';

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

/** The tasks for the command bodies nested in a word. */
export function nestedToTasks(script: Script, nested: NestedBody[]): Task[] {
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
  const contCtx: Ctx = ctx ?? newCtx('top', false, [], [], undefined, undefined);
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
        ctx: subshellCtx(contCtx),
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
