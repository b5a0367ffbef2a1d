/**
 * Opening exactly the path a permission decision was made on (docs/reliability.md "File
 * operations act on what was checked").
 *
 * A file tool's permission target is a path with every symlink resolved. Between that check and the
 * operation, anyone who can write to a directory on the way can swap a component for a symlink to
 * somewhere else; opening the path again by name would then follow it. So a tool resolves once and
 * then works through descriptors it has verified:
 *
 * - `openCheckedFile(p)`: opens `p` without following a symlink in its last component
 *   (`O_NOFOLLOW`, and `O_NONBLOCK` so a FIFO cannot block the open), then asks the kernel where the
 *   descriptor really is (`readlink /proc/self/fd/<fd>`) and refuses unless that is `p` itself. The
 *   contents are then read through the descriptor (or through `/proc/self/fd/<fd>`, which reopens the
 *   same file, for readers that take a path).
 * - `openCheckedDirectory(d)`: the same for a directory (`O_DIRECTORY`); missing parents are
 *   created one component at a time below the deepest existing verified ancestor, each opened
 *   `O_NOFOLLOW` through its parent's descriptor. Names inside it (`entry(name)` =
 *   `/proc/self/fd/<fd>/<name>`) resolve inside that very directory, so a temp file and the rename
 *   over the target both happen in the verified directory whatever is done to the path meanwhile.
 * - `assertPermittedPath`: the path as the call resolves it now must be the one the decision named.
 *
 * Where `/proc/self/fd` does not exist (not Linux), the descriptor's path cannot be asked: the path
 * is then re-resolved after opening and compared, and the descriptor's device and inode must match
 * the path's (a narrower window, not a closed one).
 */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readFile as readFd,
  readlinkSync,
  readSync,
  type Stats,
} from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ToolUseContext } from '../../core/index.js';
import { AbortError, ToolExecutionError } from '../../core/index.js';

const PROC_FD = '/proc/self/fd';
const HAS_PROC_FD = existsSync(PROC_FD);
/** The descriptor directory by pid: valid in this process and in a child it spawns (before exec). */
const procFdOf = (fd: number): string => `/proc/${process.pid}/fd/${fd}`;

/** The path changed between the permission check and the operation: nothing was done. */
export class PathChangedError extends ToolExecutionError {
  constructor(displayPath: string, detail: string) {
    super(
      `${displayPath} changed between the permission check and the operation (${detail}); nothing was read or written. ` +
        'A symbolic link on the way was probably replaced. Check the path (e.g. `ls -la` its directories) and retry if it is right.',
    );
  }
}

/**
 * The target the decision named for this call: the first known effect stated from the tool's own
 * input (the symlink-resolved path for file tools, the search root for Glob/Grep). Undefined when
 * the call runs without a recorded decision.
 */
export function permittedTarget(context: Pick<ToolUseContext, 'permittedCall'>): string | undefined {
  return context.permittedCall?.effects.find((e) => e.source === 'tool-input' && e.certainty === 'known')
    ?.target;
}

/** Throws PathChangedError when `resolved` is not the path the permission decision named. */
export function assertPermittedPath(
  context: Pick<ToolUseContext, 'permittedCall'>,
  resolved: string,
  displayPath: string,
): void {
  const permitted = permittedTarget(context);
  if (permitted !== undefined && permitted !== resolved) {
    throw new PathChangedError(displayPath, `it was checked as ${permitted} and now resolves to ${resolved}`);
  }
}

/** Where the kernel says descriptor `fd` is, or undefined when it cannot say. */
async function descriptorPath(fd: number): Promise<string | undefined> {
  if (!HAS_PROC_FD) return undefined;
  try {
    return await readlink(`${PROC_FD}/${fd}`);
  } catch {
    return undefined;
  }
}

