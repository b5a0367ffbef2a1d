/**
 * Static unquoting of shell words, as bash performs quote removal (bash(1) "QUOTING", "EXPANSION").
 *
 * `readWord` turns one word node of the tree (`word`, `string`, `raw_string`, `ansi_c_string`,
 * `concatenation`, expansions …) into a `Word`: the static text after quote removal, whether any part
 * depends on an expansion, whether unquoted glob/brace characters remain. Along the way it reports the
 * command bodies nested in the word (`$(…)`, backticks, `<(…)`, `>(…)`) and syntax notes for the
 * security checks. Iterative: no recursion on the node depth.
 */
import type { Heredoc } from './heredocs.js';
import type { SyntaxNode } from './parser.js';
import type { QuoteSpan, SyntaxNote, SyntaxNoteKind, Word } from './types.js';
import {
  type BraceResult,
  expandMaskedWord,
  MASK_DYNAMIC,
  MASK_QUOTED,
  MAX_BRACE_WORDS,
} from './brace-expand.js';
import { decodeAnsiC, unescapeDouble, unescapeUnquoted } from './word-escapes.js';
import { rescanRegion } from './words-rescan.js';

export { decodeAnsiC, unescapeDouble, unescapeUnquoted };

/** A command body nested inside a word, to be split as its own script. */
export interface NestedBody {
  node: SyntaxNode;
  via: '$()' | 'backtick' | '<()' | '>()';
  /**
   * Set when the body was found by a raw rescan (words-rescan.ts): `node` is the root of `source`
   * re-parsed as a script one level deeper, and `range` its span in the enclosing script.
   */
  source?: string;
  range?: [number, number];
  /** Here-documents of `source` by operator offset (parse-script.ts). */
  heredocs?: ReadonlyMap<number, Heredoc>;
}

/** Collector the word reader reports into. */
export interface WordSink {
  nested: NestedBody[];
  notes: SyntaxNote[];
  problems: string[];
  /** Quote spans of the top-level command (only filled at depth 0). */
  spans: QuoteSpan[];
  /** Maps a node span in the current script to a span in the top-level command. */
  span: (start: number, end: number) => [number, number];
  depth: number;
}

const DYN = MASK_DYNAMIC;
const QUOTED = MASK_QUOTED;

export type Ctx = 'none' | 'double' | 'heredoc';

interface Item {
  node: SyntaxNode;
  ctx: Ctx;
}

/**
 * Reads a word node into a `Word`. Unknown node types inside a word are kept as written and reported
 * as a problem (fail closed). Never throws.
 */
export function readWord(source: string, node: SyntaxNode, sink: WordSink): Word {
  return readMasked(source, node, sink).word;
}

/**
 * Reads a word node into the words bash passes after brace expansion (brace-expand.ts):
 * `secret{01..02}.txt` → two words. Each result keeps which characters were quoted (so a quoted
 * `'~'` stays literal and a quoted `*` is no glob) and records the word as written in
 * `braceSource` (its unquoted text). Past the expansion cap the word is returned unexpanded, marked dynamic (its
 * targets are unknown), and a problem is reported (the command asks).
 */
export function readWords(source: string, node: SyntaxNode, sink: WordSink): Word[] {
  const { word, mask } = readMasked(source, node, sink);
  const open = mask.indexOf('{');
  if (open < 0 || mask.indexOf('}', open) < 0) return [word];
  const results = expandMaskedWord(word.text, mask);
  if (!results) {
    sink.problems.push(
      `the brace expansion ${truncate(word.raw)} produces more words than are analysed (over ${MAX_BRACE_WORDS}, or too long)`,
    );
    return [{ ...word, dynamic: true }];
  }
  if (results.length === 1 && results[0]?.text === word.text) return [word];
  // The expander hands back the same results for the same word within an analysis
  // (brace-expand.ts), so their Words are built once too (Words are never mutated).
  let words = EXPANDED_WORDS.get(results);
  if (!words) {
    words = results.map((r) => maskedWord(r.text, r.mask, word.text));
    EXPANDED_WORDS.set(results, words);
  }
  return [...words];
}

