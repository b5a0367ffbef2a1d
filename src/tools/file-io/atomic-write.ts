/**
 * Atomic file replacement: a failed write leaves the old file intact, an interrupted one never
 * leaves a half-written file, and the write lands in the directory that was checked
 * (docs/reliability.md "File operations act on what was checked", "Temp files").
 *
 * Sequence: open the target's directory, verified to be the checked path (checked-open.ts; missing
 * parents created inside it on request) → write the bytes to a new temp file INSIDE that directory
 * (through its descriptor; exclusive create, no symlink followed) with the target's mode and (when
 * permitted) its owner → fsync the temp file → rename it over the target, both names inside the
 * verified directory → fsync the directory (best effort). Any failure before the rename removes
 * the temp file and rethrows; the target is then untouched.
 *
 * The caller passes a symlink-resolved path, so renaming replaces the real file and a symlink that
 * pointed to it keeps pointing to it. A hard-linked target is replaced by a new inode (its other
 * names keep the old content), as with every rename-based editor.
 *
 * Temp files are named `.<name>.gantry-tmp-<pid>-<8 hex>` (core/stale-temp.ts): hidden,
 * recognisable, and carrying the writer's pid. A process killed between create and rename leaves one behind; the next write into
 * that directory (and `removeStaleTempFiles` at session start) removes those of this user whose pid
 * is no longer running and that are older than `GANTRY_STALE_TEMP_MS` (default 10 minutes; the age
 * guards against a live writer in another pid namespace sharing the directory).
 */
import { constants } from 'node:fs';
import { access, lstat, open, readdir, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { staleTempAgeMs, staleTempRemovable, tempNameFor, tempWriterGone } from '../../core/stale-temp.js';
import { lstatEntry, openCheckedDirectory } from './checked-open.js';

export interface AtomicWriteOptions {
  /**
   * Permission bits for the file. Default: the existing file's rwx bits (setuid/setgid/sticky are
   * dropped, as the kernel drops them when an unprivileged process writes a file), or 0o666 minus
   * the umask for a new file.
   */
  mode?: number;
  /** Create missing parent directories (default false). */
  createParents?: boolean;
  /** Refuse (EACCES) when the existing target is not writable by this process, as writing in place would. */
  requireWritable?: boolean;
  /** The path as the model named it, for error messages. */
  displayPath?: string;
}

export { DEFAULT_STALE_TEMP_MS, isGantryTempName, tempNameFor } from '../../core/stale-temp.js';

/**
 * Removes the temp files in `dir` left by writers that were killed: ours by name, owned by this
 * user, a regular file, writer pid not running, older than `minAgeMs`. Never throws.
 * @returns the names removed.
 */
export async function removeStaleTempFiles(
  dir: string,
  minAgeMs: number = staleTempAgeMs(),
): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!tempWriterGone(name)) continue;
    try {
      const file = path.join(dir, name);
      if (!staleTempRemovable(await lstat(file), minAgeMs)) continue;
      await unlink(file);
      removed.push(name);
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

/** Directories already swept for stale temp files by this process (bounded). */
const swept = new Set<string>();

function sweepOnce(dir: string): void {
  if (swept.has(dir)) return;
  if (swept.size >= 1000) swept.clear();
  swept.add(dir);
  void removeStaleTempFiles(dir);
}

/**
 * Writes `bytes` to `target` atomically.
 * @returns the mode the file ended with and its mtime.
 * @throws the underlying fs error (ENOENT parent, EACCES, EISDIR target, ENOSPC…) or
 *   PathChangedError when the directory is no longer the checked one; the target is unchanged and
 *   no temp file remains when it throws.
 */
export async function writeFileAtomic(
  target: string,
  bytes: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<{ mode: number; mtimeMs: number }> {
  const dirPath = path.dirname(target);
  const name = path.basename(target);
  const dir = await openCheckedDirectory(dirPath, {
    ...(options.createParents ? { create: true } : {}),
    displayPath: path.dirname(options.displayPath ?? target),
  });
  try {
    sweepOnce(dirPath);
    let mode = options.mode;
    let owner: { uid: number; gid: number } | undefined;
    const existing = await lstatEntry(dir, name);
    if (existing?.isFile()) {
      mode ??= existing.mode & 0o777;
      owner = { uid: existing.uid, gid: existing.gid };
      if (options.requireWritable) await access(dir.entry(name), constants.W_OK);
    }

    const temp = tempNameFor(name);
    let renamed = false;
    let mtimeMs = 0;
    let finalMode = mode;
    try {
      const handle = await open(
        dir.entry(temp),
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        mode ?? 0o666,
      );
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
        const info = await handle.stat();
        mtimeMs = info.mtimeMs;
        finalMode = info.mode & 0o777;
      } finally {
        await handle.close();
      }
      await rename(dir.entry(temp), dir.entry(name));
      renamed = true;
    } finally {
      if (!renamed) await unlink(dir.entry(temp)).catch(() => undefined);
    }
    // fsync the directory so the rename itself is durable; some filesystems refuse it (harmless).
    await dir.handle.sync().catch(() => undefined);
    return { mode: finalMode ?? 0o644, mtimeMs };
  } finally {
    await dir.close();
  }
}
