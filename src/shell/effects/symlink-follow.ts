/**
 * Recursive walks that follow symlinks: `grep -R`, `rg -L/--follow`, `find -L/-follow`,
 * `du -L/--dereference`, `cp -rL`. A symlink below the walked root can point anywhere (a project
 * link `h → /home/user` makes `grep -R token .` read the home directory); the pure analysis cannot
 * list directories, so the walk is reported as an `unknown` read (the engine asks).
 *
 * Source: red-team report K (root cause D: K-1038 grep -R, K-1039 rg -L, K-1040 find -L, K-1042 du -L).
 */
import type { Word } from '../types.js';
import type { EffectSink } from './sink.js';

/** Short-option bundle (`-rnL`) containing one of `letters`. */
function bundleHas(t: string, letters: RegExp): boolean {
  return /^-[a-zA-Z]+$/.test(t) && letters.test(t.slice(1));
}

/** The flag that makes this walk follow symlinks, or undefined. Stops at `--`. */
function followFlag(name: string, texts: readonly string[]): string | undefined {
  const before = texts.indexOf('--') >= 0 ? texts.slice(0, texts.indexOf('--')) : texts;
  switch (name) {
    case 'grep':
    case 'egrep':
    case 'fgrep':
      return before.find((t) => bundleHas(t, /R/) || t === '--dereference-recursive');
    case 'rg':
      return before.find((t) => bundleHas(t, /L/) || t === '--follow');
    case 'find':
      return texts.find((t) => t === '-L' || t === '-follow');
    case 'du':
      return before.find((t) => bundleHas(t, /L/) || t === '--dereference');
    case 'cp': {
      const deref = before.find((t) => bundleHas(t, /L/) || t === '--dereference');
      const recursive = before.some((t) => bundleHas(t, /[rRa]/) || t === '--recursive' || t === '--archive');
      return deref && recursive ? deref : undefined;
    }
    default:
      return undefined;
  }
}

/** Records an unknown read when `name` walks a tree following symlinks (see the module comment). */
export function symlinkFollowEffects(name: string, args: readonly Word[], sink: EffectSink): void {
  const flag = followFlag(
    name,
    args.map((w) => w.text),
  );
  if (flag === undefined) return;
  sink.other(
    'read',
    'files behind symlinks below the walked paths',
    'unknown',
    'flag',
    `${name} ${flag} follows symlinks, which may lead outside the working directories`,
  );
}
