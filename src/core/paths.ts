/**
 * Path vocabulary shared by file tools, shell effects, the permission engine and the sandbox
 * (the Claude Code tools reference; docs/security-round-2.md).
 *
 * - `expandPath`: `~`/`~/x`, `file://` URLs and relative paths → absolute, normalised (`..` folded).
 * - `PathResolver`: resolves symlinks, including a symlinked *parent* of a file that does not exist yet.
 *   Injectable so the security corpus can describe a world without touching the real disk.
 * - `isPathInside`: separator-aware containment (`/p/project-secrets` is not inside `/p/project`).
 */
import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * True when `p` is an absolute POSIX path that `path.resolve` returns unchanged: no empty, `.` or
 * `..` segment and no trailing slash (the root `/` aside).
 */
export function isNormalAbsolute(p: string): boolean {
  return (
    p.startsWith('/') &&
    !p.includes('//') &&
    !p.includes('/./') &&
    !p.includes('/../') &&
    !p.endsWith('/.') &&
    !p.endsWith('/..') &&
    (p.length === 1 || !p.endsWith('/'))
  );
}

/** Expands `~`, `file://` and relative paths against `cwd`; returns an absolute normalised path. */
export function expandPath(input: string, opts: { cwd: string; home?: string }): string {
  // Most paths a call names are absolute and normal already: no home directory lookup, no resolve.
  if (isNormalAbsolute(input)) return input;
  const home = opts.home ?? homedir();
  let p = input;
  if (p.startsWith('file://')) {
    try {
      p = fileURLToPath(p);
    } catch {
      p = p.slice('file://'.length);
    }
  }
  if (p === '~') p = home;
  else if (p.startsWith('~/')) p = path.join(home, p.slice(2));
  return path.resolve(opts.cwd, p);
}

/** True when `child` is `parent` or lies below it. Both must be absolute and normalised. */
export function isPathInside(child: string, parent: string): boolean {
  if (child === parent) return true;
  const rel = path.relative(parent, child);
  // `..foo` and `...` are ordinary names inside `parent`; only `..` itself or a `../` prefix leaves it.
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/** True when `p` lies inside any of `dirs`. */
export function isInsideAny(p: string, dirs: readonly string[]): boolean {
  return dirs.some((d) => isPathInside(p, d));
}

/** Resolves symlinks of an absolute path. */
export interface PathResolver {
  /**
   * Returns the real path of `absPath`: every symlink on the way resolved. When the file does not
   * exist, the deepest existing ancestor is resolved and the rest appended (so a symlinked parent
   * of a new file is honoured). Never throws.
   */
  realpath(absPath: string): string;
  /**
   * Whether `absPath` (already resolved) is an existing directory: `true`, `false` (missing or
   * not a directory), or `undefined` when it cannot be told. Optional: a resolver without it
   * makes every such question unknown (callers then assume both). Never throws.
   */
  isDirectory?(absPath: string): boolean | undefined;
}

/** Resolver over the real filesystem. */
export const fsPathResolver: PathResolver = {
  realpath(absPath: string): string {
    let head = absPath;
    const tail: string[] = [];
    for (;;) {
      try {
        const real = realpathSync.native(head);
        return tail.length ? path.join(real, ...tail.reverse()) : real;
      } catch {
        const parent = path.dirname(head);
        if (parent === head) return absPath;
        tail.push(path.basename(head));
        head = parent;
      }
    }
  },
  isDirectory(absPath: string): boolean | undefined {
    try {
      const st = statSync(absPath, { throwIfNoEntry: false });
      return st ? st.isDirectory() : false;
    } catch {
      return undefined;
    }
  },
};

/**
 * A resolver over a declared map of symlinks (link absolute path → absolute target), for tests and
 * the security corpus. Links may chain; resolution stops after 40 hops (as the kernel's ELOOP).
 * With `directories`, `isDirectory` answers from that list; without, it is left out (unknown).
 */
export function mapPathResolver(
  links: Record<string, string>,
  /** Directories of the declared world; when given, every other path is not a directory. */
  directories?: readonly string[],
): PathResolver {
  const entries = Object.entries(links).map(([k, v]) => [path.resolve(k), path.resolve(v)] as const);
  const dirs = directories ? new Set(directories.map((d) => path.resolve(d))) : undefined;
  return {
    ...(dirs ? { isDirectory: (absPath: string) => dirs.has(path.resolve(absPath)) } : {}),
    realpath(absPath: string): string {
      let p = path.resolve(absPath);
      for (let hops = 0; hops < 40; hops++) {
        const hit = entries.find(([link]) => isPathInside(p, link));
        if (!hit) return p;
        const [link, target] = hit;
        const rest = path.relative(link, p);
        p = rest ? path.join(target, rest) : target;
      }
      return p;
    },
  };
}

/** Expand and then resolve symlinks. */
export function resolvePath(
  input: string,
  opts: { cwd: string; home?: string; resolver?: PathResolver },
): string {
  const abs = expandPath(input, opts);
  return (opts.resolver ?? fsPathResolver).realpath(abs);
}

/** Path relative to `base` when inside it, else the absolute path (for model-facing output). */
export function displayPath(p: string, base: string): string {
  return isPathInside(p, base) && p !== base ? path.relative(base, p) : p;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why `value` cannot name a file, or undefined when it can: a NUL character (the system cuts a path
 * there, so the rest would be silently dropped), or an unpaired UTF-16 surrogate (it has no UTF-8
 * form; Node would turn it into U+FFFD and open a different name).
 */
export function pathCharacterProblem(value: string): string | undefined {
  if (value.includes('\0')) return 'a NUL character (\\0)';
  if (LONE_SURROGATE.test(value)) return 'an unpaired UTF-16 surrogate (not valid Unicode)';
  return undefined;
}

/** The validation message for a path field holding a character no file name can hold. */
export function invalidPathMessage(field: string, value: string): string | undefined {
  const problem = pathCharacterProblem(value);
  return problem
    ? `${field} contains ${problem}, which no file name can hold. Remove it and give the path as it is on disk.`
    : undefined;
}
