/**
 * The path order ripgrep's `--sort=path` produces: a depth-first walk whose directory entries are
 * sorted by name bytes. Comparing two relative paths component by component (UTF-8 bytes) gives the
 * same order, which plain string comparison does not (`a/b` must sort before `a.txt`, since the
 * entry `a` sorts before `a.txt`; `'/' > '.'` would put it after).
 */

/** Byte-wise comparison of two strings as UTF-8 (UTF-16 code-unit order differs above U+FFFF). */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  // Fast path: ASCII-only strings compare the same in UTF-16 and UTF-8.
  let ascii = true;
  for (let i = 0; i < a.length && ascii; i++) if (a.charCodeAt(i) > 0x7f) ascii = false;
  for (let i = 0; i < b.length && ascii; i++) if (b.charCodeAt(i) > 0x7f) ascii = false;
  if (ascii) return a < b ? -1 : 1;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Compares relative paths (`/`-separated) in ripgrep's `--sort=path` order. */
export function compareRipgrepPaths(a: string, b: string): number {
  if (a === b) return 0;
  const partsA = a.split('/');
  const partsB = b.split('/');
  const n = Math.min(partsA.length, partsB.length);
  for (let i = 0; i < n; i++) {
    const c = compareUtf8(partsA[i] as string, partsB[i] as string);
    if (c !== 0) return c;
  }
  return partsA.length - partsB.length;
}
