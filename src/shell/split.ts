/**
 * Parse + split: a command line → the flat list of `SimpleCommand`s it runs (compound commands as the
 * Claude Code permissions docs describe them; docs/security-round-2.md).
 *
 * Sequence: size cap → parse (parser.ts) → one explicit work stack over statements
 * (split-statements.ts), simple commands (split-command.ts) and what they launch (split-nested.ts)
 * → `SplitResult`. Fails closed: any ERROR/MISSING node, input over `MAX_PARSE_INPUT_CHARS`, a
 * construct the walk does not understand, or a nested script that does not parse gives `ok: false`
 * with the reasons in `problems` — and the commands that could still be read are returned anyway,
 * so deny rules keep matching.
 *
 * Order of `commands`: execution order as far as it is static — substitution bodies before the
 * command they feed, a command before the scripts/commands it launches (`sh -c`, `find -exec`),
 * statements in source order. Commands with no words (`A=1`, `> file`) have an empty `argv`.
 */
import { activeBudget, budgetExpired } from './budget.js';
import { admitsLiteral } from './literal-command.js';
import { parseScript } from './parse-script.js';
import { initShellParser, isShellParserReady, MAX_PARSE_INPUT_CHARS } from './parser.js';
import { processLaunch } from './split-nested.js';
import { newCtx, SPLIT_LIMITS, SplitState } from './split-state.js';
import { processStatement } from './split-statements.js';
import type { SplitResult } from './types.js';

/**
 * Splits `command` into simple commands. Synchronous; requires `await initShellParser()` first,
 * except for a line the literal gate admits (literal-command.ts).
 * @throws Error when the parser was not initialised (a programming error, not a property of the input).
 */
export function parseAndSplit(command: string): SplitResult {
  if (!isShellParserReady() && !admitsLiteral(command)) {
    throw new Error(
      'parseAndSplit: the shell parser is not initialised; await initShellParser() (or use parseAndSplitAsync).',
    );
  }
  if (command.length > MAX_PARSE_INPUT_CHARS) {
    return {
      ok: false,
      problems: [
        `the command is ${command.length} characters long; commands over ${MAX_PARSE_INPUT_CHARS} are not analysed`,
      ],
      commands: [],
      findings: [],
      notes: [],
      scripts: [],
      spans: [],
      bindings: [],
    };
  }
  // tree-sitter rejects some heredocs bash accepts: retried once on a same-length rewrite (parse-mask.ts).
  const { parsed, source, midWord, heredocs, problems } = parseScript(command);
  const state = new SplitState(source);
  for (const p of problems) state.problem(p);
  for (const at of midWord)
    state.notes.push({
      kind: 'line-continuation',
      text: '\\\n',
      start: at,
      end: at,
      context: 'none',
      depth: 0,
    });
  if (parsed.cut) state.problem(parsed.cut.reason);
  else if (parsed.hasError) state.problem(describeError(source, parsed.root));
  state.stack.push({
    kind: 'stmt',
    node: parsed.root,
    script: { source, depth: 0, heredocs },
    ctx: newCtx('top', false, [], [], undefined, undefined),
    connector: '',
    trailing: [],
  });
  let substitutionChars = 0;
  while (state.stack.length > 0) {
    if (++state.tasks > SPLIT_LIMITS.maxTasks) {
      state.problem('the command is too complex to analyse');
      break;
    }
    if ((state.tasks & 63) === 0 && budgetExpired()) {
      state.problem(activeBudget()?.stop?.message ?? 'the analysis deadline passed');
      break;
    }
    const task = state.stack.pop();
    if (!task) break;
    if (task.kind === 'stmt' && SUBSTITUTIONS.has(task.node.type)) {
      substitutionChars += task.node.end - task.node.start;
      if (substitutionChars > MAX_SUBSTITUTION_CHARS) {
        state.problem(
          `substitutions nested too deeply: their bodies add up to more than ${MAX_SUBSTITUTION_CHARS} characters`,
        );
        continue;
      }
    }
    if (task.kind === 'emit') state.commands.push(task.cmd);
    else if (task.kind === 'emit-if-none') {
      if (state.commands.length === task.since) state.commands.push(task.cmd);
    } else if (task.kind === 'launch') processLaunch(state, task);
    else processStatement(state, task);
  }
  checkLineContinuations(source, state);
  const result: SplitResult = {
    ok: state.problems.length === 0,
    problems: state.problems,
    commands: state.commands,
    findings: [],
    notes: state.notes,
    scripts: state.scripts,
    spans: state.spans,
    bindings: state.bindings,
  };
  if (source !== command) result.source = source;
  return result;
}