/** The Words of one expansion result list (keyed by the expander's array; `word.text` is part of its key). */
const EXPANDED_WORDS = new WeakMap<readonly BraceResult[], Word[]>();

/** A Word from an expanded text and mask (raw rebuilt so quoted characters stay quoted). */
function maskedWord(text: string, mask: string, source: string): Word {
  let raw = '';
  let quotedRun = '';
  let dynamic = false;
  let quoted = false;
  const flush = () => {
    if (quotedRun) raw += `'${quotedRun.replace(/'/g, "'\\''")}'`;
    quotedRun = '';
  };
  for (let i = 0; i < text.length; i++) {
    const m = mask[i];
    if (m === QUOTED) {
      quoted = true;
      quotedRun += text[i];
      continue;
    }
    flush();
    if (m === DYN) dynamic = true;
    raw += text[i];
  }
  flush();
  if (/^~[^/]/.test(mask)) dynamic = true;
  const word: Word = { text, raw, dynamic, quoted, hasGlob: hasGlobMask(mask), braceSource: source };
  if (word.hasGlob && mask.includes('{') && BRACE_RE.test(mask)) word.braceExpansion = true;
  return word;
}

/** Leaf node types whose text is the word itself (outside double quotes: unquoted text). */
const PLAIN_LEAVES: ReadonlySet<string> = new Set([
  'word',
  'number',
  'variable_name',
  'special_variable_name',
  'file_descriptor',
  'regex',
  'extglob_pattern',
  'test_operator',
  'heredoc_start',
]);

function readMasked(source: string, node: SyntaxNode, sink: WordSink): { word: Word; mask: string } {
  if (node.children.length === 0 && PLAIN_LEAVES.has(node.type)) {
    // The common word (`ls`, `-la`, `file.txt`): one unquoted leaf without a backslash is its own
    // text and its own mask. The same result as the walk below, without its stack and copies.
    const raw = source.slice(node.start, node.end);
    if (!raw.includes('\\')) return { word: plainWord(raw), mask: raw };
  }
  return walkMasked(source, node, sink);
}

/**
 * `readWord` without the plain-leaf shortcut: every node through the word walk. Exported for the
 * test that proves the shortcut gives the same words (words.test.ts).
 */
export function readWordByWalk(source: string, node: SyntaxNode, sink: WordSink): Word {
  return walkMasked(source, node, sink).word;
}

