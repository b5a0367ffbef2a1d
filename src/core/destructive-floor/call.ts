/**
 * The call as the destructive-floor rows see it (docs/security-round-2.md "Destructive floor"):
 * sub-commands with their program's base name and arguments, the file effects, and path helpers.
 * Rows read the shell analysis's parsed sub-commands and effects, never the raw command text, so
 * `/bin/rm -r -f ~`, `sudo rm -rf /`, `bash -c 'rm -rf ~'` and `xargs rm -rf` look the same.
 */
import path from 'node:path';
import type { Effect } from '../effects.js';
import type { CallDescription, SubcommandInfo } from '../permission-types.js';

/** What the floor needs of a call: the shell analysis's (or a file tool's) description. */
export type FloorInput = Pick<CallDescription, 'effects' | 'findings'> & {
  subcommands?: readonly SubcommandInfo[];
};

/** The world the call runs in. */
export interface FloorContext {
  /** The user's home directory (absolute). */
  home: string;
  /** The working directories (absolute): the project root first. */
  workingDirs: readonly string[];
  /** Symlink resolution for device paths (`/dev/disk/by-id/…` → `/dev/sda`); default: none. */
  realpath?: (p: string) => string;
}

export interface FloorSub {
  index: number;
  info: SubcommandInfo;
  /** The program's base name (`/bin/rm` → `rm`). */
  name: string;
  /** The words after the program. */
  args: readonly string[];
  /** The git sub-command and its arguments, once computed (`null`: not git or none). */
  git?: { sub: string; args: string[] } | null;
}

export interface FloorCall {
  input: FloorInput;
  ctx: FloorContext;
  subs: FloorSub[];
  effects: readonly Effect[];
  /** The effect kinds present and the programs' base names (for rows' `needs`). */
  kinds: readonly string[];
  names: readonly string[];
}

export function prepareCall(input: FloorInput, ctx: FloorContext): FloorCall {
  const subs = (input.subcommands ?? []).map((info, index) => ({
    index,
    info,
    name: info.program.slice(info.program.lastIndexOf('/') + 1),
    args: info.argv.slice(1),
  }));
  // Several rows resolve the same targets; the resolver may hit the filesystem, so once per path.
  const realpath = ctx.realpath;
  const resolved = new Map<string, string>();
  const memo: FloorContext = realpath
    ? {
        ...ctx,
        realpath: (p) => {
          let r = resolved.get(p);
          if (r === undefined) resolved.set(p, (r = realpath(p)));
          return r;
        },
      }
    : ctx;
  return {
    input,
    ctx: memo,
    subs,
    effects: input.effects,
    kinds: input.effects.map((e) => e.kind),
    names: subs.map((s) => s.name),
  };
}

/** Effects of sub-command `i` (all effects when the call has no sub-commands, e.g. a file tool). */
export function effectsOf(call: FloorCall, i: number | undefined): Effect[] {
  return call.effects.filter((e) => i === undefined || e.subcommand === i);
}

/**
 * True when the short-option cluster or long option is among `args` before `--`: `has(args, 'r',
 * 'recursive')` finds `-r`, `-rf`, `-fR`? (case-sensitive letters as given), `--recursive`.
 */
export function hasFlag(args: readonly string[], letters: string, ...long: string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a.startsWith('--')) {
      const name = a.slice(2).split('=')[0] ?? '';
      if (long.includes(name)) return true;
    } else if (a.startsWith('-') && a.length > 1 && /^-[A-Za-z]+$/.test(a)) {
      for (const ch of a.slice(1)) if (letters.includes(ch)) return true;
    }
  }
  return false;
}

/** Operands: the words that are not options (after `--`, everything). */
export function operands(args: readonly string[]): string[] {
  const out: string[] = [];
  let rest = false;
  for (const a of args) {
    if (rest) out.push(a);
    else if (a === '--') rest = true;
    else if (!a.startsWith('-') || a === '-') out.push(a);
  }
  return out;
}

/** git's options that take a value in the next word (before the sub-command). */
const GIT_VALUE_OPTIONS = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--config-env',
]);

/** `git -C x -c a=b push -f` → `{ sub: 'push', args: ['-f'] }`; undefined when there is no sub-command. */
export function gitSubcommand(s: FloorSub): { sub: string; args: string[] } | undefined {
  if (s.git !== undefined) return s.git ?? undefined;
  s.git = null;
  if (s.name !== 'git') return undefined;
  const a = s.args;
  for (let i = 0; i < a.length; i++) {
    const w = a[i] as string;
    if (GIT_VALUE_OPTIONS.has(w)) {
      i++;
      continue;
    }
    if (w.startsWith('-')) continue;
    s.git = { sub: w, args: a.slice(i + 1) };
    break;
  }
  return s.git ?? undefined;
}

