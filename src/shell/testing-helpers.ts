/**
 * Test helpers for the analysis phases that consume `SimpleCommand`s (read-only validation, sed,
 * effects, exit codes): build a `SimpleCommand` from an argv array or from a simple command line
 * without the tree-sitter parser. Only tests import this file.
 *
 * `simple()` understands just enough shell for tables: words separated by blanks, single quotes,
 * double quotes (a `$` or backtick inside makes the word dynamic), backslash escapes, and
 * redirection words (`>f`, `2>/dev/null`, `2>&1`, `< in`, `>> f`, `&> f`, `<<< s`). It does NOT
 * split at operators; use the real parser (`parseAndSplit`) for command lines.
 */
import type { SyntaxNode } from './parser.js';
import type { Redirect, SimpleCommand, Word } from './types.js';

/** A tree in pre-order as one flat list of node facts (iterative: deep trees must not overflow the stack). */
export function treeShape(root: SyntaxNode): string[] {
  const out: string[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop() as SyntaxNode;
    out.push(`${n.type}|${n.named}|${n.missing}|${n.field}|${n.start}|${n.end}|${n.children.length}`);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as SyntaxNode);
  }
  return out;
}

/** A static or dynamic word from its unquoted text. */
export function word(text: string, extra: Partial<Word> = {}): Word {
  return {
    text,
    raw: extra.raw ?? text,
    dynamic: extra.dynamic ?? /[$`]/.test(text),
    quoted: extra.quoted ?? false,
    hasGlob: extra.hasGlob ?? /[*?[]/.test(text),
  };
}

/** A SimpleCommand from argv strings (first = program). */
export function cmdFromArgv(argv: string[], extra: Partial<SimpleCommand> = {}): SimpleCommand {
  const words = argv.map((a) => word(a));
  const raw = argv.join(' ');
  return {
    argv: words,
    fullArgv: extra.fullArgv ?? words,
    assignments: [],
    wrappers: [],
    redirects: [],
    raw,
    via: 'top',
    start: 0,
    end: raw.length,
    connector: '',
    inSubshell: false,
    ...extra,
  };
}

const REDIRECT_RE = /^(\d*)(&>>|&>|>>|>\||>&|<&|<<<|<>|>|<)(.*)$/s;

interface Token {
  word: Word;
  /** Unquoted text as a whole was a redirection operator (possibly with its target attached). */
  redirect?: { fd?: number; op: string; rest: string };
}

function tokenize(line: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && /\s/.test(line[i] ?? '')) i++;
    if (i >= line.length) break;
    let text = '';
    let raw = '';
    let dynamic = false;
    let quoted = false;
    let hasGlob = false;
    let unquotedPrefix = '';
    let sawQuote = false;
    while (i < line.length && !/\s/.test(line[i] ?? '')) {
      const ch = line[i] as string;
      if (ch === "'") {
        const end = line.indexOf("'", i + 1);
        const stop = end < 0 ? line.length : end;
        text += line.slice(i + 1, stop);
        raw += line.slice(i, stop + 1);
        i = stop + 1;
        quoted = sawQuote = true;
      } else if (ch === '"') {
        let j = i + 1;
        while (j < line.length && line[j] !== '"') {
          if (line[j] === '\\' && j + 1 < line.length) {
            text += line[j + 1];
            j += 2;
            continue;
          }
          if (line[j] === '$' || line[j] === '`') dynamic = true;
          text += line[j];
          j++;
        }
        raw += line.slice(i, j + 1);
        i = j + 1;
        quoted = sawQuote = true;
      } else if (ch === '\\') {
        text += line[i + 1] ?? '';
        raw += line.slice(i, i + 2);
        i += 2;
        quoted = sawQuote = true;
      } else {
        if (ch === '$' || ch === '`') dynamic = true;
        if (ch === '*' || ch === '?' || ch === '[') hasGlob = true;
        text += ch;
        raw += ch;
        if (!sawQuote) unquotedPrefix += ch;
        i++;
      }
    }
    const token: Token = { word: { text, raw, dynamic, quoted, hasGlob } };
    const m = sawQuote ? null : REDIRECT_RE.exec(unquotedPrefix);
    if (m) {
      const fd = m[1] ? Number(m[1]) : undefined;
      token.redirect =
        fd === undefined
          ? { op: m[2] as string, rest: m[3] ?? '' }
          : { fd, op: m[2] as string, rest: m[3] ?? '' };
    }
    out.push(token);
  }
  return out;
}

/**
 * A SimpleCommand from a one-command line (no operators). Leading `NAME=value` words become
 * assignments (marked dangerous when the name is in a short list used by tests).
 */
export function simple(line: string, extra: Partial<SimpleCommand> = {}): SimpleCommand {
  const tokens = tokenize(line);
  const argv: Word[] = [];
  const redirects: Redirect[] = [];
  const assignments: SimpleCommand['assignments'] = [];
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k] as Token;
    if (t.redirect) {
      let targetText = t.redirect.rest;
      let target: Word;
      if (targetText === '') {
        const next = tokens[++k];
        target = next ? next.word : word('');
        targetText = target.text;
      } else {
        target = word(targetText);
      }
      const r: Redirect = { op: t.redirect.op, target };
      if (t.redirect.fd !== undefined) r.fd = t.redirect.fd;
      redirects.push(r);
      continue;
    }
    const assign = argv.length === 0 ? /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(t.word.text) : null;
    if (assign && !t.word.raw.startsWith('"') && !t.word.raw.startsWith("'")) {
      const name = assign[1] as string;
      assignments.push({
        name,
        value: assign[2] ?? '',
        dangerous: /^(LD_|DYLD_|PATH$|IFS$|PAGER$|GIT_|LESS|NODE_OPTIONS$|BASH_ENV$|PYTHON|RIPGREP)/.test(
          name,
        ),
      });
      continue;
    }
    argv.push(t.word);
  }
  return {
    argv,
    fullArgv: argv,
    assignments,
    wrappers: [],
    redirects,
    raw: line,
    via: 'top',
    start: 0,
    end: line.length,
    connector: '',
    inSubshell: false,
    ...extra,
  };
}
