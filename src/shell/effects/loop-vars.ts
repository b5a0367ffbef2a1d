/**
 * Binds a `for` loop variable to its static word list, so `for f in src/*.ts; do wc -l "$f"; done`
 * reads `src/*.ts` instead of an undeterminable `$f`.
 *
 * Conservative by construction (anything unusual leaves the word dynamic, i.e. unknown):
 * - the loop is found in the top-level source text as `for NAME in WORDS; do` (or a newline), with
 *   every word plain (letters, digits, `/ . _ - + , : @ %`, globs `* ? [ ]`, braces `{ }`), no
 *   quotes or expansions;
 * - the body runs from that `do` to the first `done`, and contains no other loop keyword, no
 *   assignment to NAME, and none of the builtins that can set variables (`read`, `declare`,
 *   `local`, `export`, `typeset`, `mapfile`, `readarray`, `printf`, `unset`, `let`, `eval`,
 *   `source`, `.`, `getopts`, `((`);
 * - the command lies in that body at depth 0, and the argument is exactly `$NAME`, `${NAME}` or
 *   their double-quoted forms (never the program name).
 * Each such argument becomes one word per list item (glob items keep hasGlob; brace items keep
 * braceExpansion), which the sink resolves like any operand.
 *
 * Source: red-team report K, over-blocking K-807, K-1138..K-1140.
 */
import type { SimpleCommand, Word } from '../types.js';

interface Loop {
  name: string;
  items: string[];
  bodyStart: number;
  bodyEnd: number;
}

const FOR_HEAD = /(?:^|[;&|\n(\s])for\s+([A-Za-z_]\w*)\s+in\s+([^;\n]*?)\s*[;\n]\s*do\b/g;
const PLAIN_ITEM = /^~?[\w./+,:@%*?[\]{}-]+$/;
const SETS_VARIABLES =
  /\b(?:do|for|while|until|select|read|declare|local|export|typeset|mapfile|readarray|printf|unset|let|eval|source|getopts)\b|\(\(|(?:^|[;&|\s])\.\s/;

/** Every simple `for NAME in WORDS; do … done` loop of the source (see the module comment). */
export function findLoops(source: string): Loop[] {
  const loops: Loop[] = [];
  if (!source.includes('for')) return loops;
  for (const m of source.matchAll(FOR_HEAD)) {
    const name = m[1] as string;
    const items = (m[2] as string).split(/\s+/).filter((x) => x !== '');
    if (!items.length || !items.every((x) => PLAIN_ITEM.test(x))) continue;
    const bodyStart = (m.index ?? 0) + m[0].length;
    const doneRe = /\bdone\b/g;
    doneRe.lastIndex = bodyStart;
    const done = doneRe.exec(source);
    if (!done) continue;
    const body = source.slice(bodyStart, done.index);
    if (SETS_VARIABLES.test(body) || new RegExp(`\\b${name}\\+?=`).test(body)) continue;
    loops.push({ name, items, bodyStart, bodyEnd: done.index });
  }
  return loops;
}

function itemWord(text: string): Word {
  const brace = /\{[^}]*[,.][^}]*\}/.test(text);
  return {
    text,
    raw: text,
    dynamic: false,
    quoted: false,
    hasGlob: /[*?[]/.test(text) || brace,
    ...(brace ? { braceExpansion: true } : {}),
  };
}

/** `cmd` with its loop-variable arguments replaced by the loop's words (the same object when none apply). */
export function bindLoopVariables(cmd: SimpleCommand, loops: readonly Loop[]): SimpleCommand {
  if (!loops.length || (cmd.depth ?? 0) !== 0) return cmd;
  const enclosing = loops.filter((l) => cmd.start >= l.bodyStart && cmd.end <= l.bodyEnd);
  if (!enclosing.length) return cmd;
  let changed = false;
  const argv: Word[] = [];
  for (const [i, w] of cmd.argv.entries()) {
    const m = /^"?\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})"?$/.exec(w.raw);
    const name = m?.[1] ?? m?.[2];
    const loop = i > 0 && w.dynamic && name ? enclosing.find((l) => l.name === name) : undefined;
    if (!loop) {
      argv.push(w);
      continue;
    }
    changed = true;
    for (const item of loop.items) argv.push(itemWord(item));
  }
  return changed ? { ...cmd, argv } : cmd;
}