function walkMasked(source: string, node: SyntaxNode, sink: WordSink): { word: Word; mask: string } {
  let text = '';
  /** Unquoted static characters; quoted ones as QUOTED, dynamic parts as DYN (for glob/brace checks). */
  let mask = '';
  let dynamic = false;
  let quoted = false;
  const stack: Item[] = [{ node, ctx: 'none' }];
  while (stack.length > 0) {
    const { node: n, ctx } = stack.pop() as Item;
    const raw = source.slice(n.start, n.end);
    switch (n.type) {
      case 'word':
      case 'number':
      case 'variable_name':
      case 'special_variable_name':
      case 'file_descriptor':
      case 'regex':
      case 'extglob_pattern':
      case 'test_operator':
      case 'heredoc_start':
        if (n.children.length > 0 && n.type === 'number') {
          pushContainer(stack, source, n, ctx);
          break;
        }
        if (ctx === 'double') {
          const u = unescapeDouble(raw);
          text += u.text;
          mask += QUOTED.repeat(u.text.length);
          if (u.continuation) note(sink, 'line-continuation', raw, n, ctx);
        } else {
          const u = unescapeUnquoted(raw);
          text += u.text;
          mask += u.mask;
          if (u.escaped) quoted = true;
          if (u.continuation) note(sink, 'line-continuation', raw, n, ctx);
        }
        break;
      case 'string_content': {
        const u = unescapeDouble(raw);
        text += u.text;
        mask += QUOTED.repeat(u.text.length);
        if (u.continuation) note(sink, 'line-continuation', raw, n, ctx);
        break;
      }
      case 'raw_string': {
        span(sink, 'single', n);
        const inner = raw.slice(1, raw.endsWith("'") && raw.length > 1 ? -1 : undefined);
        text += inner;
        mask += QUOTED.repeat(inner.length);
        quoted = true;
        break;
      }
      case 'ansi_c_string': {
        span(sink, 'ansi-c', n);
        const inner = raw.slice(2, raw.endsWith("'") && raw.length > 2 ? -1 : undefined);
        const decoded = decodeAnsiC(inner);
        text += decoded;
        mask += QUOTED.repeat(decoded.length);
        quoted = true;
        note(sink, 'ansi-c-string', raw, n, ctx);
        break;
      }
      case 'string':
      case 'translated_string':
        span(sink, 'double', n);
        quoted = true;
        if (n.type === 'translated_string') note(sink, 'translated-string', raw, n, ctx);
        pushContainer(stack, source, n, 'double');
        break;
      case 'concatenation':
      case 'array':
      case 'command_name':
        pushContainer(stack, source, n, ctx);
        break;
      case 'brace_expression':
        text += raw;
        mask += raw;
        break;
      case 'simple_expansion':
      case 'expansion':
      case 'arithmetic_expansion':
      case 'command_substitution':
      case 'process_substitution':
        dynamic = true;
        text += raw;
        mask += DYN.repeat(raw.length);
        collectDynamic(source, n, ctx, sink);
        break;
      default:
        if (!n.named) {
          // Anonymous tokens: the quotes of a string are dropped, anything else is literal text.
          if (n.type === '"' || n.type === '$"') break;
          text += raw;
          mask += ctx === 'none' ? raw : QUOTED.repeat(raw.length);
          break;
        }
        sink.problems.push(`unsupported construct inside a word: ${n.type} (${truncate(raw)})`);
        dynamic = true;
        text += raw;
        mask += DYN.repeat(raw.length);
    }
  }
  if (mask.startsWith('~')) {
    // `~` and `~/…` are $HOME (resolved by effects); `~user`, `~+`, `~-` depend on the environment.
    const m = /^~([^/]*)/.exec(mask);
    if (m && m[1] !== '') dynamic = true;
  }
  const word: Word = {
    text,
    raw: source.slice(node.start, node.end),
    dynamic,
    quoted,
    hasGlob: hasGlobMask(mask),
  };
  if (word.hasGlob && mask.includes('{') && BRACE_RE.test(mask)) word.braceExpansion = true;
  return { word, mask };
}

/** The Word of an unquoted leaf without backslashes (see `readMasked`). */
function plainWord(raw: string): Word {
  // `~user`, `~+`, `~-` depend on the environment; `~` and `~/…` are $HOME (resolved by effects).
  const dynamic = raw.startsWith('~') && raw.length > 1 && raw[1] !== '/';
  const word: Word = { text: raw, raw, dynamic, quoted: false, hasGlob: hasGlobMask(raw) };
  if (word.hasGlob && raw.includes('{') && BRACE_RE.test(raw)) word.braceExpansion = true;
  return word;
}

/** Pushes the children of a container node (and literal gaps between them) in source order. */
function pushContainer(stack: Item[], source: string, n: SyntaxNode, ctx: Ctx): void {
  const items: Item[] = [];
  let pos = n.start;
  const isString = n.type === 'string' || n.type === 'translated_string';
  for (const child of n.children) {
    if (child.start > pos) items.push(gapItem(n, pos, child.start, ctx));
    items.push({ node: child, ctx });
    pos = child.end;
  }
  if (n.end > pos && !isString) items.push(gapItem(n, pos, n.end, ctx));
  else if (n.end > pos && isString) {
    const gap = source.slice(pos, n.end);
    if (gap !== '"') items.push(gapItem(n, pos, n.end, ctx));
  }
  for (let i = items.length - 1; i >= 0; i--) stack.push(items[i] as Item);
}

