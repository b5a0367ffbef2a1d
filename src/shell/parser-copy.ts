/**
 * Copies a tree-sitter tree out of wasm memory into plain `SyntaxNode` objects (parser.ts).
 *
 * Two ways, same result (parser-copy.test.ts compares them on the real and the worst-case
 * corpora):
 *  - `portable`: web-tree-sitter's public `TreeCursor`. Every property read re-sends the cursor to
 *    wasm through its transfer buffer (four stores, a call, for moves four loads back), so a node
 *    costs about a microsecond — 100 ms for the 100,000 nodes of a dense 64 KiB command.
 *  - `fast`: the same cursor functions of the web-tree-sitter 0.27 wasm module, called directly.
 *    The cursor then stays in the module's transfer buffer for the whole walk (each move function
 *    reads it there and writes it back), which makes a node about five times cheaper. No JS
 *    `TreeCursor` object exists on this path, so nothing can free the wasm cursor a second time.
 *    Used only when the module exposes every function needed (checked once at load); otherwise
 *    the copier falls back to `portable`.
 *
 * Per node, both read: type id (type name and namedness are cached per id: they depend on the
 * grammar only), field id, start and end offsets (UTF-16 code units), and `missing` for zero-width
 * nodes only (a MISSING node is always zero-width). The walk is iterative (deep trees must not
 * overflow the stack).
 */
import type { Language as TsLanguage, Tree as TsTree } from 'web-tree-sitter';
import type { SyntaxNode } from './parser.js';

import type { CopyMode } from './copy-mode.js';
import { copyPrefix, type PrefixCursor } from './prefix-copy.js';

export type { CopyMode };

/**
 * The `children` of every leaf: one shared, frozen empty array (most nodes are leaves; one array
 * fewer per leaf). Frozen, so a caller that tried to add a child to a leaf would throw instead of
 * corrupting every other leaf.
 */
const NO_CHILDREN = Object.freeze([]) as unknown as SyntaxNode[];

export interface CopiedTree {
  root: SyntaxNode;
  hasError: boolean;
  nodeCount: number;
}

export interface TreeCopier {
  /** True when the `fast` path is available (otherwise `fast` copies the portable way). */
  readonly fast: boolean;
  /**
   * @param only - when given (and the fast path is available), only the nodes of these types are
   *   copied, each with its whole subtree, as children of the root, in tree order; `hasError` and
   *   `nodeCount` still cover the whole tree. For a caller that only searches the tree for these
   *   node types.
   * @param shallow - with `only`: the nodes of these types are also kept, in the same tree order, but
   *   with their direct children only (each child a leaf, its own `children` empty); the search for
   *   `only` types goes on inside them (a node of an `only` type among those children is its kept
   *   subtree, the same object, whose parent is the root). For a caller that reads only those children (the first
   *   parse of a line with heredocs reads each `heredoc_redirect`'s operator and end, not its body).
   */
  copy(tree: TsTree, mode: CopyMode, only?: ReadonlySet<string>, shallow?: ReadonlySet<string>): CopiedTree;
  /**
   * Only the part of the tree before `limit` (prefix-copy.ts: the top-level statements that end by
   * it, and the one that spans it cut down where it can be), the root ending where its last child
   * ends; or undefined when nothing is left.
   */
  copyPrefix(tree: TsTree, mode: CopyMode, limit: number): CopiedTree | undefined;
}

/** `root` with the node count and error flag of its tree. */
function counted(root: SyntaxNode | undefined): CopiedTree | undefined {
  if (!root) return undefined;
  let nodeCount = 0;
  let hasError = false;
  const stack = [root];
  for (let n = stack.pop(); n; n = stack.pop()) {
    nodeCount++;
    if (n.type === 'ERROR' || n.missing) hasError = true;
    for (const k of n.children) stack.push(k);
  }
  return { root, hasError, nodeCount };
}

/** Appends `child` to `parent.children` (a shallow node's children are copied as the walk meets them). */
function addChild(parent: SyntaxNode, child: SyntaxNode): void {
  if (parent.children === NO_CHILDREN) parent.children = [child];
  else parent.children.push(child);
}

