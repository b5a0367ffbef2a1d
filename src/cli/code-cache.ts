/**
 * Runs a built CommonJS bundle with V8's code cache, so a one-shot process (the in-process
 * `gantry check`) skips most of the parsing and compiling of its JavaScript. Node 20 has no compile
 * cache for ES modules; a CommonJS bundle compiled through `vm.Script` can take V8's `cachedData`.
 * docs/startup.md describes the start-up paths and their costs.
 *
 * The cache: `~/.gantry/cache/<bundle>-<build key>-<size>-<mtime>-<node version>-<arch>.v8`. The
 * build key is the SHA-256 of the bundle's content that scripts/build.mjs writes as its first line
 * (`// gantry-build-key: <hex>`), so hashing costs nothing at run time; the size and mtime of the
 * file that was read are added so that a bundle edited by hand never meets a cache made for another
 * text (V8 itself checks only its version, its flags and the length of the source). A bundle without
 * a key line runs without a cache. The cache is made after the run (`saveCache()`), so it holds the
 * functions the run compiled, and is remade when V8 rejects it (another V8 build or other flags).
 *
 * Trust, as for the hook's socket (docs/reliability.md "The hook trusts only its own server"): a
 * cache is code that runs, so it is read only from a directory that is not a symbolic link, belongs
 * to this user and has no permission bits for group or others, and only from a regular file of this
 * user that group and others cannot write; the file is opened through the opened directory
 * (`/proc/self/fd/<fd>/<name>` on Linux). An untrusted directory is never read or written; the
 * bundle then runs without a cache. Writes are atomic (a private temporary file in the same
 * directory, renamed over the old one) and replace the caches of other builds of the same bundle,
 * so the directory holds one file per bundle. `GANTRY_CODE_CACHE=0` turns the cache off.
 *
 * Nothing here throws for a cache problem: a missing, unreadable, rejected or unwritable cache
 * only costs the compile.
 */
import { isAscii } from 'node:buffer';
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import path from 'node:path';
import { Script } from 'node:vm';
import { openOwnedDir } from './owned-dir.js';

/** What happened to the cache of one load. */
export type CodeCacheState =
  /** V8 used the cache. */
  | 'accepted'
  /** A cache was there but V8 refused it (it is remade by `saveCache()`). */
  | 'rejected'
  /** No cache yet (made by `saveCache()`). */
  | 'absent'
  /** The cache directory or file failed a trust check; nothing is read or written. */
  | 'untrusted'
  /** `GANTRY_CODE_CACHE=0`, or the bundle has no build key. */
  | 'off';

export interface CachedBundle {
  /** The bundle's `module.exports`. */
  exports: Record<string, unknown>;
  state: CodeCacheState;
  /** Why the cache was not trusted (state `untrusted`). */
  reason?: string;
  /** Writes the cache when there was none or V8 rejected it; call after the run. Never throws. */
  saveCache(): void;
}

const KEY_LINE = /^\/\/ gantry-build-key: ([0-9a-f]{16,128})\n/;

/** The wrapper Node puts around a CommonJS module (the same parameters), before and after its text. */
const WRAP_HEAD = '(function (exports, require, module, __filename, __dirname) { ';
const WRAP_TAIL = '\n});';
/** The longest key line KEY_LINE matches. */
const KEY_LINE_MAX = 160;

/**
 * The text of the file open at `fd` (`size` bytes), wrapped in WRAP_HEAD and WRAP_TAIL: read into
 * one buffer between the two and decoded once, so the source V8 compiles is one flat string. Joining
 * the wrapper to the decoded text made a second copy of the megabyte when V8 flattened the join, and
 * the two young copies cost a start a garbage collection of its own (docs/startup.md). An ASCII
 * bundle (every cached one, docs/startup.md) is decoded as Latin-1, the same string several times
 * faster than UTF-8 decoding; a file with any other byte takes the UTF-8 decoder.
 * @throws what reading the file throws; a file that shrank while read is an error (`EIO`-like).
 */
function readWrapped(fd: number, size: number): string {
  const head = WRAP_HEAD.length;
  const buf = Buffer.allocUnsafe(head + size + WRAP_TAIL.length);
  buf.write(WRAP_HEAD, 0, 'latin1');
  let done = 0;
  while (done < size) {
    const n = readSync(fd, buf, head + done, size - done, done);
    if (n === 0) throw new Error(`the file shrank while it was read (${done} of ${size} bytes)`);
    done += n;
  }
  buf.write(WRAP_TAIL, head + size, 'latin1');
  return buf.toString(isAscii(buf.subarray(head, head + size)) ? 'latin1' : 'utf8');
}

/** The first line scripts/build.mjs puts in a bundle: `// gantry-build-key: <sha-256 of the rest>`. */
export function buildKeyLine(hexDigest: string): string {
  return `// gantry-build-key: ${hexDigest}\n`;
}

/** `~/.gantry/cache` for `env`. */
export function defaultCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return path.join(env.HOME || homedir(), '.gantry', 'cache');
}

/** Reads a cache file through the trusted directory; undefined when absent, `refused` when untrusted. */
function readCache(
  via: string,
  euid: number | undefined,
): { kind: 'data'; data: Buffer } | { kind: 'absent' } | { kind: 'refused'; reason: string } {
  let fd: number;
  try {
    fd = openSync(via, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'absent' };
    return { kind: 'refused', reason: `the cache file cannot be opened (${code})` };
  }
  try {
    const s = fstatSync(fd);
    if (!s.isFile()) return { kind: 'refused', reason: 'the cache file is not a regular file' };
    if (euid !== undefined && s.uid !== euid)
      return { kind: 'refused', reason: `the cache file belongs to uid ${s.uid}, not to this user` };
    if ((s.mode & 0o022) !== 0)
      return { kind: 'refused', reason: 'the cache file can be written by other users' };
    return { kind: 'data', data: readFileSync(fd) };
  } catch (error) {
    return { kind: 'refused', reason: `reading the cache file failed (${(error as Error).message})` };
  } finally {
    closeSync(fd);
  }
}

