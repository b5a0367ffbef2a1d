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
import { type ParsedBash, parseBash, type SyntaxNode } from './parser.js';

/**
 * `parseBash(source)`, retried once on `maskForParse(source)` when the first parse has an error and
 * the retry has none. The result's `source` (and every node offset) refers to `source` as written.
 */
export function parseBashTolerant(source: string): ParsedBash {
  let parsed = parseBash(source);
  let text = source;
  if (parsed.hasError) {
    const masked = maskForParse(source);
    const retry = masked === undefined ? undefined : parseBash(masked);
    if (retry && !retry.hasError) {
      parsed = retry;
      text = masked as string;
    }
  }
  const brackets = maskTestBrackets(text, parsed.root);
  if (brackets !== undefined) parsed = parseBash(brackets);
  return parsed.source === source ? parsed : { ...parsed, source };
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
  const at: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop() as SyntaxNode;
    if (n.type === 'test_command' && n.children[0]?.type === '[') at.push(n.children[0].start);
    for (const c of n.children) stack.push(c);
  }
  if (at.length === 0) return undefined;
  const chars = source.split('');
  for (const i of at) chars[i] = 'x';
  return chars.join('');
}

const PARTLY_QUOTED_DELIMITER = /<<(-?)([ \t]*)(\w*)(["'])(\w*)\4(\w*)/g;
const HEREDOC_OPERATOR = /<<-?[ \t]*["'\\]?\w/g;

/** The rewritten command, or undefined when no rewrite applies. Linear in the command length. */
export function maskForParse(command: string): string | undefined {
  let masked = command.replace(
    PARTLY_QUOTED_DELIMITER,
    (all, dash: string, blanks: string, before: string, quote: string, inner: string, after: string) =>
      before === '' && after === '' ? all : `<<${dash}${blanks}${quote}${before}${inner}${after}${quote}`,
  );
  const chars = masked.split('');
  let changed = masked !== command;
  let lastLine = -1;
  for (const m of masked.matchAll(HEREDOC_OPERATOR)) {
    const newline = masked.indexOf('\n', m.index);
    if (newline < 0 || newline === lastLine) continue;
    lastLine = newline;
    let i = newline + 1;
    if (m[0].startsWith('<<-')) while (masked[i] === '\t') i++;
    if (masked[i] === '\\' && (masked[i + 1] === '$' || masked[i + 1] === '`')) {
      chars[i] = 'x';
      changed = true;
    }
  }
  // `N<>file` opens file for reading and writing; tree-sitter-bash has no such operator. `>>` has
  // the same length and the same shape; the operator text is read from the command as written,
  // so the redirection still reads `<>` (a read and a write effect).
  for (let i = masked.indexOf('<>'); i >= 0; i = masked.indexOf('<>', i + 2)) {
    if (masked[i - 1] === '<') continue;
    chars[i] = '>';
    changed = true;
  }
  if (!changed) return undefined;
  masked = chars.join('');
  return masked;
}
