/**
 * Same-length rewrites of a command line for a second parse when tree-sitter-bash 0.25.1 rejects
 * heredocs that bash accepts (red-team class benign-heredoc):
 *  - a delimiter quoted in part (`<<"E"OF`, `<<E'O'F`): bash strips the quotes (delimiter `EOF`,
 *    body not expanded); tree-sitter errors. Rewritten to the fully quoted form of the same length
 *    (`<<"EOF"`);
 *  - a body whose first character is a backslash before `$` or a backtick (`\$(id)`): bash reads
 *    literal text; tree-sitter errors. The backslash is replaced by `x` for the parse only;
 *  - the read-write redirection `<>` (`exec 3<>file`), which tree-sitter does not know: parsed as
 *    `>>`, read back as `<>`.
 *
 * Offsets are unchanged, and callers keep slicing node text from the original command, so words,
 * heredoc bodies (rescanned raw, words-rescan.ts) and delimiters read as written. The rewrites only
 * ever make the tree see more substitutions than bash runs, never fewer.
 */
import { activeBudget, MAX_NESTED_PARSES, MAX_REPARSED_CHARS } from './budget.js';
import { type ParsedBash, parseBash, type SyntaxNode } from './parser.js';

/**
 * `parseBash(source)` with the same-length retries of `parseOnce` (the heredoc rewrite, the
 * `[ … ]` rewrite). The result's `source` (and every node offset) refers to `source` as written.
 *
 * Within an analysis (an active budget, budget.ts) the result is memoised by text, so a script or
 * substitution body met many times is parsed once, and the characters parsed in all are capped at
 * the command's length plus `MAX_REPARSED_CHARS`, the number of different texts at
 * `MAX_NESTED_PARSES`: past either, the text is not parsed (an empty tree with `cut` set; the
 * budget records why, and the analysis asks).
 *
 * `only`: copy only the subtrees of these node types (parser.ts `parseBash`); include
 * `test_command` so the `[ … ]` rewrite still finds its brackets. `shallow`: node types kept with
 * their direct children only (parser-copy.ts). Memoised apart from whole trees (one caller, parse-script.ts,
 * asks for partial trees, always with the same sets).
 */
export function parseBashTolerant(
  source: string,
  only?: ReadonlySet<string>,
  shallow?: ReadonlySet<string>,
): ParsedBash {
  const budget = activeBudget();
  if (!budget) return parseOnce(source, only, shallow);
  const memo = (only ? budget.partialParses : budget.parses).get(source);
  if (memo) return memo;
  const over =
    budget.parsedChars === 0
      ? undefined
      : budget.parsedChars + source.length > budget.firstParseChars + MAX_REPARSED_CHARS
        ? `nested scripts and substitutions add up to more than ${MAX_REPARSED_CHARS} characters to re-parse`
        : budget.parses.size + budget.partialParses.size > MAX_NESTED_PARSES
          ? `more than ${MAX_NESTED_PARSES} different nested scripts and substitutions to parse`
          : undefined;
  if (over) {
    budget.stopWith('reparse', over);
    return { source, root: emptyRoot(), hasError: true, nodeCount: 1, cut: { readChars: 0, reason: over } };
  }
  if (budget.parsedChars === 0) budget.firstParseChars = source.length;
  budget.parsedChars += source.length;
  const parsed = parseOnce(source, only, shallow);
  (only ? budget.partialParses : budget.parses).set(source, parsed);
  return parsed;
}

/**
 * One parse of `source` with the same-length retries: the heredoc rewrite when the first parse has
 * an error, then the `[ … ]` rewrite (maskTestBrackets). A parse cut by its budget is returned as it
 * is (the analysis asks), never retried.
 */
function parseOnce(source: string, only?: ReadonlySet<string>, shallow?: ReadonlySet<string>): ParsedBash {
  let parsed = parseBash(source, 'fast', only, shallow);
  if (parsed.cut) return parsed;
  let text = source;
  if (parsed.hasError) {
    const masked = maskForParse(source);
    const retry = masked === undefined ? undefined : parseBash(masked, 'fast', only, shallow);
    if (retry && !retry.hasError && !retry.cut) {
      parsed = retry;
      text = masked as string;
    }
  }
  const brackets = maskTestBrackets(text, parsed.root);
  if (brackets !== undefined) parsed = parseBash(brackets, 'fast', only, shallow);
  return parsed.source === source ? parsed : { ...parsed, source };
}