const strip = (p: string): string => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p);

/** `/` or the home directory itself. */
export function isRootOrHome(p: string, ctx: FloorContext): boolean {
  const n = strip(path.posix.normalize(p));
  return n === '/' || n === strip(ctx.home);
}

/** A direct child of `/` (`/usr`, `/tmp`) or of the home directory (`~/.ssh`, `~/Documents`). */
export function isTopLevelChild(p: string, ctx: FloorContext): boolean {
  const n = strip(path.posix.normalize(p));
  if (n === '/') return false;
  const parent = path.posix.dirname(n);
  return parent === '/' || parent === strip(ctx.home);
}

/** True when `p` is inside (or equal to) one of the working directories. */
export function insideWorkingDirs(p: string, ctx: FloorContext): boolean {
  const n = strip(path.posix.normalize(p));
  return ctx.workingDirs.some((d) => {
    const w = strip(d);
    return n === w || n.startsWith(`${w}/`);
  });
}

/** True when `p` is one of the working directories itself. */
export function isWorkingDir(p: string, ctx: FloorContext): boolean {
  const n = strip(path.posix.normalize(p));
  return ctx.workingDirs.some((d) => strip(d) === n);
}

/** True when `p` is a working directory or an ancestor of one (removing it removes the project). */
export function holdsWorkingDir(p: string, ctx: FloorContext): boolean {
  const n = strip(path.posix.normalize(p));
  return ctx.workingDirs.some((d) => {
    const w = strip(d);
    return w === n || w.startsWith(n === '/' ? '/' : `${n}/`);
  });
}

/**
 * The fixed directory part of an absolute glob (`/*` → `/`, `/root/.c*` → `/root`), or undefined
 * when `target` has no glob characters.
 */
export function globBase(target: string): string | undefined {
  if (!target.startsWith('/')) return undefined;
  const i = target.search(/[*?[{]/);
  if (i < 0) return undefined;
  const head = target.slice(0, i);
  const slash = head.lastIndexOf('/');
  return slash <= 0 ? '/' : head.slice(0, slash);
}

/** find options that do not narrow what `-delete` removes. */
const FIND_NON_FILTERS = new Set([
  '-delete',
  '-depth',
  '-mindepth',
  '-maxdepth',
  '-xdev',
  '-mount',
  '-L',
  '-H',
  '-P',
  '-ignore_readdir_race',
  '-noleaf',
]);

/**
 * How much a delete effect removes:
 * - `tree`: the target and everything below it (`rm -r`, `rm -R`, `find DIR -delete` with no test);
 * - `filtered`: some files below the target (`find . -name '*.pyc' -delete`);
 * - `single`: the target alone (`rm file`, `rmdir`), or not a removal this table knows.
 */
export function removalScope(s: FloorSub | undefined, e: Effect): 'tree' | 'filtered' | 'single' {
  const find = s?.name === 'find' || e.detail?.startsWith('find');
  if (find) {
    if (!s) return 'filtered';
    const tests = s.args.filter((a) => a.startsWith('-') && !FIND_NON_FILTERS.has(a) && !/^-O\d?$/.test(a));
    return tests.length ? 'filtered' : 'tree';
  }
  if (s?.name === 'rm' && hasFlag(s.args, 'rR', 'recursive')) return 'tree';
  return 'single';
}

/**
 * `removalScope` of a delete effect of the sub-command `info` (the analysis's sub-command; none
 * for a file tool): `filtered` means the effect removes some files below its target, never the
 * target itself (`find . -name '*.pyc' -delete`).
 */
export function deleteScope(info: SubcommandInfo | undefined, e: Effect): 'tree' | 'filtered' | 'single' {
  const s: FloorSub | undefined = info && {
    index: e.subcommand ?? 0,
    info,
    name: info.program.slice(info.program.lastIndexOf('/') + 1),
    args: info.argv.slice(1),
  };
  return removalScope(s, e);
}

/** A recursive removal of any scope (`rm -r`, any `find … -delete`). */
export function recursiveRemoval(s: FloorSub | undefined, e: Effect): boolean {
  return removalScope(s, e) !== 'single';
}
