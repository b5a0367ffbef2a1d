/**
 * Parsing one script (the command line, or a script handed to a shell) the way bash reads it:
 *
 * 1. parse (parse-mask.ts: tree-sitter with its same-length retries);
 * 2. join backslash-newline continuations (continuations.ts) and parse the joined text; where
 *    the pairs are kept is found by a lexical scan, or, where that scan cannot tell (heredocs,
 *    arithmetic, a `case` with a `$(…)` …), from a first parse of the text as written;
 * 3. locate heredocs with bash's rule (heredocs.ts) and parse the text with every heredoc
 *    operator turned into a same-length input redirection and every body blanked, so the parser
 *    splits the command line exactly as bash does; the bodies are handed back by operator offset.
 *
 * When the parser's own reading of the heredocs (step 2's tree) disagrees with bash's rule, the
 * command is still split as bash reads it, and a problem is reported (the line asks): the
 * analysis does not rely on either reading alone. Offsets of the result refer to `source`.
 */
import { type Joined, joinContinuations, scanContinuations } from './continuations.js';
import { type Heredoc, type HeredocScan, maskHeredocs, scanHeredocs } from './heredocs.js';
import { parseBashTolerant } from './parse-mask.js';
import type { ParsedBash, SyntaxNode } from './parser.js';

/** A parsed script. */
export interface ParsedScript {
  parsed: ParsedBash;
  /** The text as bash reads it (continuations joined); every offset refers to it. */
  source: string;
  /** Offsets in `source` where an unquoted word was joined across a continuation. */
  midWord: number[];
  /** Here-documents by the offset of their `<<` operator. */
  heredocs: ReadonlyMap<number, Heredoc>;
  /** Reasons the reading cannot be trusted in full (empty when it can). */
  problems: string[];
}

const NO_HEREDOCS: ReadonlyMap<number, Heredoc> = new Map();

/**
 * What the first parse of a line with heredocs and no continuation is read for: the parser's own
 * heredocs (`treeAgrees`: each `heredoc_redirect`'s operator and end, its direct children) and the
 * `[ … ]` rewrite's test commands (whole, wherever they are, bodies included). The line is split
 * from the parse of the masked text, so the rest of the first tree is not copied.
 */
const FIRST_PARSE_NODES: ReadonlySet<string> = new Set(['test_command']);
const FIRST_PARSE_SHALLOW: ReadonlySet<string> = new Set(['heredoc_redirect']);

/** Parses `text` as bash reads it (see the module comment). Never throws for any text. */
export function parseScript(text: string): ParsedScript {
  // Continuations are found by a lexical scan when it can tell (continuations.ts): then only the
  // joined text is parsed.
  const lexical = text.includes('\\\n') ? scanContinuations(text) : undefined;
  if (lexical && lexical.unsure === undefined) return parseJoined(text, lexical.joined);
  // Without a continuation the text bash reads is `text` itself, so its heredocs are known before
  // the first parse (a parse cut by its budget is still copied whole: it is what is analysed).
  const early = lexical ? undefined : scanHeredocs(text);
  const partial = early !== undefined && early.heredocs.length > 0 && early.unsure === undefined;
  let parsed = partial
    ? parseBashTolerant(text, FIRST_PARSE_NODES, FIRST_PARSE_SHALLOW)
    : parseBashTolerant(text);
  // A parse its budget cut (budget.ts) is not worth re-reading: the analysis asks anyway.
  if (parsed.cut) return { parsed, source: text, midWord: [], heredocs: NO_HEREDOCS, problems: [] };
  if (!lexical) return withHeredocs(parsed, text, [], early);
  // The scan could not tell: the regions that keep `\<newline>` are read from the parse.
  const quotedBodies = scanHeredocs(text)
    .heredocs.filter((h) => h.quoted)
    .map((h) => [h.bodyStart, h.end] as const);
  return parseJoined(text, joinContinuations(text, parsed.root, quotedBodies), parsed);
}

/** The parse of `text` joined as `joined` says (`parsed`: the parse of `text`, when there is one). */
function parseJoined(text: string, joined: Joined | undefined, parsed?: ParsedBash): ParsedScript {
  if (!joined) return withHeredocs(parsed ?? parseBashTolerant(text), text, [], undefined);
  return withHeredocs(parseBashTolerant(joined.text), joined.text, joined.midWord, undefined);
}

/** The script of `source` (parsed as `parsed`) with its heredocs located (`early`: already scanned). */
function withHeredocs(
  parsed: ParsedBash,
  source: string,
  midWord: number[],
  early: HeredocScan | undefined,
): ParsedScript {
  const scan = early ?? scanHeredocs(source);
  const problems: string[] = [];
  if (scan.heredocs.length === 0 || scan.unsure) {
    if (scan.unsure && hasHeredocNode(parsed.root))
      problems.push(`the heredocs cannot be located (${scan.unsure})`);
    return { parsed, source, midWord, heredocs: NO_HEREDOCS, problems };
  }
  if (!treeAgrees(parsed.root, scan.heredocs))
    problems.push(
      'the parser reads the heredocs differently from bash; the command is split as bash reads it',
    );
  // A document the input ends inside (no delimiter line) is data to the end of the input, as bash
  // reads it: the masked text stops where that body starts. Handed to the parser, the blanks of a
  // body that is most of the 64 KiB cost more than the rest of the analysis (tree-sitter-bash
  // scans each blank; docs/analysis-budget.md). The tree then ends there; the body is in `heredocs`.
  const open = scan.heredocs.find((h) => !h.terminated);
  const masked = maskHeredocs(source, scan.heredocs, open ? open.bodyStart : source.length) as string;
  const maskedParse = parseBashTolerant(masked);
  const heredocs = new Map<number, Heredoc>();
  for (const h of scan.heredocs) heredocs.set(h.op, h);
  return { parsed: { ...maskedParse, source }, source, midWord, heredocs, problems };
}

function hasHeredocNode(root: SyntaxNode): boolean {
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop() as SyntaxNode;
    if (n.type === 'heredoc_redirect') return true;
    for (const c of n.children) stack.push(c);
  }
  return false;
}

/** True when every heredoc the tree found is one bash finds, with its delimiter on the same line. */
function treeAgrees(root: SyntaxNode, heredocs: readonly Heredoc[]): boolean {
  const byOp = new Map<number, Heredoc>();
  // A document the input ends inside (no delimiter line) may be missing from the tree: bash reads
  // it to the end of the input, and nothing follows it to be misread.
  let expected = 0;
  for (const h of heredocs) {
    byOp.set(h.op, h);
    if (h.terminated) expected++;
  }
  let found = 0;
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop() as SyntaxNode;
    const children = n.children;
    if (n.type === 'heredoc_redirect') {
      let op: SyntaxNode | undefined;
      let end: SyntaxNode | undefined;
      for (let i = 0; i < children.length; i++) {
        const c = children[i] as SyntaxNode;
        if (op === undefined && (c.type === '<<' || c.type === '<<-')) op = c;
        else if (end === undefined && c.type === 'heredoc_end') end = c;
      }
      const h = op ? byOp.get(op.start) : undefined;
      if (!h) return false;
      if (h.terminated) found++;
      if (end ? !(h.terminated && end.start >= h.bodyEnd && end.start <= h.end) : h.terminated) return false;
    }
    for (let i = 0; i < children.length; i++) stack.push(children[i] as SyntaxNode);
  }
  return found === expected;
}
