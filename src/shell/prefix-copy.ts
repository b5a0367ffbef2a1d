/**
 * The prefix of a tree past the node cap (budget.ts `PARSE_BUDGET.maxNodes`, parser.ts,
 * docs/analysis-budget.md "Work caps on valid bash"), copied from the tree tree-sitter already
 * built instead of parsing the prefix again.
 *
 * The prefix ends at `limit` (a statement boundary, or where node `maxNodes` starts). Every
 * top-level node that ends by `limit` is copied whole. The one that spans `limit` is cut down to
 * the tree a parse of the text up to `limit` gives, for the shapes where that tree is a part of
 * the whole one:
 *  - a `list` (`a && b || c`, left-nested): the operands before `limit`;
 *  - a `pipeline` (flat): the stages before `limit`;
 *  - a `command`: its name and the words, assignments and redirections that end by `limit` (one
 *    that spans it is left out: the prefix ends before that word);
 *  - a `redirected_statement`: its body (itself cut down when it spans `limit`) and the
 *    redirections before `limit`.
 * A node with one part left is replaced by that part (a parse of `a &&` up to `&&` is `a`, not a
 * list of one). When any other node spans `limit` (a loop, a `case`, a group, a word: a parse of
 * the prefix would have a part of it, with an error), there is no copy and the caller parses the
 * prefix again. budget-caps.test.ts compares the copy with a parse of the prefix alone on the
 * benchmark's shapes. The prefix is always analysed as cut (the decision asks in every mode).
 */
import type { SyntaxNode } from './parser.js';

/** A tree cursor as the prefix copy moves it (parser-copy.ts adapts both of its copy paths). */
export interface PrefixCursor {
  type(): string;
  named(): boolean;
  field(): string | null;
  start(): number;
  end(): number;
  firstChild(): boolean;
  nextSibling(): boolean;
  /** The node under the cursor without its children (`children` empty, not added to `parent`). */
  node(parent: SyntaxNode | null): SyntaxNode;
  /** The node under the cursor with its whole subtree (not added to `parent`); the cursor ends back on it. */
  subtree(parent: SyntaxNode | null): SyntaxNode;
}

/**
 * The root (cursor on it) with the children before `limit`, as above; undefined when none is left.
 * The root's `end` is the end of its last kept child (the caller sets the prefix's end). The cursor
 * is left anywhere.
 */
export function copyPrefix(c: PrefixCursor, limit: number): SyntaxNode | undefined {
  const root = c.node(null);
  const kept = childrenBefore(c, limit, root, true);
  if (!kept || kept.length === 0) return undefined;
  root.children = kept;
  root.end = (kept[kept.length - 1] as SyntaxNode).end;
  return root;
}

/**
 * The children of the node under the cursor (as children of `parent`) that end by `limit`, then the
 * one that spans it cut down; undefined when that one cannot be. Trailing anonymous tokens (`&&`,
 * `|`, `;`) are dropped unless `keepTokens`. The cursor is left anywhere.
 */
function childrenBefore(
  c: PrefixCursor,
  limit: number,
  parent: SyntaxNode,
  keepTokens: boolean,
): SyntaxNode[] | undefined {
  const kids: SyntaxNode[] = [];
  if (!c.firstChild()) return kids;
  do {
    if (c.end() <= limit) {
      kids.push(c.subtree(parent));
      continue;
    }
    if (c.start() < limit) {
      const part = cutDown(c, limit, parent);
      if (!part) return undefined;
      kids.push(part);
    }
    break;
  } while (c.nextSibling());
  if (!keepTokens) while (kids.length > 0 && !(kids[kids.length - 1] as SyntaxNode).named) kids.pop();
  return kids;
}

/** `part` in the place of `whole` (its field and parent). */
function replacing(part: SyntaxNode, whole: SyntaxNode): SyntaxNode {
  part.field = whole.field;
  part.parent = whole.parent;
  return part;
}

/** `node` with `kids` as its children, ending where the last one ends. */
function withChildren(node: SyntaxNode, kids: SyntaxNode[]): SyntaxNode {
  node.children = kids;
  node.end = (kids[kids.length - 1] as SyntaxNode).end;
  return node;
}

/** The node under the cursor (it starts before `limit` and ends after it) cut down to `limit`, or undefined. */
function cutDown(c: PrefixCursor, limit: number, parent: SyntaxNode): SyntaxNode | undefined {
  const type = c.type();
  if (type === 'list') return cutList(c, limit, parent);
  if (type === 'pipeline') {
    const node = c.node(parent);
    const kids = childrenBefore(c, limit, node, false);
    if (!kids || kids.length === 0) return undefined;
    if (kids.length === 1) return replacing(kids[0] as SyntaxNode, node);
    return withChildren(node, kids);
  }
  if (type === 'command' || type === 'redirected_statement') {
    // a command ends before its word that spans `limit` (words are never cut down); a redirected
    // statement's body can be cut down, a redirection that spans `limit` fails the copy
    const node = c.node(parent);
    const kids: SyntaxNode[] = [];
    if (c.firstChild())
      do {
        if (c.end() <= limit) {
          kids.push(c.subtree(node));
          continue;
        }
        if (c.start() < limit && type === 'redirected_statement') {
          const body = c.field() === 'body' ? cutDown(c, limit, node) : undefined;
          if (!body) return undefined;
          kids.push(body);
        }
        break;
      } while (c.nextSibling());
    while (kids.length > 0 && !(kids[kids.length - 1] as SyntaxNode).named) kids.pop();
    if (type === 'command')
      return kids.some((k) => k.field === 'name') ? withChildren(node, kids) : undefined;
    const body = kids.find((k) => k.field === 'body');
    if (!body) return undefined;
    return kids.length === 1 ? replacing(body, node) : withChildren(node, kids);
  }
  return undefined;
}

/**
 * A `list` cut down: tree-sitter-bash nests lists to the left (`a && b && c` is `(a && b) && c`),
 * so the lists on the left spine that span `limit` are walked down (without recursion: a chain has
 * thousands) to the deepest one; its left operand is kept whole (or cut down, when it spans
 * `limit` itself), with the operator and its right operand cut down when that is before `limit`.
 */
function cutList(c: PrefixCursor, limit: number, parent: SyntaxNode): SyntaxNode | undefined {
  const top = c.node(parent);
  let deepest = top;
  for (;;) {
    if (!c.firstChild()) return undefined;
    if (c.type() !== 'list' || c.end() <= limit) break;
    deepest = c.node(parent);
  }
  const list = deepest === top ? top : replacing(deepest, top);
  if (c.end() > limit) {
    const part = cutDown(c, limit, parent);
    return part ? replacing(part, top) : undefined;
  }
  const left = c.subtree(list);
  if (!c.nextSibling() || c.start() >= limit) return replacing(left, top);
  if (c.named() || c.end() > limit) return undefined;
  const operator = c.subtree(list);
  if (!c.nextSibling() || c.start() >= limit) return replacing(left, top);
  const right = c.end() <= limit ? c.subtree(list) : cutDown(c, limit, list);
  return right ? withChildren(list, [left, operator, right]) : undefined;
}
