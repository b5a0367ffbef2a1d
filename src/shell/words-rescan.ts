/**
 * Raw rescans for command substitutions that tree-sitter-bash does not parse as such (red-team
 * classes cmd-substitution and heredoc-substitution): backticks and `$(…)` inside `${…}` operands
 * (`${x:-\`id\`}`, `${x/a/$(id)}`, nested `${y:-…}`), single quotes inside a double-quoted `${…}`
 * (literal in bash, so `"${x:-'$(id)'}"` runs id), and the bodies of heredocs with an unquoted
 * delimiter (backticks, `$(` after leading blanks, `<<-` bodies).
 *
 * bash(1) "QUOTING": inside double quotes and unquoted heredoc bodies only `\` (before `$`, backtick,
 * `"`, `\`, newline), `$` and backtick are special; unquoted, `'…'` is literal too. Each
 * substitution found is re-parsed as a nested script one level deeper, so its commands are split
 * out and deny rules match them. One linear pass per region; callers never rescan nested regions.
 */
import { parseScript } from './parse-script.js';
import type { Ctx, WordSink } from './words.js';

/** Nested-script depth past which rescanned substitution bodies are not parsed (split-state maxScriptDepth). */
const MAX_RESCAN_DEPTH = 8;

/** Quoting rules of the scanned region: `double` (double quotes, unquoted heredoc) or `none`. */
export type RescanMode = 'none' | 'double';

/** A substitution found in raw text. Offsets index the scanned source; `body` is the script it runs. */
export interface RawSubstitution {
  kind: '$()' | 'backtick';
  start: number;
  end: number;
  body: string;
}

/**
 * Finds the unescaped `$(…)` and backtick substitutions in `source[from, to)`.
 * Returns the substitutions and, when one is unterminated, a problem message (fail closed).
 */
export function scanSubstitutions(
  source: string,
  from: number,
  to: number,
  mode: RescanMode,
): { subs: RawSubstitution[]; problem?: string } {
  const subs: RawSubstitution[] = [];
  let inDouble = false;
  let i = from;
  while (i < to) {
    const c = source[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (mode === 'none' && c === '"') {
      inDouble = !inDouble;
      i++;
      continue;
    }
    if (mode === 'none' && !inDouble && c === '$' && source[i + 1] === "'") {
      // $'…': backslash escapes apply (`$'it\'s'`)
      let j = i + 2;
      while (j < to && source[j] !== "'") j += source[j] === '\\' ? 2 : 1;
      if (j >= to) return { subs, problem: "an unterminated $'…' inside ${…}" };
      i = j + 1;
      continue;
    }
    if (mode === 'none' && !inDouble && c === "'") {
      const close = source.indexOf("'", i + 1);
      if (close < 0 || close >= to) return { subs, problem: 'an unterminated single quote inside ${…}' };
      i = close + 1;
      continue;
    }
    if (c === '$' && source[i + 1] === '(') {
      if (source[i + 2] === '(') {
        i += 3; // arithmetic $(( … )): its contents are scanned as they come
        continue;
      }
      const close = matchParen(source, i + 2, to);
      if (close < 0) return { subs, problem: 'an unterminated $( inside ${…} or a heredoc' };
      subs.push({ kind: '$()', start: i, end: close + 1, body: source.slice(i + 2, close) });
      i = close + 1;
      continue;
    }
    if (c === '`') {
      let j = i + 1;
      let body = '';
      while (j < to && source[j] !== '`') {
        if (source[j] === '\\' && j + 1 < to) {
          const next = source[j + 1] as string;
          // inside backticks a backslash only escapes $, backtick and backslash
          body += next === '$' || next === '`' || next === '\\' ? next : `\\${next}`;
          j += 2;
          continue;
        }
        body += source[j];
        j++;
      }
      if (j >= to) return { subs, problem: 'an unterminated backtick inside ${…} or a heredoc' };
      subs.push({ kind: 'backtick', start: i, end: j + 1, body });
      i = j + 1;
      continue;
    }
    i++;
  }
  return { subs };
}

/** Index of the `)` closing a `$(` whose body starts at `from`, or -1 (quotes and escapes skipped). */
function matchParen(source: string, from: number, to: number): number {
  let depth = 1;
  let i = from;
  while (i < to) {
    const c = source[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === "'") {
      const close = source.indexOf("'", i + 1);
      if (close < 0 || close >= to) return -1;
      i = close + 1;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < to && source[j] !== '"') j += source[j] === '\\' ? 2 : 1;
      if (j >= to) return -1;
      i = j + 1;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
    i++;
  }
  return -1;
}

/**
 * Rescans `source[from, to)` for `$(…)` and backticks with bash's quoting rules (`mode`), records a
 * note and a `code` quote span for each, and queues its body re-parsed as a nested script (one level
 * deeper). Used for `${…}` operands and unquoted heredoc bodies, where tree-sitter misses them.
 */
export function rescanRegion(
  source: string,
  from: number,
  to: number,
  mode: RescanMode,
  ctx: Ctx,
  sink: WordSink,
): void {
  const { subs, problem } = scanSubstitutions(source, from, to, mode);
  if (problem) sink.problems.push(`${problem} (the command cannot be read reliably)`);
  for (const sub of subs) {
    const text = source.slice(sub.start, sub.end);
    if (ctx !== 'none' && sink.depth === 0) sink.spans.push({ kind: 'code', start: sub.start, end: sub.end });
    const [start, end] = sink.span(sub.start, sub.end);
    const kind = sub.kind === 'backtick' ? 'backtick' : 'command-substitution';
    sink.notes.push({ kind, text, start, end, context: ctx, depth: sink.depth });
    if (sink.depth + 1 > MAX_RESCAN_DEPTH) {
      sink.problems.push(`substitutions nested more than ${MAX_RESCAN_DEPTH} levels deep`);
      continue;
    }
    const { parsed, source: body, heredocs, problems } = parseScript(sub.body);
    if (parsed.hasError)
      sink.problems.push(
        `the substitution ${text.length > 40 ? `${text.slice(0, 40)}…` : text} does not parse as bash`,
      );
    sink.problems.push(...problems);
    sink.nested.push({
      node: parsed.root,
      via: sub.kind === 'backtick' ? 'backtick' : '$()',
      source: body,
      range: sink.span(sub.start, sub.end),
      heredocs,
    });
  }
}