/**
 * Substitution bodies split per command line, in characters summed over all of them. Bodies nested
 * inside one another (`$(… $(… $(…)))`) each contain every level inside them, so the sum grows with
 * the square of the nesting: past this, deeper bodies are not split and the command asks (300
 * levels of short commands stay well under it; 64 KiB of nesting passes it after ~15 levels).
 */
export const MAX_SUBSTITUTION_CHARS = 1_000_000;

const SUBSTITUTIONS = new Set(['command_substitution', 'process_substitution']);

/** `initShellParser()` then `parseAndSplit(command)`. */
export async function parseAndSplitAsync(command: string): Promise<SplitResult> {
  await initShellParser();
  return parseAndSplit(command);
}

const WORD_CHAR = /[^\s;&|<>()]/;

/**
 * tree-sitter-bash splits `ec\<newline>ho` into two words where bash (which removes the pair before
 * tokenising) reads `echo`. Such a continuation inside a word is a parser differential: fail closed.
 * A continuation inside a quoted or heredoc span is text, not code: the innermost span containing it
 * (the one that starts last) decides. One sweep over the spans sorted by start: O((k + s) log s).
 */
function checkLineContinuations(command: string, state: SplitState): void {
  const candidates: number[] = [];
  for (let i = command.indexOf('\\\n'); i >= 0; i = command.indexOf('\\\n', i + 2)) {
    let backslashes = 0;
    for (let k = i - 1; k >= 0 && command[k] === '\\'; k--) backslashes++;
    if (backslashes % 2 === 1) continue;
    if (!WORD_CHAR.test(command[i - 1] ?? ' ') || !WORD_CHAR.test(command[i + 2] ?? ' ')) continue;
    candidates.push(i);
  }
  if (candidates.length === 0) return;
  // stable sort by start: of two spans with the same start, the later one is the inner one
  const spans = state.spans.map((span, order) => ({ span, order }));
  spans.sort((a, b) => a.span.start - b.span.start || a.order - b.order);
  const open: (typeof state.spans)[number][] = [];
  let next = 0;
  for (const i of candidates) {
    while (next < spans.length && (spans[next]?.span.start ?? 0) <= i)
      open.push((spans[next++] as (typeof spans)[number]).span);
    while (open.length > 0 && (open[open.length - 1]?.end ?? 0) <= i) open.pop();
    const innermost = open[open.length - 1];
    if (!innermost || innermost.kind === 'code') {
      state.problem(`line continuation inside a word at offset ${i} (bash joins the pieces into one word)`);
      return;
    }
  }
}

/** A one-line description of the first ERROR or MISSING node (iterative search). */
function describeError(source: string, root: import('./parser.js').SyntaxNode): string {
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop() as import('./parser.js').SyntaxNode;
    if (n.missing) return `the command is incomplete: missing "${n.type}" at offset ${n.start}`;
    if (n.type === 'ERROR') {
      const text = source.slice(n.start, Math.min(n.end, n.start + 30));
      return `the command does not parse as bash near offset ${n.start} (${JSON.stringify(text)})`;
    }
    for (let k = n.children.length - 1; k >= 0; k--)
      stack.push(n.children[k] as import('./parser.js').SyntaxNode);
  }
  return 'the command does not parse as bash';
}
