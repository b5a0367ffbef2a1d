/**
 * Could a shell glob and a rule pattern name the same path? Used for deny and ask rules over
 * effects whose target is a glob the analysis could not expand (`cat ./s?crets/k` against
 * `Read(./secrets/**)`, `cat .e*` against `Read(./.env)`): if some path matches both, the rule
 * applies. An over-approximation is the safe direction here (a deny or ask, never an allow).
 *
 * Both sides are absolute, `/`-separated. Per segment: `*` any run of characters, `?` one
 * character, `[...]` is treated as `?` (over-approximation). A whole `**` segment spans any number
 * of segments. Bash globs do not match a leading `.` with `*`, `?` or `[...]` (dotglob off); rule
 * patterns do (they are matched with `dot: true`).
 */

const CLASS = /\[[^\]/]*\]/g;

function tokens(seg: string): string[] {
  return seg.replace(CLASS, '?').split('');
}

/** True when some single segment matches both segment globs. */
export function segmentsOverlap(a: string, b: string, aIsShell: boolean, bIsShell: boolean): boolean {
  const p = tokens(a);
  const q = tokens(b);
  const wildStart = (t: string[]) => t[0] === '*' || t[0] === '?';
  // A shell glob whose segment starts with a wildcard never produces a leading dot.
  if (aIsShell && wildStart(p) && q[0] === '.') return false;
  if (bIsShell && wildStart(q) && p[0] === '.') return false;
  const memo = new Map<number, boolean>();
  const f = (i: number, j: number): boolean => {
    const key = i * 4096 + j;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    let r: boolean;
    if (i === p.length && j === q.length) r = true;
    else if (i < p.length && p[i] === '*') r = f(i + 1, j) || (j < q.length && f(i, j + 1));
    else if (j < q.length && q[j] === '*') r = f(i, j + 1) || (i < p.length && f(i + 1, j));
    else if (i < p.length && j < q.length)
      r = (p[i] === q[j] || p[i] === '?' || q[j] === '?') && f(i + 1, j + 1);
    else r = false;
    memo.set(key, r);
    return r;
  };
  return f(0, 0);
}

/**
 * True when some absolute path matches both `shellGlob` (a target as the command names it) and
 * `rulePattern` (an anchored rule glob) — or lies below a path `rulePattern` matches (gitignore
 * directory semantics).
 */
export function globsOverlap(shellGlob: string, rulePattern: string): boolean {
  const s = shellGlob.split('/').filter(Boolean);
  const r = rulePattern.split('/').filter(Boolean);
  const memo = new Map<number, boolean>();
  const g = (a: number, b: number): boolean => {
    const key = a * 4096 + b;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    let res: boolean;
    if (a === r.length)
      res = true; // the rule matched an ancestor (or the path itself)
    else if (r[a] === '**') res = g(a + 1, b) || (b < s.length && g(a, b + 1));
    else if (b === s.length) res = false;
    else res = segmentsOverlap(s[b] as string, r[a] as string, true, false) && g(a + 1, b + 1);
    memo.set(key, res);
    return res;
  };
  return g(0, 0);
}

/** Unescaped glob characters in a path (`*`, `?`, `[`). */
export function hasGlobChars(p: string): boolean {
  return /[*?[]/.test(p);
}
