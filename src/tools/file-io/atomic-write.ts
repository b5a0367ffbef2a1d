/**
 * Atomic file replacement (issue 3: "Atomic (temp file + rename, mode preserved)"; "a failed write
 * leaves the old file intact; an interrupted write never leaves a half-written file").
 *
 * Sequence: (optionally) create the parent directories → write the bytes to a new temp file in the
 * SAME directory (so the rename never crosses filesystems) with `wx`, the target's mode and (when
 * permitted) its owner → fsync
 * the temp file → rename it over the target → fsync the directory (best effort). Any failure before
 * the rename removes the temp file and rethrows; the target is then untouched.
 *
 * The caller passes a symlink-resolved path, so renaming replaces the real file and a symlink that
 * pointed to it keeps pointing to it. A hard-linked target is replaced by a new inode (its other
 * names keep the old content), as with every rename-based editor.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

export interface AtomicWriteOptions {
  /**
   * Permission bits for the file. Default: the existing file's rwx bits (setuid/setgid/sticky are
   * dropped, as the kernel drops them when an unprivileged process writes a file), or 0o666 minus
   * the umask for a new file.
   */
  mode?: number;
  /** Create missing parent directories (default false). */
  createParents?: boolean;
}

/** Name of the temp file used while writing `target` (hidden, same directory, random suffix). */
export function tempPathFor(target: string): string {
  return path.join(
    path.dirname(target),
    `.${path.basename(target)}.gantry-${randomBytes(6).toString('hex')}.tmp`,
  );
}

/** True when `name` is one of our temp files (for tests that check nothing is left behind). */
export function isGantryTempName(name: string): boolean {
  return /^\..*\.gantry-[0-9a-f]{12}\.tmp$/.test(name);
}

/**
 * Writes `bytes` to `target` atomically.
 * @returns the mode the file ended with.
 * @throws the underlying fs error (ENOENT parent, EACCES, EISDIR target, ENOSPC…); the target is
 *   unchanged and no temp file remains when it throws.
 */
export async function writeFileAtomic(
  target: string,
  bytes: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<{ mode: number }> {
  const dir = path.dirname(target);
  if (options.createParents) await mkdir(dir, { recursive: true });

  let mode = options.mode;
  let owner: { uid: number; gid: number } | undefined;
  try {
    const existing = await stat(target);
    mode ??= existing.mode & 0o777;
    owner = { uid: existing.uid, gid: existing.gid };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }

  const temp = tempPathFor(target);
  let renamed = false;
  try {
    const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode ?? 0o666);
    try {
      let offset = 0;
      while (offset < bytes.length) {
        const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
        offset += bytesWritten;
      }
      // open() applies the umask to the mode; chmod sets exactly the original bits back.
      if (mode !== undefined) await handle.chmod(mode);
      // Keep the owner (possible only with the privilege to chown; otherwise the writer owns it,
      // as with any editor that saves by rename).
      if (owner && (owner.uid !== process.getuid?.() || owner.gid !== process.getgid?.())) {
        await handle.chown(owner.uid, owner.gid).catch(() => undefined);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
    renamed = true;
  } finally {
    if (!renamed) await unlink(temp).catch(() => undefined);
  }
  await syncDirectory(dir);
  return { mode: mode ?? (await stat(target)).mode & 0o777 };
}

/** fsync a directory so the rename itself is durable; some filesystems refuse it, which is harmless. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // not supported here (e.g. some network filesystems): the data itself is already synced
  }
}