/**
 * `createRequire(file)`. In a CommonJS bundle (the clients bin/gantry.js loads) it is taken from the
 * bundle's own module object (`module.constructor` is Node's `Module`, whose `createRequire` is the
 * one `node:module` exports): loading `node:module` itself, which the build makes lazy, brings in
 * Node's ES module loader and cost a cold start about a third of a millisecond (docs/startup.md).
 */
function requireFor(file: string): NodeJS.Require {
  const own =
    typeof module === 'object' && module !== null
      ? (module.constructor as unknown as { createRequire?: typeof createRequire }).createRequire
      : undefined;
  return (typeof own === 'function' ? own : createRequire)(file);
}

/** A short, stable tag of a folder path (FNV-1a, 32 bits, base 36): not a secret, only a name. */
export function folderTag(folder: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < folder.length; i++) {
    h ^= folder.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

/**
 * Loads the CommonJS bundle `file` (like `require(file)`, without Node's module cache) with V8's
 * code cache from `cacheDir`. `variant` names the V8 flags the caller set before this call (e.g.
 * `liftoff`): V8 takes a cache only under the flags it was made with, so a bundle run under two
 * flag sets keeps one cache for each instead of remaking one cache on every switch.
 * @throws what loading the bundle throws (a missing file, an error in its top-level code).
 */
export function requireWithCodeCache(
  file: string,
  options: {
    cacheDir?: string;
    /** `[a-z0-9]+`; part of the cache file's name. */
    variant?: string;
    env?: Readonly<Record<string, string | undefined>>;
    euid?: number | undefined;
  } = {},
): CachedBundle {
  const env = options.env ?? process.env;
  const euid = 'euid' in options ? options.euid : process.geteuid?.();
  const cacheDir = options.cacheDir ?? defaultCacheDir(env);
  const fd = openSync(file, 'r');
  let source: string;
  let size: number;
  let mtimeMs: number;
  try {
    const s = fstatSync(fd);
    size = s.size;
    mtimeMs = Math.floor(s.mtimeMs);
    source = readWrapped(fd, size);
  } finally {
    closeSync(fd);
  }
  const key = KEY_LINE.exec(source.slice(WRAP_HEAD.length, WRAP_HEAD.length + KEY_LINE_MAX))?.[1];
  // The bundle's name and folder: two installs of Gantry (global and project-local) keep one cache
  // each instead of evicting each other's on every run.
  const variant = options.variant && /^[a-z0-9]+$/.test(options.variant) ? `${options.variant}-` : '';
  const base = `${path.basename(file)}-${variant}${folderTag(path.dirname(file))}`;
  const name = key
    ? `${base}-${key.slice(0, 32)}-${size.toString(36)}-${mtimeMs.toString(36)}-${process.version}-${process.arch}.v8`
    : undefined;

  let state: CodeCacheState = 'off';
  let reason: string | undefined;
  let cached: Buffer | undefined;
  if (name && env.GANTRY_CODE_CACHE !== '0') {
    const dir = openOwnedDir(cacheDir, euid);
    if (dir.kind === 'refused') {
      state = 'untrusted';
      reason = dir.reason;
    } else if (dir.kind === 'absent') {
      state = 'absent';
    } else {
      const r = readCache(dir.via(name), euid);
      dir.release();
      if (r.kind === 'data') cached = r.data;
      else if (r.kind === 'refused') {
        state = 'untrusted';
        reason = r.reason;
      } else state = 'absent';
    }
  }

  const script = new Script(source, { filename: file, ...(cached ? { cachedData: cached } : {}) });
  if (cached) state = script.cachedDataRejected ? 'rejected' : 'accepted';
  const module = { exports: {} as Record<string, unknown> };
  const fn = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: unknown,
    filename: string,
    dirname: string,
  ) => void;
  fn.call(module.exports, module.exports, requireFor(file), module, file, path.dirname(file));

  const saveCache = (): void => {
    if (!name || (state !== 'absent' && state !== 'rejected')) return;
    try {
      mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
      const dir = openOwnedDir(cacheDir, euid);
      if (dir.kind !== 'trusted') return;
      try {
        const data = script.createCachedData();
        const tmp = `.${name}.${process.pid}.tmp`;
        const out = openSync(
          dir.via(tmp),
          constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
          0o600,
        );
        try {
          try {
            writeSync(out, data);
          } finally {
            closeSync(out);
          }
          renameSync(dir.via(tmp), dir.via(name));
        } catch (error) {
          rmSync(dir.via(tmp), { force: true });
          throw error;
        }
        // one cache per bundle: drop the caches of other builds
        for (const other of readdirSync(dir.via(''))) {
          if (other !== name && other.startsWith(`${base}-`) && other.endsWith('.v8'))
            rmSync(dir.via(other), { force: true });
        }
        state = 'accepted';
      } finally {
        dir.release();
      }
    } catch {
      // a cache that cannot be written only costs the next run its compile
    }
  };
  return { exports: module.exports, state, ...(reason ? { reason } : {}), saveCache };
}
