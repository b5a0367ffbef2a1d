/**
 * Bash command patterns (the Claude Code permissions docs; docs/security-round-2.md).
 *
 * - `prefix:*` and `prefix *` match a sub-command that is exactly `prefix` or starts with `prefix `
 *   (so `Bash(make:*)` does not match `makepkg`). `:*` is special only at the end.
 * - `text` without `*` matches that sub-command exactly.
 * - any other `*` matches any run of characters *within the one sub-command* it is tested against
 *   (the engine never tests a pattern against a compound line); a trailing ` *` keeps its word
 *   boundary (`git * main` vs `ls *`). `\*` is a literal star, `\\` a backslash.
 *
 * Matching is on the sub-command's normalised text (wrappers and env prefixes stripped, words
 * unquoted). `flagAwareMatch` adds the semantic form used for deny and ask rules: flags compared as
 * sets after splitting bundles (`-fr` = `-r -f`) and known long aliases (`--force` = `-f`), so
 * `Bash(rm -rf /:*)` also stops `rm -fr /` and `rm --recursive --force /`.
 */
import { getOwn } from '../../core/get-own.js';

export type ShellPattern =
  | { type: 'any' }
  | { type: 'exact'; text: string; shape?: Shape | null }
  | { type: 'prefix'; prefix: string; shape?: Shape | null }
  | { type: 'glob'; regex: RegExp };

interface Piece {
  text: string;
  star: boolean;
}

/** Splits a pattern at unescaped stars, resolving `\*` and `\\`. */
function pieces(pattern: string): Piece[] {
  const out: Piece[] = [];
  let cur = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '\\' && (pattern[i + 1] === '*' || pattern[i + 1] === '\\')) {
      cur += pattern[i + 1];
      i++;
    } else if (ch === '*') {
      out.push({ text: cur, star: false });
      out.push({ text: '*', star: true });
      cur = '';
    } else cur += ch;
  }
  out.push({ text: cur, star: false });
  return out.filter((p) => p.star || p.text !== '');
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Compiles a Bash rule specifier. */
export function compileShellPattern(spec: string): ShellPattern {
  let body = spec;
  let legacyPrefix = false;
  if (body.endsWith(':*') && !body.endsWith('\\:*')) {
    body = body.slice(0, -2);
    legacyPrefix = true;
  }
  const ps = pieces(body);
  const stars = ps.filter((p) => p.star).length;
  if (!legacyPrefix && ps.length === 1 && ps[0]?.star) return { type: 'any' };
  if (legacyPrefix && stars === 0)
    return { type: 'prefix', prefix: body.replace(/\\([*\\])/g, '$1').trimEnd() };
  if (!legacyPrefix && stars === 0) return { type: 'exact', text: ps[0]?.text ?? '' };
  // `prefix *` with a single trailing star after a space: a word-boundary prefix rule.
  const last = ps[ps.length - 1];
  const beforeLast = ps[ps.length - 2];
  if (!legacyPrefix && stars === 1 && last?.star && beforeLast && beforeLast.text.endsWith(' '))
    return { type: 'prefix', prefix: beforeLast.text.trimEnd() };
  let re = '';
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i] as Piece;
    if (!p.star) {
      re += escapeRe(p.text);
      continue;
    }
    const prev = ps[i - 1];
    if (i === ps.length - 1 && prev && !prev.star && prev.text.endsWith(' ')) {
      // trailing " *": the space is optional together with what follows (`ls *` matches `ls`).
      re = `${re.slice(0, -1)}(?: [\\s\\S]*)?`;
    } else re += '[\\s\\S]*';
  }
  if (legacyPrefix) re += '(?: [\\s\\S]*)?';
  return { type: 'glob', regex: new RegExp(`^${re}$`) };
}

/** True when the sub-command text matches the pattern literally. */
export function matchShellPattern(p: ShellPattern, text: string): boolean {
  switch (p.type) {
    case 'any':
      return true;
    case 'exact':
      return text === p.text;
    case 'prefix':
      return text === p.prefix || text.startsWith(`${p.prefix} `);
    case 'glob':
      return p.regex.test(text);
  }
}

