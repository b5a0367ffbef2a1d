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

const FOR_HEAD = /(?:^|[;&|\n(\s])for\s+([A-Za-z_]\w*)\s+in\s+([^;\n]{0,1000}?)\s*[;\n]\s*do\b/g;
/** Longest loop body examined (longer bodies leave the variable unknown; keeps the scan linear). */
const MAX_BODY_CHARS = 4000;
const PLAIN_ITEM = /^~?[\w./+,:@%*?[\]{}-]+$/;
const SETS_VARIABLES =
  /\b(?:do|for|while|until|select|read|declare|local|export|typeset|mapfile|readarray|printf|unset|let|eval|source|getopts)\b|\(\(|(?:^|[;&|\s])\.\s/;

/** The last source scanned and its loops (the effects and the read-only pass both ask for one line). */
let last: { source: string; loops: readonly Loop[] } | undefined;

/** Every simple `for NAME in WORDS; do … done` loop of the source (see the module comment). */
export function findLoops(source: string): readonly Loop[] {
  if (last?.source === source) return last.loops;
  const loops = scanLoops(source);
  last = { source, loops };
  return loops;
}

/** True when `body` assigns `name` (`name=` or `name+=` not preceded by a word character). */
function assigns(body: string, name: string): boolean {
  for (let i = body.indexOf(name); i >= 0; i = body.indexOf(name, i + 1)) {
    if (i > 0 && WORD_CHAR.test(body[i - 1] as string)) continue;
    let j = i + name.length;
    if (body[j] === '+') j++;
    if (body[j] === '=') return true;
  }
  return false;
}

const WORD_CHAR = /\w/;

function scanLoops(source: string): Loop[] {
  const loops: Loop[] = [];
  if (!source.includes('for')) return loops;
  const dones = [...source.matchAll(/\bdone\b/g)].map((d) => d.index);
  let next = 0;
  for (const m of source.matchAll(FOR_HEAD)) {
    const name = m[1] as string;
    const items = (m[2] as string).split(/\s+/).filter((x) => x !== '');
    if (!items.length || !items.every((x) => PLAIN_ITEM.test(x))) continue;
    const bodyStart = (m.index ?? 0) + m[0].length;
    while (next < dones.length && (dones[next] as number) < bodyStart) next++;
    const doneAt = dones[next];
    if (doneAt === undefined || doneAt - bodyStart > MAX_BODY_CHARS) continue;
    const body = source.slice(bodyStart, doneAt);
    if (SETS_VARIABLES.test(body) || assigns(body, name)) continue;
    loops.push({ name, items, bodyStart, bodyEnd: doneAt });
  }
  return loops;
}

const VARIABLE_WORD = /^"?\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})"?$/;

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
  if (!cmd.argv.some((w, i) => i > 0 && w.dynamic && VARIABLE_WORD.test(w.raw))) return cmd;
  // Bodies are disjoint and sorted (a body holding another loop keyword is rejected): binary search.
  let lo = 0;
  let hi = loops.length - 1;
  let found: Loop | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const l = loops[mid] as Loop;
    if (l.bodyStart <= cmd.start) {
      found = l;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (!found || cmd.end > found.bodyEnd) return cmd;
  const loop = found;
  const bind = (words: readonly Word[]): { out: Word[]; changed: boolean } => {
    let changed = false;
    const out: Word[] = [];
    for (const [i, w] of words.entries()) {
      const m = VARIABLE_WORD.exec(w.raw);
      const name = m?.[1] ?? m?.[2];
      if (i === 0 || !w.dynamic || name !== loop.name) {
        out.push(w);
        continue;
      }
      changed = true;
      for (const item of loop.items) out.push(itemWord(item));
    }
    return { out, changed };
  };
  const argv = bind(cmd.argv);
  if (!argv.changed) return cmd;
  // The words as written (fullArgv, read by the read-only validator) get the same binding.
  return { ...cmd, argv: argv.out, fullArgv: bind(cmd.fullArgv).out };
}