function emptyRoot(): ParsedBash['root'] {
  return {
    type: 'program',
    named: true,
    missing: false,
    field: null,
    start: 0,
    end: 0,
    children: [],
    parent: null,
  };
}

/**
 * `[` is an ordinary builtin in bash: its operands are words and `>`/`<` inside the brackets are
 * redirections (`[ a > b ]` runs `[ a ]` with its output sent to the file `b`). tree-sitter-bash
 * reads `[ … ]` as a test expression (`>` a comparison). Each `[` that starts a `test_command` is
 * replaced by a plain word character for a second parse, so the brackets parse as the simple
 * command bash runs; node text is still sliced from the command as written, so the word reads `[`.
 * `[[ … ]]` is a keyword with its own grammar and stays as it is. Undefined when there is no `[`
 * test command. Linear in the tree size.
 */
function maskTestBrackets(source: string, root: SyntaxNode): string | undefined {
  // The `[` token of a test command is a `[` of the text: without one there is nothing to find,
  // and the walk over the whole tree is skipped.
  if (!source.includes('[')) return undefined;
  const at: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop() as SyntaxNode;
    if (n.type === 'test_command' && n.children[0]?.type === '[') at.push(n.children[0].start);
    for (const c of n.children) stack.push(c);
  }
  if (at.length === 0) return undefined;
  // The pieces between the brackets, joined once (not an array of every character of the text).
  at.sort((a, b) => a - b);
  const parts: string[] = [];
  let from = 0;
  for (const i of at) {
    if (i < from) continue; // the same bracket twice
    parts.push(source.slice(from, i), 'x');
    from = i + 1;
  }
  parts.push(source.slice(from));
  return parts.join('');
}

const PARTLY_QUOTED_DELIMITER = /<<(-?)([ \t]*)(\w*)(["'])(\w*)\4(\w*)/g;
const HEREDOC_OPERATOR = /<<-?[ \t]*["'\\]?\w/g;

/** The rewritten command, or undefined when no rewrite applies. Linear in the command length. */
export function maskForParse(command: string): string | undefined {
  const masked = command.replace(
    PARTLY_QUOTED_DELIMITER,
    (all, dash: string, blanks: string, before: string, quote: string, inner: string, after: string) =>
      before === '' && after === '' ? all : `<<${dash}${blanks}${quote}${before}${inner}${after}${quote}`,
  );
  // Single-character edits, applied at the end (no array of every character of the text).
  const edits = new Map<number, string>();
  let lastLine = -1;
  for (const m of masked.matchAll(HEREDOC_OPERATOR)) {
    const newline = masked.indexOf('\n', m.index);
    if (newline < 0 || newline === lastLine) continue;
    lastLine = newline;
    let i = newline + 1;
    if (m[0].startsWith('<<-')) while (masked[i] === '\t') i++;
    if (masked[i] === '\\' && (masked[i + 1] === '$' || masked[i + 1] === '`')) edits.set(i, 'x');
  }
  // `N<>file` opens file for reading and writing; tree-sitter-bash has no such operator. `>>` has
  // the same length and the same shape; the operator text is read from the command as written,
  // so the redirection still reads `<>` (a read and a write effect).
  for (let i = masked.indexOf('<>'); i >= 0; i = masked.indexOf('<>', i + 2)) {
    if (masked[i - 1] === '<') continue;
    edits.set(i, '>');
  }
  if (edits.size === 0) return masked !== command ? masked : undefined;
  const parts: string[] = [];
  let at = 0;
  for (const i of [...edits.keys()].sort((a, b) => a - b)) {
    parts.push(masked.slice(at, i), edits.get(i) as string);
    at = i + 1;
  }
  parts.push(masked.slice(at));
  return parts.join('');
}
