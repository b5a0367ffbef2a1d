/**
 * Bash parsing with web-tree-sitter 0.27.2 + the tree-sitter-bash 0.25.1 wasm (docs/dependencies.md "Bash parsing").
 *
 * Sequence: `initShellParser()` once (async: loads both wasm files, idempotent) → `parseBash(source)`
 * (sync, within the work budget of budget.ts) copies the tree-sitter CST into plain JS objects
 * (`SyntaxNode`, parser-copy.ts) and frees the wasm tree at once, so callers never hold wasm memory
 * and never call `delete()`.
 *
 * Offsets (`start`/`end`) are JavaScript string indices (UTF-16 code units) into `source`; for ASCII
 * input they equal byte offsets. web-tree-sitter parses JS strings as UTF-16, so these are exact.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type {
  Edit as TsEdit,
  Language as TsLanguage,
  Parser as TsParser,
  Tree as TsTree,
} from 'web-tree-sitter';
import { activeBudget, PARSE_BUDGET } from './budget.js';
import type { CopyMode } from './copy-mode.js';
import { createTreeCopier, type TreeCopier } from './parser-copy.js';
import { admitsLiteral, literalCommandTree } from './literal-command.js';
import { BoundaryScanner, lexicalCut, operatorRunAt, statementBoundaryBefore } from './parse-prefix.js';

export { longPipelineAt } from './parse-prefix.js';

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
  /**
   * Set when the parse was stopped by its budget (budget.ts): the tree covers only
   * `source.slice(0, cut.readChars)` (or nothing, when even that could not finish), and `reason`
   * says why. A cut tree is never a complete analysis.
   */
  cut?: { readChars: number; reason: string };
}

/** Input size cap for parsing (fails closed). 64 KiB of UTF-16 units. */
export const MAX_PARSE_INPUT_CHARS = 64 * 1024;

/** Characters handed to tree-sitter per read (each read is one unit of the parse's work budget). */
const READ_CHUNK_CHARS = 1024;

/**
 * A read that starts inside the text already read (tree-sitter-bash re-reads from the start of
 * every heredoc body line, about 45 reads per KiB of body) is served only up to the furthest
 * character read so far, but at least this many characters: web-tree-sitter copies every character
 * of a chunk into wasm memory, and on such bodies the copies of text it never looked at were a
 * third of the parse. A forward read, or a far-back one, still gets a whole chunk.
 */
const RE_READ_MIN_CHARS = 128;

let parser: TsParser | undefined;
let copier: TreeCopier | undefined;
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
    // Emscripten makes this options object the module itself (parser-copy.ts uses its exports).
    const moduleObject: Record<string, unknown> = { locateFile: () => runtimeWasm };
    await mod.Parser.init(moduleObject);
    // The grammar's bytes, not its path: given a path, web-tree-sitter reads it through
    // `import('fs/promises')`, which starts Node's ES module loader (a few ms of every start).
    const lang = await mod.Language.load(
      readFileSync(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm')),
    );
    const instance = new mod.Parser();
    instance.setLanguage(lang);
    copier = createTreeCopier(lang, moduleObject);
    parser = instance;
  })();
  initPromise.catch(() => {
    initPromise = undefined;
  });
  return initPromise;
}

/** True when trees are copied the fast way (parser-copy.ts); false before init or after a fallback. */
export function parserCopiesFast(): boolean {
  return copier?.fast === true;
}

/** Calls of `parseBash` that found no parser (a line the literal gate did not admit). */
let parsesMissed = 0;

/**
 * Runs `analyse` for `command`, loading the grammar first unless the line is literal
 * (literal-command.ts): then it runs without the grammar, and if any parse inside it still needed
 * tree-sitter (it threw, or a check caught the error) the grammar is loaded and `analyse` runs again,
 * so the result is always the one the full parser gives.
 */
export async function withShellParser<T>(command: string, analyse: () => T | Promise<T>): Promise<T> {
  if (!parser && admitsLiteral(command)) {
    const before = parsesMissed;
    try {
      const result = await analyse();
      if (parsesMissed === before) return result;
    } catch (error) {
      if (parsesMissed === before) throw error;
    }
  }
  await initShellParser();
  return analyse();
}

/** True once `initShellParser()` has resolved. */
export function isShellParserReady(): boolean {
  return parser !== undefined;
}