/** Confirms that `handle` (opened from `expected`) is `expected`; closes it and throws otherwise. */
async function verify(handle: FileHandle, expected: string, displayPath: string): Promise<void> {
  let actual = await descriptorPath(handle.fd);
  if (actual === undefined) {
    // No /proc: compare the path re-resolved now and the descriptor's identity with the path's.
    const [real, fromFd] = await Promise.all([realpath(expected).catch(() => ''), handle.stat()]);
    const fromPath = await stat(expected).catch(() => undefined);
    actual =
      real === expected && fromPath?.ino === fromFd.ino && fromPath?.dev === fromFd.dev ? expected : real;
  }
  if (actual !== expected) {
    await handle.close().catch(() => undefined);
    throw new PathChangedError(displayPath, `the opened file is ${actual || 'somewhere else'}`);
  }
}

/**
 * A file opened and verified to be the checked path. A device, socket or FIFO is not opened at all:
 * `stat` then describes it and `readAll` refuses.
 */
export interface CheckedFile {
  /** Reads the whole file through the verified descriptor. */
  readAll(options?: { signal?: AbortSignal }): Promise<Buffer>;
  /**
   * Reads the whole file through the verified descriptor in synchronous calls (positioned reads
   * from byte 0 to the end, whatever was read before). Meant for small regular files, where a
   * thread-pool round trip costs more than the read; a file that grew past `stat.size` is read to
   * its end all the same.
   */
  readAllSync(): Buffer;
  /** The checked path (symlink-resolved). */
  path: string;
  /** A path that reopens this very file (`/proc/<pid>/fd/<fd>`; the checked path without /proc). */
  ioPath: string;
  stat: Stats;
  close(): Promise<void>;
}

/**
 * Opens `filePath` for reading, verified (see the module comment).
 * @returns the open file, or `missing` when nothing (or a dangling symlink) is there.
 * @throws PathChangedError when the path now leads elsewhere or its last component became a symlink
 *   to an existing file; other fs errors (ENOTDIR, EACCES, …) as thrown by Node.
 */
export async function openCheckedFile(
  filePath: string,
  displayPath = filePath,
): Promise<CheckedFile | 'missing'> {
  // The open and its checks are synchronous system calls: each is a few microseconds on a local
  // file, where a thread-pool round trip per call costs more than the call (a small Read is mostly
  // this). The contents are still read asynchronously (`readAll`).
  // A device, socket or FIFO is described without opening it (opening one can have effects); the
  // descriptor's own type is checked again after the open.
  const named = lstatSync(filePath, { throwIfNoEntry: false });
  if (named && !named.isFile() && !named.isDirectory() && !named.isSymbolicLink()) {
    return {
      readAll: () => Promise.reject(new Error(`${displayPath} is not a regular file`)),
      readAllSync: () => {
        throw new Error(`${displayPath} is not a regular file`);
      },
      path: filePath,
      ioPath: filePath,
      stat: named,
      close: async () => undefined,
    };
  }
  let fd: number;
  try {
    fd = openSync(filePath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'missing';
    if (code === 'ELOOP') {
      // The last component is a symlink: a dangling one reads as missing (as before); one that
      // leads somewhere was not what the decision named.
      const target = await stat(filePath).catch(() => undefined);
      if (!target) return 'missing';
      throw new PathChangedError(displayPath, 'its last component is now a symbolic link');
    }
    throw error;
  }
  // Closed once: a descriptor number is reused by the next open, so a second close could close it.
  // The close of a descriptor opened for reading is one short system call: done synchronously, it
  // costs less than handing it to the thread pool and waiting for the answer.
  let open = true;
  const close = async (): Promise<void> => {
    if (!open) return;
    open = false;
    try {
      closeSync(fd);
    } catch {
      // Nothing was written through it: a failed close loses nothing.
    }
  };
  try {
    await verifyFd(fd, filePath, displayPath);
  } catch (error) {
    await close();
    throw error;
  }
  const info = fstatSync(fd);
  return {
    readAll: (options) =>
      new Promise<Buffer>((resolve, reject) => {
        if (options?.signal?.aborted) return reject(new AbortError('The read was aborted.'));
        readFd(fd, (error, bytes) => (error ? reject(error) : resolve(bytes)));
      }),
    readAllSync: () => readWholeSync(fd, info.size),
    path: filePath,
    ioPath: HAS_PROC_FD ? procFdOf(fd) : filePath,
    stat: info,
    close,
  };
}

/** Reads descriptor `fd` from byte 0 to its end with positioned synchronous reads; `sizeHint` sizes the buffer. */
function readWholeSync(fd: number, sizeHint: number): Buffer {
  // One byte more than the size: a read that fills it means the file grew, so keep reading.
  let buf = Buffer.allocUnsafe(Math.max(sizeHint + 1, 1024));
  let length = 0;
  for (;;) {
    if (length === buf.length) {
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, length);
      buf = bigger;
    }
    const asked = buf.length - length;
    const n = readSync(fd, buf, length, asked, length);
    length += n;
    // A short read at or past the size fstat gave is the end of a regular file: no read of 0 bytes needed.
    if (n === 0 || (n < asked && length >= sizeHint)) return buf.subarray(0, length);
  }
}

