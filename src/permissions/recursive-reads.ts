/**
 * Reads of a whole directory tree, for Read deny rules (docs/security-round-2.md step 1, "a
 * `Read(...)` deny rule covers a path the command statically reads"): `grep -r KEY .` reads
 * `./.env` when it exists, although its only static operand is `.`. The shell analysis reports a
 * read of the directory; this module says which sub-commands read the *contents* of every file
 * below it:
 *
 * | program | recursive when | dot-files |
 * |---|---|---|
 * | grep, egrep, fgrep, zgrep | `-r`, `-R` (also bundled), `--recursive`, `--dereference-recursive`, `-d recurse` | read |
 * | rg, ag, ack | always | skipped unless `-u`/`-uu`/`--hidden`/`-.` (rg), `--hidden`/`-u` (ag) |
 * | tar | creating (`c` mode) | read |
 * | zip | `-r`, `--recurse-paths` | read |
 * | cp, scp | `-r`, `-R`, `-a`, `--recursive`, `--archive` | read |
 * | rsync | `-r`, `-a`, `--recursive`, `--archive` | read |
 *
 * Listing programs (`ls -R`, `find`, `tree`, `du`) read names, not contents, and are not here.
 * `ruleCertainlyBelow` then names the denied path a recursive read certainly reaches: a literal
 * rule path below the directory, a literal directory rule (`./secrets/**`) below it, or a literal
 * any-depth name (`Read(.env)`) directly inside it. Rules that could only possibly match (`*.env`)
 * do not fire, so `grep -rn x src` under `Read(*.env)` stays allowed.
 */
import path from 'node:path';
import { isPathInside } from '../core/paths.js';
import type { SubcommandInfo } from '../core/permission-types.js';
import { hasGlobChars } from './rules/glob-overlap.js';

export interface RecursiveRead {
  /** True when dot-files and dot-directories are read too. */
  hidden: boolean;
}

const bundled = (argv: readonly string[], letters: string, longs: readonly string[]): boolean =>
  argv.some((w) => longs.includes(w) || (/^-[A-Za-z]+$/.test(w) && [...letters].some((l) => w.includes(l))));

/** How a sub-command reads directory trees (undefined: it does not read file contents recursively). */
export function recursiveRead(sub: SubcommandInfo): RecursiveRead | undefined {
  const prog = path.posix.basename(sub.program);
  const args = sub.argv.slice(1);
  switch (prog) {
    case 'grep':
    case 'egrep':
    case 'fgrep':
    case 'zgrep': {
      const d = args.findIndex((w) => w === '-d' || w === '--directories');
      const recurse =
        bundled(args, 'rR', ['--recursive', '--dereference-recursive', '--directories=recurse']) ||
        (d !== -1 && args[d + 1] === 'recurse');
      return recurse ? { hidden: true } : undefined;
    }
    case 'rg':
      return {
        hidden: args.some(
          (w) => /^-u+$/.test(w) || w === '--hidden' || w === '-.' || w === '--no-ignore-dot',
        ),
      };
    case 'ag':
      return { hidden: args.some((w) => /^-u+$/.test(w) || w === '--hidden' || w === '--unrestricted') };
    case 'ack':
      return { hidden: false };
    case 'tar': {
      const first = args[0] ?? '';
      const create = args.some((w) => w === '--create' || w === '-c') || /^-?[A-Za-z]*c/.test(first);
      return create ? { hidden: true } : undefined;
    }
    case 'zip':
      return bundled(args, 'r', ['--recurse-paths']) ? { hidden: true } : undefined;
    case 'cp':
    case 'scp':
      return bundled(args, 'rRa', ['--recursive', '--archive']) ? { hidden: true } : undefined;
    case 'rsync':
      return bundled(args, 'ra', ['--recursive', '--archive']) ? { hidden: true } : undefined;
    default:
      return undefined;
  }
}

/**
 * The path an anchored rule glob certainly names below `dir` (see module doc), or undefined.
 * `hidden` false: paths with a dot-segment below `dir` do not count (the reader skips them).
 */
export function ruleCertainlyBelow(ruleGlob: string, dir: string, hidden: boolean): string | undefined {
  let candidate: string | undefined;
  const anyDepth = /^\/\*\*\/(.+)$/.exec(ruleGlob);
  if (anyDepth && !hasGlobChars(anyDepth[1] as string))
    candidate = path.posix.join(dir, anyDepth[1] as string);
  else if (!hasGlobChars(ruleGlob)) candidate = ruleGlob;
  else {
    const tree = /^(.*)\/\*\*$/.exec(ruleGlob);
    if (tree && !hasGlobChars(tree[1] as string)) candidate = tree[1];
  }
  if (!candidate || candidate === dir || !isPathInside(candidate, dir)) return undefined;
  if (
    !hidden &&
    path.posix
      .relative(dir, candidate)
      .split('/')
      .some((s) => s.startsWith('.'))
  )
    return undefined;
  return candidate;
}