/**
 * Parses `source` as bash and returns a plain copy of the tree.
 *
 * Budget (budget.ts, docs/analysis-budget.md): tree-sitter reads the text in chunks of
 * `READ_CHUNK_CHARS` through a callback that counts the reads. A read past the work budget
 * (`PARSE_BUDGET`: reads in all, and reads that jump far back, which is what tree-sitter's slow
 * error recovery does) or after the active budget's deadline is answered with end of input, so
 * tree-sitter finishes the tree of the text read so far, and the result carries `cut`. If finishing
 * takes more than `PARSE_BUDGET.finishProgressCalls` progress reports (or the deadline passes), the
 * parse is cancelled and the tree is empty. Only the deadline depends on the clock; the work caps
 * give the same cut on every run. Without an active budget the work caps still apply.
 * @param mode - how the tree is copied out of wasm (parser-copy.ts): `fast` (default) or `portable`
 *   (the public cursor API only; the tests compare both).
 * @param only - copy only the subtrees of these node types, as children of the root (parser-copy.ts
 *   `TreeCopier.copy`), for a caller that only searches the tree for them; ignored when the budget
 *   cut the parse (the whole prefix tree is copied) and on the portable path.
 * @param shallow - with `only`: node types kept with their direct children only (parser-copy.ts).
 * @throws Error when `initShellParser()` has not been awaited, or when tree-sitter fails without
 *   having been cancelled. Callers enforce `MAX_PARSE_INPUT_CHARS` before calling.
 */
export function parseBash(
  source: string,
  mode: CopyMode = 'fast',
  only?: ReadonlySet<string>,
  shallow?: ReadonlySet<string>,
): ParsedBash {
  const literal = literalCommandTree(source);
  if (literal) return literal;
  if (!parser) {
    parsesMissed++;
    throw new Error(
      'Shell parser is not initialised: await initShellParser() before parseBash()/parseAndSplit().',
    );
  }
  const budget = activeBudget();
  const deadline = budget?.deadline ?? Number.POSITIVE_INFINITY;
  // tree-sitter-bash parses long pipelines and deeply nested `${` slowly: the text from the cut on
  // is not handed to the parser (lexicalCut).
  // A long run of control operators (bash rejects the line there; tree-sitter's error recovery
  // over it is slow) is not handed to the parser either (operatorRunAt).
  const pipelineOrExpansion = lexicalCut(
    source,
    PARSE_BUDGET.maxPipelineStages,
    PARSE_BUDGET.maxExpansionDepth,
  );
  const operators = operatorRunAt(source, PARSE_BUDGET.maxOperatorRun);
  // …and a long run of `{` / `}` (tree-sitter reads each as a possible brace expression: about
  // five times the work per KiB of valid bash, and no real command has such a run).
  const braces = source.search(BRACE_RUN);
  let lexical: { at: number; kind: CutKind } | undefined = pipelineOrExpansion;
  if (operators >= 0 && (lexical === undefined || operators < lexical.at))
    lexical = { at: operators, kind: 'operators' };
  if (braces >= 0 && (lexical === undefined || braces < lexical.at)) lexical = { at: braces, kind: 'braces' };
  let run = parseText(parser, source, lexical ? lexical.at : source.length, deadline);
  const firstProgress = run.progress;
  if (!run.cut && lexical) run.cut = lexical.kind;
  // More nodes than the analysis takes: only a prefix is kept, ending before a statement separator
  // (parse-prefix.ts) when there is one before node `maxNodes`, else where that node starts.
  const nodesAt = run.tree ? prefixBeforeNode(run.tree, PARSE_BUDGET.maxNodes) : undefined;
  const boundary = nodesAt === undefined ? -1 : statementBoundaryBefore(source, nodesAt);
  if (run.tree && nodesAt !== undefined) {
    const prefixEnd = boundary > 0 ? boundary : nodesAt;
    const nodesCut: CutKind = run.cut === 'progress' ? 'progress+nodes' : 'nodes';
    // Copied from this tree (prefix-copy.ts) when the prefix's statements are parts of it, which
    // is the common case: no second parse.
    const prefix = (copier as TreeCopier).copyPrefix(run.tree, mode, prefixEnd);
    if (prefix) {
      run.tree.delete();
      const keptEnd = prefix.root.end;
      const readChars = source.slice(keptEnd, prefixEnd).trim() === '' ? prefixEnd : keptEnd;
      prefix.root.end = readChars;
      const cutInfo = { readChars, reason: cutReason(nodesCut, source.length, readChars, true) };
      if (budget) {
        budget.peakProgressReports = Math.max(budget.peakProgressReports, firstProgress);
        budget.peakNodes = Math.max(budget.peakNodes, prefix.nodeCount);
        budget.stopWith('parse', cutInfo.reason);
      }
      return { source, ...prefix, hasError: true, cut: cutInfo };
    }
  }
  // Otherwise the prefix is parsed again. One statement (no separator before node `maxNodes`) that
  // the copy cannot cut down (a loop, a `case` …) and of up to twice the cap is kept whole: its
  // re-parse reuses nothing and costs more than the analysis of the nodes it would save.
  const oneStatement =
    run.tree && boundary <= 0 && prefixBeforeNode(run.tree, 2 * PARSE_BUDGET.maxNodes) === undefined;
  if (run.tree && nodesAt !== undefined && !oneStatement) {
    const prefixEnd = boundary > 0 ? boundary : nodesAt;
    const nodesCut: CutKind = run.cut === 'progress' ? 'progress+nodes' : 'nodes';
    // Incrementally: the old tree, with everything from the prefix's end on deleted, lends
    // tree-sitter its subtrees before that point (far cheaper than a second parse from scratch).
    const old = run.tree;
    const oldEnd = Math.max(run.readChars, old.rootNode.endIndex);
    // (`edit` reads only these fields; web-tree-sitter is loaded lazily, so no `Edit` instance)
    const at = pointAt(source, prefixEnd);
    const edit = {
      startIndex: prefixEnd,
      oldEndIndex: oldEnd,
      newEndIndex: prefixEnd,
      startPosition: at,
      oldEndPosition: pointAt(source, oldEnd),
      newEndPosition: at,
    };
    old.edit(edit as TsEdit);
    const again = parseText(parser, source, prefixEnd, deadline, old);
    old.delete();
    // A prefix whose own tree is still over the cap (error recovery adds nodes) is not kept.
    if (again.tree && prefixBeforeNode(again.tree, PARSE_BUDGET.maxNodes) !== undefined) {
      again.tree.delete();
      again.tree = null;
    }
    run = { ...again, cut: again.cut === 'deadline' ? 'deadline' : nodesCut };
  }
  const { tree, cut, readChars } = run;
  if (budget) {
    budget.peakProgressReports = Math.max(budget.peakProgressReports, firstProgress);
    if (tree) budget.peakNodes = Math.max(budget.peakNodes, tree.rootNode.descendantCount);
  }
  const cutInfo = cut
    ? { readChars: tree ? readChars : 0, reason: cutReason(cut, source.length, readChars, tree !== null) }
    : undefined;
  if (cut === 'deadline')
    budget?.expired(); // records "analysis did not finish within N ms"
  else if (cutInfo) budget?.stopWith('parse', cutInfo.reason);
  if (!tree) {
    parser.reset();
    if (!cutInfo) throw new Error('tree-sitter returned no tree for the command.');
    const root: SyntaxNode = {
      type: 'program',
      named: true,
      missing: false,
      field: null,
      start: 0,
      end: 0,
      children: [],
      parent: null,
    };
    return { source, root, hasError: true, nodeCount: 1, cut: cutInfo };
  }
  try {
    // A tree the budget cut is always copied whole: its prefix is what the analysis keeps.
    const copied = cutInfo
      ? (copier as TreeCopier).copy(tree, mode)
      : (copier as TreeCopier).copy(tree, mode, only, shallow);
    const result: ParsedBash = { source, ...copied };
    return cutInfo ? { ...result, hasError: true, cut: cutInfo } : result;
  } finally {
    tree.delete();
  }
}