/** `verify` for a raw descriptor (openCheckedFile): throws PathChangedError unless `fd` is `expected`. */
async function verifyFd(fd: number, expected: string, displayPath: string): Promise<void> {
  let actual: string | undefined;
  if (HAS_PROC_FD) {
    try {
      actual = readlinkSync(`${PROC_FD}/${fd}`);
    } catch {
      actual = undefined;
    }
  }
  if (actual === undefined) {
    // No /proc: compare the path re-resolved now and the descriptor's identity with the path's.
    const real = await realpath(expected).catch(() => '');
    const fromFd = fstatSync(fd);
    const fromPath = await stat(expected).catch(() => undefined);
    actual =
      real === expected && fromPath?.ino === fromFd.ino && fromPath?.dev === fromFd.dev ? expected : real;
  }
  if (actual !== expected)
    throw new PathChangedError(displayPath, `the opened file is ${actual || 'somewhere else'}`);
}

/** A directory opened and verified to be the checked path. */
export interface CheckedDirectory {
  handle: FileHandle;
  path: string;
  /** A path naming this very directory (`/proc/<pid>/fd/<fd>`; a child process may chdir there). */
  ioPath: string;
  /** A path naming `name` inside this very directory. */
  entry(name: string): string;
  close(): Promise<void>;
}

function dirFlags(): number {
  return constants.O_RDONLY | constants.O_DIRECTORY;
}

function asChecked(handle: FileHandle, dir: string): CheckedDirectory {
  return {
    handle,
    path: dir,
    ioPath: HAS_PROC_FD ? procFdOf(handle.fd) : dir,
    entry: (name) => (HAS_PROC_FD ? `${PROC_FD}/${handle.fd}/${name}` : path.join(dir, name)),
    close: () => handle.close().catch(() => undefined),
  };
}

/**
 * Opens directory `dir` (absolute, symlink-resolved as checked), verified; with `create`, missing
 * directories are made first, each inside its verified parent.
 * @throws PathChangedError when the path now leads elsewhere; ENOENT (without `create`), ENOTDIR,
 *   EACCES… as thrown by Node.
 */
export async function openCheckedDirectory(
  dir: string,
  options: { create?: boolean; displayPath?: string } = {},
): Promise<CheckedDirectory> {
  const display = options.displayPath ?? dir;
  const missing: string[] = [];
  let base = dir;
  let handle: FileHandle | undefined;
  for (;;) {
    try {
      handle = await open(base, dirFlags());
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const parent = path.dirname(base);
      if (code !== 'ENOENT' || !options.create || parent === base) throw error;
      missing.unshift(path.basename(base));
      base = parent;
    }
  }
  await verify(handle, base, display);
  let current = asChecked(handle, base);
  for (const name of missing) {
    const next = current.entry(name);
    await mkdir(next).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    let child: FileHandle;
    try {
      child = await open(next, dirFlags() | constants.O_NOFOLLOW);
    } catch (error) {
      await current.close();
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP' || code === 'ENOTDIR')
        throw new PathChangedError(display, `${path.join(current.path, name)} is now a symbolic link`);
      throw error;
    }
    await current.close();
    current = asChecked(child, path.join(current.path, name));
  }
  if (!HAS_PROC_FD) await verify(current.handle, current.path, display);
  return current;
}

/** `lstat` of a name inside a checked directory; undefined when it does not exist. */
export async function lstatEntry(dir: CheckedDirectory, name: string) {
  try {
    return await lstat(dir.entry(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