/** Long-option aliases per program, mapped to the short flag they equal. */
const LONG_ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  rm: { '--recursive': '-r', '--force': '-f', '-R': '-r', '--dir': '-d', '--verbose': '-v' },
  cp: { '--recursive': '-r', '--force': '-f', '-R': '-r' },
  mv: { '--force': '-f' },
  chmod: { '--recursive': '-R' },
  chown: { '--recursive': '-R' },
  'git push': { '--force': '-f' },
  'git clean': { '--force': '-f' },
  'git reset': {},
  'git branch': { '--delete': '-d', '--force': '-f' },
  'git checkout': { '--force': '-f' },
  'npm publish': {},
  'npm install': { '--global': '-g' },
};

/** Global options of git that take a value (skipped when finding its sub-command). */
const GIT_GLOBAL_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path']);

interface Shape {
  head: string[];
  flags: Set<string>;
  positionals: string[];
}

/**
 * Splits words into a program head (`git push`), a flag set (bundles split, aliases applied) and the
 * positionals in order. Returns undefined when the words do not start with a plain program.
 */
function shapeOf(words: readonly string[]): Shape | undefined {
  const word0 = words[0];
  if (!word0 || word0.startsWith('-')) return undefined;
  const program = word0.includes('/') ? word0.slice(word0.lastIndexOf('/') + 1) : word0;
  const head = [program];
  let rest = words.slice(1);
  if (program === 'git') {
    let i = 0;
    while (i < rest.length && (rest[i] as string).startsWith('-')) {
      const w = rest[i] as string;
      i += GIT_GLOBAL_WITH_VALUE.has(w) ? 2 : 1;
    }
    const sub = rest[i];
    if (sub !== undefined) {
      head.push(sub);
      rest = rest.slice(i + 1);
    } else rest = [];
  }
  const aliases: Readonly<Record<string, string>> = getOwn(LONG_ALIASES, head.join(' ')) ?? {};
  const flags = new Set<string>();
  const positionals: string[] = [];
  let endOfFlags = false;
  for (const w of rest) {
    if (!endOfFlags && w === '--') {
      endOfFlags = true;
      continue;
    }
    if (!endOfFlags && w.startsWith('--')) {
      flags.add(getOwn(aliases, w) ?? w);
    } else if (!endOfFlags && /^-[A-Za-z]+$/.test(w)) {
      const alias = getOwn(aliases, w);
      if (alias) flags.add(alias);
      else for (const c of w.slice(1)) flags.add(getOwn(aliases, `-${c}`) ?? `-${c}`);
    } else if (!endOfFlags && w.length > 1 && w.startsWith('-')) flags.add(w);
    else positionals.push(w);
  }
  return { head, flags, positionals };
}

/** Shapes of command argv arrays, computed once per array (descriptions are immutable values). */
const shapeCache = new WeakMap<readonly string[], Shape | null>();

function commandShape(argv: readonly string[]): Shape | undefined {
  let s = shapeCache.get(argv);
  if (s === undefined) {
    s = shapeOf(argv) ?? null;
    shapeCache.set(argv, s);
  }
  return s ?? undefined;
}

/**
 * Flag-aware match for deny/ask rules with a `prefix`/`exact` pattern: same program head (the
 * command word reduced to its basename), the rule's positionals are a prefix of the command's
 * (equal for exact rules), and the rule's flags a subset of the command's (equal for exact rules).
 * Needs the command's argv (unquoted words). The rule's shape is computed once and kept on it.
 */
export function flagAwareMatch(p: ShellPattern, argv: readonly string[]): boolean {
  if (p.type !== 'prefix' && p.type !== 'exact') return false;
  if (p.shape === undefined)
    p.shape = shapeOf((p.type === 'prefix' ? p.prefix : p.text).split(/\s+/).filter(Boolean)) ?? null;
  const r = p.shape;
  const first = argv[0];
  if (!r || !first) return false;
  const program = first.includes('/') ? first.slice(first.lastIndexOf('/') + 1) : first;
  if (r.head[0] !== program) return false;
  const c = commandShape(argv);
  if (!c) return false;
  if (r.head.length !== c.head.length || r.head.some((w, i) => w !== c.head[i])) {
    // A rule naming only the program (`git:*`) matches any git sub-command.
    if (!(r.head.length === 1 && r.positionals.length === 0 && r.flags.size === 0)) return false;
  }
  for (const f of r.flags) if (!c.flags.has(f)) return false;
  if (p.type === 'exact' && r.flags.size !== c.flags.size) return false;
  if (r.positionals.length > c.positionals.length) return false;
  for (let i = 0; i < r.positionals.length; i++) if (r.positionals[i] !== c.positionals[i]) return false;
  if (p.type === 'exact' && r.positionals.length !== c.positionals.length) return false;
  return true;
}