/** The wasm exports the fast path calls; each takes the tree's address and uses the transfer buffer. */
interface CursorExports {
  _ts_tree_root_node_wasm(tree: number): void;
  _ts_tree_cursor_new_wasm(tree: number): void;
  _ts_tree_cursor_delete_wasm(tree: number): void;
  _ts_tree_cursor_goto_first_child_wasm(tree: number): number;
  _ts_tree_cursor_goto_next_sibling_wasm(tree: number): number;
  _ts_tree_cursor_goto_parent_wasm(tree: number): number;
  _ts_tree_cursor_current_node_type_id_wasm(tree: number): number;
  _ts_tree_cursor_current_field_id_wasm(tree: number): number;
  _ts_tree_cursor_start_index_wasm(tree: number): number;
  _ts_tree_cursor_end_index_wasm(tree: number): number;
  _ts_tree_cursor_current_node_is_missing_wasm(tree: number): number;
}

const EXPORTS: readonly (keyof CursorExports)[] = [
  '_ts_tree_root_node_wasm',
  '_ts_tree_cursor_new_wasm',
  '_ts_tree_cursor_delete_wasm',
  '_ts_tree_cursor_goto_first_child_wasm',
  '_ts_tree_cursor_goto_next_sibling_wasm',
  '_ts_tree_cursor_goto_parent_wasm',
  '_ts_tree_cursor_current_node_type_id_wasm',
  '_ts_tree_cursor_current_field_id_wasm',
  '_ts_tree_cursor_start_index_wasm',
  '_ts_tree_cursor_end_index_wasm',
  '_ts_tree_cursor_current_node_is_missing_wasm',
];

/** The node facts one walk step reads, however it reads them. */
interface Reader {
  typeId(): number;
  fieldId(): number;
  start(): number;
  end(): number;
  missing(): boolean;
  firstChild(): boolean;
  nextSibling(): boolean;
  parent(): boolean;
}

/**
 * @param language - the loaded bash grammar.
 * @param moduleObject - the options object given to `Parser.init` (the Emscripten module).
 */
