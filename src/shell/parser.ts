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
import type { Language as TsLanguage, Parser as TsParser } from 'web-tree-sitter';
import { activeBudget, PARSE_BUDGET } from './budget.js';
import type { CopyMode } from './copy-mode.js';
import { createTreeCopier, type TreeCopier } from './parser-copy.js';
import { admitsLiteral, literalCommandTree } from './literal-command.js';

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
  const kib = source.length / 1024;
  const maxReads = PARSE_BUDGET.readsBase + PARSE_BUDGET.readsPerKiB * kib;
  const maxFarBack = PARSE_BUDGET.farBackBase + PARSE_BUDGET.farBackPerKiB * kib;
  const deadline = budget?.deadline ?? Number.POSITIVE_INFINITY;
  let reads = 0;
  let farBack = 0;
  let readChars = 0;
  let cut: 'work' | 'deadline' | 'pipeline' | 'expansion' | undefined;
  let finishCalls = 0;
  // tree-sitter-bash parses long pipelines and deeply nested `${` slowly: the text from the cut on
  // is not handed to the parser (lexicalCut).
  const lexical = lexicalCut(source, PARSE_BUDGET.maxPipelineStages, PARSE_BUDGET.maxExpansionDepth);
  const visible = lexical ? lexical.at : source.length;
  const read = (index: number): string => {
    if (cut || index >= visible) return '';
    reads++;
    if (readChars - index > PARSE_BUDGET.farBackChars) farBack++;
    if (reads > maxReads || farBack > maxFarBack) cut = 'work';
    else if (performance.now() > deadline) cut = 'deadline';
    if (cut) return '';
    const ahead = index < readChars ? Math.max(readChars - index, RE_READ_MIN_CHARS) : READ_CHUNK_CHARS;
    let end = Math.min(visible, index + Math.min(ahead, READ_CHUNK_CHARS));
    // never split a surrogate pair between two reads
    if (end < visible && (source.charCodeAt(end - 1) & 0xfc00) === 0xd800) end++;
    if (end > readChars) readChars = end;
    return source.slice(index, end);
  };
  const progressCallback = (): boolean => {
    if (!cut) {
      if (performance.now() <= deadline) return false;
      cut = 'deadline';
    }
    return ++finishCalls > PARSE_BUDGET.finishProgressCalls || performance.now() > deadline;
  };
  const tree = parser.parse(read, null, { progressCallback });
  if (!cut && lexical) cut = lexical.kind;
  const cutInfo = cut
    ? { readChars: tree ? readChars : 0, reason: cutReason(cut, source.length, readChars) }
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

function cutReason(
  cut: 'work' | 'deadline' | 'pipeline' | 'expansion',
  length: number,
  readChars: number,
): string {
  const where = `after reading ${readChars} of ${length} characters`;
  if (cut === 'deadline') return `the parser was stopped by the analysis deadline ${where}`;
  if (cut === 'expansion')
    return `\${…} nested more than ${PARSE_BUDGET.maxExpansionDepth} levels deep: only the first ${readChars} of ${length} characters are parsed`;
  if (cut === 'pipeline')
    return `a pipeline of more than ${PARSE_BUDGET.maxPipelineStages} stages: only the first ${readChars} of ${length} characters are parsed`;
  return `the parser gave up ${where}: tree-sitter re-reads this input too often (its error recovery is slow on inputs like this)`;
}

/**
 * Where the text stops being handed to the parser for a lexical reason, or undefined: the pipe
 * that starts stage `maxStages + 1` of one pipeline, or the `${` that opens expansion level
 * `maxExpansionDepth + 1` (tree-sitter-bash is slow on both: 1–10 ms per KiB, worse than linear for
 * some shapes). A lexical approximation, linear: text inside single quotes and escapes is skipped,
 * a pipeline ends at a newline, `;`, `&&`, `||` or a lone `&`. Miscounting only moves the cut (the
 * parse is then cut early, which asks, or the work caps and the deadline bound it).
 */
export function lexicalCut(
  source: string,
  maxStages: number,
  maxExpansionDepth: number,
): { at: number; kind: 'pipeline' | 'expansion' } | undefined {
  let pipes = 0;
  let expansions = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === "'" && expansions === 0) {
      const close = source.indexOf("'", i + 1);
      if (close < 0) return undefined;
      i = close;
    } else if (c === '"' && expansions === 0) {
      let j = i + 1;
      while (j < source.length && source[j] !== '"') {
        if (source[j] === '$' && source[j + 1] === '{') break;
        j += source[j] === '\\' ? 2 : 1;
      }
      if (source[j] === '$') j--; // an expansion inside the quotes: counted below
      i = j;
    } else if (c === '$' && source[i + 1] === '{') {
      if (++expansions > maxExpansionDepth) return { at: i, kind: 'expansion' };
      i++;
    } else if (c === '}' && expansions > 0) expansions--;
    else if (c === '\n' || c === ';') pipes = 0;
    else if (c === '&') {
      if (source[i + 1] === '&') i++;
      if (source[i - 1] !== '|' && source[i - 1] !== '>' && source[i + 1] !== '>') pipes = 0;
    } else if (c === '|') {
      if (source[i + 1] === '|') {
        i++;
        pipes = 0;
      } else if (++pipes > maxStages - 1) return { at: i, kind: 'pipeline' };
    }
  }
  return undefined;
}

/** Offset of the pipe that starts stage `maxStages + 1` of one pipeline, or -1 (see `lexicalCut`). */
export function longPipelineAt(source: string, maxStages: number): number {
  const cut = lexicalCut(source, maxStages, Number.POSITIVE_INFINITY);
  return cut?.kind === 'pipeline' ? cut.at : -1;
}

/** Source text of a node. */
export function nodeText(source: string, node: SyntaxNode): string {
  return source.slice(node.start, node.end);
}
