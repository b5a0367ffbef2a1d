/**
 * Bash parsing with web-tree-sitter 0.27.2 + the tree-sitter-bash 0.25.1 wasm (stack.md §4).
 *
 * Sequence: `initShellParser()` once (async: loads both wasm files, idempotent) → `parseBash(source)`
 * (sync) copies the tree-sitter CST into plain JS objects (`SyntaxNode`) with one TreeCursor walk and
 * frees the wasm tree at once, so callers never hold wasm memory and never call `delete()`.
 *
 * Offsets (`start`/`end`) are JavaScript string indices (UTF-16 code units) into `source`; for ASCII
 * input they equal byte offsets. web-tree-sitter parses JS strings as UTF-16, so these are exact.
 */
import { createRequire } from 'node:module';
import type { Language as TsLanguage, Parser as TsParser } from 'web-tree-sitter';

/** One node of the concrete syntax tree, as plain data. */
export interface SyntaxNode {
  /** Grammar type (`command`, `word`, `"&&"` tokens are their literal text). */
  type: string;
  /** False for anonymous tokens (`&&`, `;`, `$(`, quotes …). */
  named: boolean;
  /** True for a node tree-sitter inserted to recover from an error (e.g. an unclosed `$(`). */
  missing: boolean;
  /** Field name under the parent (`name`, `argument`, `redirect`, `body`, `destination` …), or null. */
  field: string | null;
  /** Start/end offsets in the parsed source (UTF-16 code units, end exclusive). */
  start: number;
  end: number;
  children: SyntaxNode[];
  parent: SyntaxNode | null;
}

/** Result of `parseBash`. */
export interface ParsedBash {
  source: string;
  root: SyntaxNode;
  /** True when any ERROR or MISSING node occurs anywhere in the tree. */
  hasError: boolean;
  /** Number of nodes copied (for caps and diagnostics). */
  nodeCount: number;
}

/** Input size cap for parsing (issue 4: "input over a size cap" fails closed). 64 KiB of UTF-16 units. */
export const MAX_PARSE_INPUT_CHARS = 64 * 1024;

let parser: TsParser | undefined;
let initPromise: Promise<void> | undefined;

/**
 * Loads web-tree-sitter and the bash grammar. Idempotent and safe to call concurrently: every call
 * after the first returns the same promise.
 * @throws Error when a wasm file cannot be found or loaded (a broken install).
 */
export function initShellParser(): Promise<void> {
  initPromise ??= (async () => {
    const require = createRequire(import.meta.url);
    const mod = (await import('web-tree-sitter')) as {
      Parser: typeof TsParser;
      Language: typeof TsLanguage;
    };
    const runtimeWasm = require.resolve('web-tree-sitter/web-tree-sitter.wasm');
    await mod.Parser.init({ locateFile: () => runtimeWasm });
    const language = await mod.Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const instance = new mod.Parser();
    instance.setLanguage(language);
    parser = instance;
  })();
  initPromise.catch(() => {
    initPromise = undefined;
  });
  return initPromise;
}

/** True once `initShellParser()` has resolved. */
export function isShellParserReady(): boolean {
  return parser !== undefined;
}

/**
 * Parses `source` as bash and returns a plain copy of the tree.
 * @throws Error when `initShellParser()` has not been awaited, or when the parser returns no tree.
 *   Callers enforce `MAX_PARSE_INPUT_CHARS` before calling (parseBash itself accepts any size).
 */
export function parseBash(source: string): ParsedBash {
  if (!parser) {
    throw new Error(
      'Shell parser is not initialised: await initShellParser() before parseBash()/parseAndSplit().',
    );
  }
  const tree = parser.parse(source);
  if (!tree) throw new Error('tree-sitter returned no tree for the command.');
  try {
    const cursor = tree.walk();
    try {
      return copyTree(source, cursor);
    } finally {
      cursor.delete();
    }
  } finally {
    tree.delete();
  }
}

type Cursor = ReturnType<NonNullable<ReturnType<TsParser['parse']>>['walk']>;

/** Iterative pre-order copy with one cursor (no recursion: deep trees must not overflow the stack). */
function copyTree(source: string, cursor: Cursor): ParsedBash {
  let hasError = false;
  let nodeCount = 0;
  const make = (parent: SyntaxNode | null): SyntaxNode => {
    const type = cursor.nodeType;
    const missing = cursor.nodeIsMissing;
    if (missing || type === 'ERROR') hasError = true;
    nodeCount++;
    const node: SyntaxNode = {
      type,
      named: cursor.nodeIsNamed,
      missing,
      field: cursor.currentFieldName,
      start: cursor.startIndex,
      end: cursor.endIndex,
      children: [],
      parent,
    };
    if (parent) parent.children.push(node);
    return node;
  };
  const root = make(null);
  let current = root;
  for (;;) {
    if (cursor.gotoFirstChild()) {
      current = make(current);
      continue;
    }
    for (;;) {
      if (cursor.gotoNextSibling()) {
        current = make(current.parent);
        break;
      }
      if (!cursor.gotoParent()) return { source, root, hasError, nodeCount };
      current = current.parent ?? root;
    }
  }
}

/** Source text of a node. */
export function nodeText(source: string, node: SyntaxNode): string {
  return source.slice(node.start, node.end);
}