/** `PARSE_BUDGET.maxBraceRun + 1` braces in a row. */
const BRACE_RUN = new RegExp(`[{}]{${PARSE_BUDGET.maxBraceRun + 1}}`);

/** Why a parse stopped early: a work cap of `PARSE_BUDGET`, the deadline, or a lexical cut. */
type CutKind =
  | 'work'
  | 'progress'
  | 'nodes'
  | 'progress+nodes'
  | 'deadline'
  | 'pipeline'
  | 'expansion'
  | 'operators'
  | 'braces';

/** One tree-sitter parse within the budget: its tree (null when cancelled), why it was cut, how far it read. */
interface TextParse {
  tree: TsTree | null;
  cut: CutKind | undefined;
  /** Characters of `source` handed to tree-sitter (the tree covers at most these). */
  readChars: number;
  /** Progress reports before the cut (all of them when not cut). */
  progress: number;
}

/**
 * Parses `source.slice(0, visible)` through the read callback and the progress callback, within
 * the work caps of `PARSE_BUDGET` (reads, far-back reads, progress reports) and `deadline`: past
 * any of them the reads answer end of input, so tree-sitter finishes the tree of what it has read;
 * if finishing takes more than `finishProgressCalls` reports (or the deadline passes) the parse is
 * cancelled (`tree` null).
 */