export function createTreeCopier(language: TsLanguage, moduleObject: Record<string, unknown>): TreeCopier {
  const exportsOk = EXPORTS.every((name) => typeof moduleObject[name] === 'function');
  const wasm = exportsOk ? (moduleObject as unknown as CursorExports) : undefined;
  const typeNames: string[] = [];
  const typeNamed: boolean[] = [];
  const fields = language.fields;
  /** The type name of a type id (cached with its namedness: both depend on the grammar only). */
  const typeOf = (id: number): string => {
    let type = typeNames[id];
    if (type === undefined) {
      type = language.types[id] || 'ERROR';
      typeNames[id] = type;
      typeNamed[id] = type === 'ERROR' || language.nodeTypeIsNamed(id);
    }
    return type;
  };

  const walk = (r: Reader): CopiedTree => {
    let hasError = false;
    let nodeCount = 0;
    const make = (parent: SyntaxNode | null): SyntaxNode => {
      const id = r.typeId();
      const type = typeOf(id);
      const start = r.start();
      const end = r.end();
      const missing = start === end && r.missing();
      if (missing || type === 'ERROR') hasError = true;
      nodeCount++;
      const node: SyntaxNode = {
        type,
        named: typeNamed[id] as boolean,
        missing,
        field: fields[r.fieldId()] ?? null,
        start,
        end,
        children: NO_CHILDREN,
        parent,
      };
      if (parent) {
        if (parent.children === NO_CHILDREN) parent.children = [node];
        else parent.children.push(node);
      }
      return node;
    };
    const root = make(null);
    let current = root;
    for (;;) {
      if (r.firstChild()) {
        current = make(current);
        continue;
      }
      for (;;) {
        if (r.nextSibling()) {
          current = make(current.parent);
          break;
        }
        if (!r.parent()) return { root, hasError, nodeCount };
        current = current.parent ?? root;
      }
    }
  };

  /** A node read through `r`, without children, not added to `parent` (the prefix copy's nodes). */
  const nodeAt = (r: Reader, parent: SyntaxNode | null): SyntaxNode => {
    const id = r.typeId();
    const type = typeOf(id);
    const start = r.start();
    const end = r.end();
    return {
      type,
      named: typeNamed[id] as boolean,
      missing: start === end && r.missing(),
      field: fields[r.fieldId()] ?? null,
      start,
      end,
      children: NO_CHILDREN,
      parent,
    };
  };

  /** The prefix copy through `r` (both paths' moves), with `subtree` copying the node under it. */
  const prefixCursor = (r: Reader, subtree: (parent: SyntaxNode | null) => SyntaxNode): PrefixCursor => ({
    type: () => typeOf(r.typeId()),
    named: () => {
      const id = r.typeId();
      typeOf(id);
      return typeNamed[id] === true;
    },
    field: () => fields[r.fieldId()] ?? null,
    start: () => r.start(),
    end: () => r.end(),
    firstChild: () => r.firstChild(),
    nextSibling: () => r.nextSibling(),
    node: (parent) => nodeAt(r, parent),
    subtree,
  });

  /** The portable subtree copy: the node under the cursor and its subtree; the cursor ends back on it. */
  const readerSubtree = (r: Reader, parent: SyntaxNode | null): SyntaxNode => {
    const top = nodeAt(r, parent);
    let current = top;
    for (;;) {
      if (r.firstChild()) {
        const child = nodeAt(r, current);
        addChild(current, child);
        current = child;
        continue;
      }
      for (;;) {
        if (current === top) return top;
        if (r.nextSibling()) {
          const up = current.parent as SyntaxNode;
          const child = nodeAt(r, up);
          addChild(up, child);
          current = child;
          break;
        }
        r.parent();
        current = current.parent as SyntaxNode;
      }
    }
  };

  const portableReader = (c: ReturnType<TsTree['walk']>): Reader => ({
    typeId: () => c.nodeTypeId,
    fieldId: () => c.currentFieldId,
    start: () => c.startIndex,
    end: () => c.endIndex,
    missing: () => c.nodeIsMissing,
    firstChild: () => c.gotoFirstChild(),
    nextSibling: () => c.gotoNextSibling(),
    parent: () => c.gotoParent(),
  });

  const portablePrefix = (tree: TsTree, limit: number): CopiedTree | undefined => {
    const c = tree.walk();
    try {
      const r = portableReader(c);
      return counted(
        copyPrefix(
          prefixCursor(r, (parent) => readerSubtree(r, parent)),
          limit,
        ),
      );
    } finally {
      c.delete();
    }
  };

  const portable = (tree: TsTree): CopiedTree => {
    const c = tree.walk();
    try {
      return walk(portableReader(c));
    } finally {
      c.delete();
    }
  };

  /**
   * The fast walk: the same steps as `walk`, with the wasm functions called directly (no `Reader`
   * indirection: each call site sees one function, which V8 inlines; about a third of the copy
   * time on a 100,000-node tree). `only`: see `TreeCopier.copy`.
   */
  const fastWalk = (
    t: number,
    w: CursorExports,
    only?: ReadonlySet<string>,
    shallow?: ReadonlySet<string>,
    limit?: number,
  ): CopiedTree | undefined => {
    const typeIdOf = w._ts_tree_cursor_current_node_type_id_wasm;
    const fieldIdOf = w._ts_tree_cursor_current_field_id_wasm;
    const startOf = w._ts_tree_cursor_start_index_wasm;
    const endOf = w._ts_tree_cursor_end_index_wasm;
    const missingOf = w._ts_tree_cursor_current_node_is_missing_wasm;
    const firstChild = w._ts_tree_cursor_goto_first_child_wasm;
    const nextSibling = w._ts_tree_cursor_goto_next_sibling_wasm;
    const gotoParent = w._ts_tree_cursor_goto_parent_wasm;
    let hasError = false;
    let nodeCount = 0;
    // The children of the nodes on the path from the subtree's root, one run after the other;
    // `begins[d]` is where the run of the node at depth d starts. A node's run becomes its
    // `children` array, of exactly its length, when the walk leaves the node (an array grown by
    // `push` keeps spare capacity: 17 slots for a node of two children, which is most of the
    // copy's garbage).
    const pending: SyntaxNode[] = [];
    const begins: number[] = [];
    const make = (parent: SyntaxNode | null): SyntaxNode => {
      const id = typeIdOf(t);
      const type = typeOf(id);
      const start = startOf(t);
      const end = endOf(t);
      const missing = start === end && missingOf(t) === 1;
      if (missing || type === 'ERROR') hasError = true;
      nodeCount++;
      const node: SyntaxNode = {
        type,
        named: typeNamed[id] as boolean,
        missing,
        field: fields[fieldIdOf(t)] ?? null,
        start,
        end,
        children: NO_CHILDREN,
        parent,
      };
      pending.push(node);
      return node;
    };
    /** Copies the node under the cursor and its subtree; the cursor ends back on that node. */
    const subtree = (parent: SyntaxNode | null): SyntaxNode => {
      const base = pending.length;
      const top = make(parent);
      pending.length = base;
      let current = top;
      for (;;) {
        if (firstChild(t) === 1) {
          begins.push(pending.length);
          current = make(current);
          continue;
        }
        for (;;) {
          if (current === top) return top;
          if (nextSibling(t) === 1) {
            current = make(current.parent);
            break;
          }
          gotoParent(t);
          const up = current.parent ?? top;
          const begin = begins.pop() as number;
          up.children = pending.slice(begin);
          pending.length = begin;
          current = up;
        }
      }
    };
    if (limit !== undefined) {
      const r: Reader = {
        typeId: () => typeIdOf(t),
        fieldId: () => fieldIdOf(t),
        start: () => startOf(t),
        end: () => endOf(t),
        missing: () => missingOf(t) === 1,
        firstChild: () => firstChild(t) === 1,
        nextSibling: () => nextSibling(t) === 1,
        parent: () => gotoParent(t) === 1,
      };
      return counted(copyPrefix(prefixCursor(r, subtree), limit));
    }
    if (!only) return { root: subtree(null), hasError, nodeCount };
    // Only the subtrees of `only` types: the other nodes are visited for `hasError` and
    // `nodeCount` (a MISSING node is always zero-width, so `missing` needs no offsets here).
    const root = make(null);
    pending.length = 0;
    const kept: SyntaxNode[] = [];
    // `shallowAt[d]`: the shallow node at depth d of the cursor's path, or undefined; its children
    // (depth d + 1) are copied as leaves.
    const shallowAt: (SyntaxNode | undefined)[] = [];
    let depth = 0;
    const visit = (): boolean => {
      const type = typeOf(typeIdOf(t));
      const holder = shallowAt[depth - 1];
      shallowAt[depth] = undefined;
      if (only.has(type)) {
        const node = subtree(root);
        kept.push(node);
        if (holder) addChild(holder, node);
        return true;
      }
      if (holder || shallow?.has(type)) {
        const node = make(holder ?? root); // counts the node, and its error
        pending.length = 0;
        if (holder) addChild(holder, node);
        if (shallow?.has(type)) {
          if (!holder) kept.push(node);
          shallowAt[depth] = node;
        }
        return false;
      }
      nodeCount++;
      if (type === 'ERROR' || missingOf(t) === 1) hasError = true;
      return false;
    };
    let skip = false;
    for (;;) {
      if (!skip && firstChild(t) === 1) {
        depth++;
        skip = visit();
        continue;
      }
      for (;;) {
        if (depth === 0) {
          if (kept.length > 0) root.children = kept;
          return { root, hasError, nodeCount };
        }
        if (nextSibling(t) === 1) {
          skip = visit();
          break;
        }
        gotoParent(t);
        depth--;
      }
    }
  };

  /** The fast copy of `tree` (`limit`: only its prefix, see `TreeCopier.copyPrefix`). */
  const fast = (
    tree: TsTree,
    w: CursorExports,
    only?: ReadonlySet<string>,
    shallow?: ReadonlySet<string>,
    limit?: number,
  ): CopiedTree | undefined => {
    const t = (tree as unknown as Record<number, unknown>)[0];
    if (typeof t !== 'number' || t === 0)
      return limit === undefined ? portable(tree) : portablePrefix(tree, limit);
    w._ts_tree_root_node_wasm(t);
    w._ts_tree_cursor_new_wasm(t);
    try {
      return fastWalk(t, w, only, shallow, limit);
    } finally {
      // The walk ends back on the root (the prefix copy: anywhere); the cursor, with its current
      // stack, is still in the buffer.
      w._ts_tree_cursor_delete_wasm(t);
    }
  };

  return {
    fast: wasm !== undefined,
    copy: (tree, mode, only, shallow) =>
      mode === 'fast' && wasm ? (fast(tree, wasm, only, shallow) as CopiedTree) : portable(tree),
    copyPrefix: (tree, mode, limit) =>
      mode === 'fast' && wasm ? fast(tree, wasm, undefined, undefined, limit) : portablePrefix(tree, limit),
  };
}