function gapItem(parent: SyntaxNode, start: number, end: number, ctx: Ctx): Item {
  return {
    node: {
      type: ctx === 'double' ? 'string_content' : 'word',
      named: true,
      missing: false,
      field: null,
      start,
      end,
      children: [],
      parent,
    },
    ctx,
  };
}

/**
 * Records notes and nested bodies for an expansion/substitution node (walks its subtree iteratively).
 * `covered`: the region was already rescanned for substitutions (a heredoc body, see
 * `rescanRegion`), so command substitutions tree-sitter found in it are not reported again.
 * A `${…}` is not trusted to tree-sitter: its operand text is rescanned with bash's quoting rules.
 */
export function collectDynamic(
  source: string,
  root: SyntaxNode,
  ctx: Ctx,
  sink: WordSink,
  covered = false,
): void {
  const stack: { n: SyntaxNode; covered: boolean }[] = [{ n: root, covered }];
  while (stack.length > 0) {
    const { n, covered: inCovered } = stack.pop() as { n: SyntaxNode; covered: boolean };
    let childCovered = inCovered;
    const raw = source.slice(n.start, n.end);
    switch (n.type) {
      case 'command_substitution': {
        if (inCovered) continue;
        const backtick = raw.startsWith('`');
        if (ctx !== 'none') span(sink, 'code', n);
        note(sink, backtick ? 'backtick' : 'command-substitution', raw, n, ctx);
        sink.nested.push({ node: n, via: backtick ? 'backtick' : '$()' });
        continue; // its body is split as a script; notes inside come from that walk
      }
      case 'process_substitution':
        if (inCovered && ctx === 'heredoc') continue; // not performed in heredoc bodies
        note(sink, 'process-substitution', raw, n, ctx);
        sink.nested.push({ node: n, via: raw.startsWith('>') ? '>()' : '<()' });
        continue;
      case 'expansion':
        note(sink, 'parameter-expansion', raw, n, ctx);
        if (!inCovered) {
          // Inside "${…}" single quotes are literal (bash): double-quote rules; unquoted, '…' quotes.
          const end = raw.endsWith('}') ? n.end - 1 : n.end;
          rescanRegion(source, n.start + 2, end, ctx === 'none' ? 'none' : 'double', ctx, sink);
          childCovered = true;
        }
        break;
      case 'simple_expansion':
        note(sink, 'simple-expansion', raw, n, ctx);
        break;
      case 'arithmetic_expansion':
        note(sink, 'arithmetic-expansion', raw, n, ctx);
        break;
      case 'ansi_c_string':
        note(sink, 'ansi-c-string', raw, n, ctx);
        break;
      default:
        break;
    }
    for (let i = n.children.length - 1; i >= 0; i--)
      stack.push({ n: n.children[i] as SyntaxNode, covered: childCovered });
  }
}

function span(sink: WordSink, kind: QuoteSpan['kind'], n: SyntaxNode): void {
  if (sink.depth === 0) sink.spans.push({ kind, start: n.start, end: n.end });
}

function note(sink: WordSink, kind: SyntaxNoteKind, text: string, n: SyntaxNode, ctx: Ctx): void {
  const [start, end] = sink.span(n.start, n.end);
  sink.notes.push({ kind, text, start, end, context: ctx, depth: sink.depth });
}

const BRACE_RE = /\{[^{}\s]*(?:,|\.\.)[^{}\s]*\}/;

function hasGlobMask(mask: string): boolean {
  if (mask.includes('*') || mask.includes('?')) return true;
  const open = mask.indexOf('[');
  if (open >= 0 && mask.indexOf(']', open + 1) > open) return true;
  return mask.includes('{') && BRACE_RE.test(mask);
}

function truncate(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

/** A Word for text that is fully static (used for synthesised words). */
export function staticWord(text: string, raw = text): Word {
  return { text, raw, dynamic: false, quoted: false, hasGlob: false };
}