function parseText(
  p: TsParser,
  source: string,
  visible: number,
  deadline: number,
  oldTree: TsTree | null = null,
): TextParse {
  const kib = source.length / 1024;
  const maxReads = PARSE_BUDGET.readsBase + PARSE_BUDGET.readsPerKiB * kib;
  const maxFarBack = PARSE_BUDGET.farBackBase + PARSE_BUDGET.farBackPerKiB * kib;
  let reads = 0;
  let farBack = 0;
  let readChars = 0;
  let progress = 0;
  let cut: CutKind | undefined;
  let finishCalls = 0;
  const boundaries = new BoundaryScanner(source);
  const read = (index: number): string => {
    if (cut || index >= visible) return '';
    reads++;
    if (readChars - index > PARSE_BUDGET.farBackChars) farBack++;
    if (reads > maxReads || farBack > maxFarBack) cut = 'work';
    else if (performance.now() > deadline) cut = 'deadline';
    if (cut) return '';
    const ahead = index < readChars ? Math.max(readChars - index, RE_READ_MIN_CHARS) : READ_CHUNK_CHARS;
    let end = Math.min(visible, index + Math.min(ahead, READ_CHUNK_CHARS));
    if (end > readChars && end < visible) {
      // A chunk that reads further ends at the last statement boundary in the new text, if any:
      // when a cap stops the reads there, the text tree-sitter has ends with a complete statement.
      const boundary = boundaries.advance(end);
      if (boundary > readChars) end = boundary;
    }
    // never split a surrogate pair between two reads
    if (end < visible && (source.charCodeAt(end - 1) & 0xfc00) === 0xd800) end++;
    if (end > readChars) readChars = end;
    return source.slice(index, end);
  };
  const progressCallback = (): boolean => {
    if (!cut) {
      // Past the cap the next read answers end of input: tree-sitter parses the rest of the text
      // it holds, which ends at a statement boundary when there was one, and finishes the tree
      // (which includes balancing it: 100–300 more reports on the benchmark's shapes).
      if (++progress > PARSE_BUDGET.maxProgressReports) cut = 'progress';
      else if (performance.now() <= deadline) return false;
      else cut = 'deadline';
    }
    const finish = cut === 'progress' ? PARSE_BUDGET.progressFinishCalls : PARSE_BUDGET.finishProgressCalls;
    return ++finishCalls > finish || performance.now() > deadline;
  };
  const tree = p.parse(read, oldTree, { progressCallback });
  if (!tree) p.reset();
  return { tree, cut, readChars, progress };
}

/** Row and column (UTF-16 units) of `index` in `source`, for a tree-sitter edit. */
function pointAt(source: string, index: number): { row: number; column: number } {
  let row = 0;
  let lineStart = 0;
  for (let nl = source.indexOf('\n'); nl >= 0 && nl < index; nl = source.indexOf('\n', nl + 1)) {
    row++;
    lineStart = nl + 1;
  }
  return { row, column: index - lineStart };
}

/**
 * When `tree` has more than `maxNodes` nodes (named and anonymous, the ones the copy makes), the
 * offset where node number `maxNodes` (in the copy's order, the root being 0) starts; otherwise
 * undefined. Both are answered from the counts tree-sitter keeps per subtree, without a walk.
 */
function prefixBeforeNode(tree: TsTree, maxNodes: number): number | undefined {
  if (tree.rootNode.descendantCount <= maxNodes) return undefined;
  const cursor = tree.walk();
  try {
    cursor.gotoDescendant(maxNodes);
    return cursor.startIndex;
  } finally {
    cursor.delete();
  }
}

function cutReason(cut: CutKind, length: number, readChars: number, kept: boolean): string {
  const where = `after reading ${readChars} of ${length} characters`;
  const progress = `more than ${PARSE_BUDGET.maxProgressReports} progress reports of tree-sitter (the work cap of one parse)`;
  const nodes = `more than ${PARSE_BUDGET.maxNodes} syntax nodes (the node cap of one parse)`;
  const prefix = kept
    ? `only the first ${readChars} of ${length} characters are analysed`
    : `its prefix did not parse within the caps either, so none of the ${length} characters is analysed`;
  if (cut === 'progress') return `${progress}: ${prefix}`;
  if (cut === 'nodes') return `${nodes}: ${prefix}`;
  if (cut === 'progress+nodes') return `${progress}, then ${nodes}: ${prefix}`;
  if (cut === 'deadline') return `the parser was stopped by the analysis deadline ${where}`;
  if (cut === 'expansion')
    return `\${…} nested more than ${PARSE_BUDGET.maxExpansionDepth} levels deep: only the first ${readChars} of ${length} characters are parsed`;
  if (cut === 'braces')
    return `a run of more than ${PARSE_BUDGET.maxBraceRun} braces: only the first ${readChars} of ${length} characters are parsed`;
  if (cut === 'operators')
    return `${PARSE_BUDGET.maxOperatorRun} or more control operators in a row (bash rejects the line there): only the first ${readChars} of ${length} characters are parsed`;
  if (cut === 'pipeline')
    return `a pipeline of more than ${PARSE_BUDGET.maxPipelineStages} stages: only the first ${readChars} of ${length} characters are parsed`;
  return `the parser gave up ${where}: tree-sitter re-reads this input too often (its error recovery is slow on inputs like this)`;
}

/** Source text of a node. */
export function nodeText(source: string, node: SyntaxNode): string {
  return source.slice(node.start, node.end);
}
